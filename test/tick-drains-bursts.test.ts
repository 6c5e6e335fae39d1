import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains, sourceFiles } from './helpers/brains.js';
import { runTick } from '../src/vigil/index.js';
import { readStatus, type Database } from '../src/store/index.js';
import { seek } from '../src/ranking/index.js';

/** Paths where `name` is defined (symbol hits only). */
const definedIn = (db: Database, name: string) => seek(db, name).filter((h) => h.symbol === name).map((h) => h.path);

test('a new untracked file is detected and ingested by a tick', async () => {
  const repo = await makeGitRepo(sourceFiles(3));
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    repo.write('src/brand-new.ts', 'export function brandNewThing() {}\n');
    const r = await runTick(brain);
    assert.equal(r.detected, 1);
    assert.equal(r.drained, 1);
    assert.equal(seek(brain.reader, 'brandNewThing')[0]?.path, 'src/brand-new.ts');
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});

test('a file under a noise dir is not ingested', async () => {
  const repo = await makeGitRepo(sourceFiles(2));
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    repo.write('node_modules/pkg/index.js', 'export function noise() {}\n');
    const r = await runTick(brain);
    assert.equal(r.detected, 0);
    assert.deepEqual(seek(brain.reader, 'noise'), []);
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});

test('a burst bigger than max_files drains completely without losing the tail', async () => {
  const repo = await makeGitRepo(sourceFiles(5));
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    const burst = sourceFiles(150, 'burst/b');
    for (const [p, c] of Object.entries(burst)) repo.write(p, c);
    const r = await runTick(brain, { maxFiles: 32 });
    assert.equal(r.detected, 150);
    assert.equal(r.drained, 150);
    assert.equal(r.batches, 5, '150 files in batches of 32');
    assert.equal(r.backlogLeft, 0);
    assert.equal(readStatus(brain.reader).files, 155);
    assert.equal(seek(brain.reader, 'fn149')[0]?.path, 'burst/b149.ts', 'the tail is there');
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});

test('a dirty but unchanged file is not queued again', async () => {
  const repo = await makeGitRepo(sourceFiles(3));
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    repo.write('src/f0.ts', 'export function edited() {}\n');
    assert.equal((await runTick(brain)).detected, 1);
    // Still dirty in git's eyes, but not touched since the last look.
    const again = await runTick(brain);
    assert.equal(again.detected, 0);
    assert.equal(again.drained, 0);
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});

test('a file reverted to its committed content after being dirty leaves no stale map behind', async () => {
  const repo = await makeGitRepo(sourceFiles(2));
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    repo.write('src/f0.ts', 'export function temporaryEdit() {}\n');
    await runTick(brain);
    assert.deepEqual(definedIn(brain.reader, 'temporaryEdit'), ['src/f0.ts']);
    repo.git('checkout', '--', 'src/f0.ts');
    const r = await runTick(brain);
    assert.equal(r.drained, 1, 'the once-dirty path is re-checked although git no longer lists it');
    assert.deepEqual(seek(brain.reader, 'temporaryEdit'), []);
    assert.deepEqual(definedIn(brain.reader, 'fn0'), ['src/f0.ts']);
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});

test('commits, checkouts and deletions since the last tick reach the map', async () => {
  const repo = await makeGitRepo(sourceFiles(3));
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write('src/feature.ts', 'export function featureOnly() {}\n');
    repo.remove('src/f1.ts');
    repo.commit('feature');
    repo.git('checkout', '-q', 'main');
    repo.git('merge', '-q', '--ff-only', 'feature');
    const r = await runTick(brain);
    assert.equal(r.drained, 2);
    assert.deepEqual(definedIn(brain.reader, 'featureOnly'), ['src/feature.ts']);
    assert.deepEqual(seek(brain.reader, 'fn1'), []);
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});

test('a since_ref that vanished after a rebase and gc falls back to a full detection', async () => {
  const repo = await makeGitRepo(sourceFiles(3));
  const t = await makeTestBrains();
  try {
    repo.write('src/doomed.ts', 'export function doomed() {}\n');
    repo.commit('to be rewritten');
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    repo.git('reset', '-q', '--hard', 'HEAD~1');
    repo.write('src/other.ts', 'export function otherHistory() {}\n');
    repo.commit('another history');
    repo.git('reflog', 'expire', '--expire=now', '--all');
    repo.git('gc', '-q', '--prune=now');
    const r = await runTick(brain);
    assert.equal(r.fallback, 'since_ref_missing');
    assert.deepEqual(seek(brain.reader, 'doomed'), []);
    assert.deepEqual(definedIn(brain.reader, 'otherHistory'), ['src/other.ts']);
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});
