/**
 * History lists are mined from the brain's own git history, up to the commit the map is
 * advanced to, incrementally as HEAD moves; a shallow clone has none (and says so), a
 * rewritten or rewound history is rebuilt (never mixed), a long history is bounded to its
 * newest HISTORY_MAX_COMMITS, and a huge commit keeps no paths. Real repositories, real git.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { CLI } from './helpers/mcp-client.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeGitRepo, makeTempDir, testGitEnv } from './helpers/git-repo.js';
import { makeTestBrains } from './helpers/brains.js';
import { makeTestSession } from './helpers/session.js';
import { fastImport, type ImportedCommit } from './helpers/fast-import.js';
import { runTick } from '../src/vigil/index.js';
import { openStore } from '../src/store/index.js';
import { applyHistory, mineHistory, readHistoryStates, HISTORY_MAX_COMMITS, HUGE_COMMIT_FILES } from '../src/history/index.js';
import type { Database } from '../src/store/index.js';

const shas = (db: Database) => db.prepare('SELECT sha FROM history_commits ORDER BY id').all<{ sha: string }>().map((r) => r.sha);
const log = (git: (...a: string[]) => string) => git('log', '--format=%H', '--reverse').split('\n');

test('history is mined up to the mapped head and follows it commit by commit', async () => {
  const repo = await makeGitRepo({ 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 1;\n' });
  const t = await makeTestBrains();
  try {
    repo.write('src/a.ts', 'export const a = 2;\n');
    repo.write('src/b.ts', 'export const b = 2;\n');
    repo.commit('retry the parser on timeouts');
    const { brain } = await t.brains.ensure(repo.dir);
    const first = await runTick(brain, { inventory: true });
    assert.equal(first.historyCommits, 2);
    assert.deepEqual(shas(brain.reader), log(repo.git));
    const [state] = readHistoryStates(brain.reader);
    assert.equal(state!.status, 'ready');
    assert.equal(state!.head, repo.git('rev-parse', 'HEAD'));

    repo.write('src/a.ts', 'export const a = 3;\n');
    repo.commit('third');
    const second = await runTick(brain);
    assert.equal(second.historyCommits, 1, 'only the new commit is mined');
    assert.deepEqual(shas(brain.reader), log(repo.git));
    const touched = brain.reader
      .prepare('SELECT p.path FROM history_touches t JOIN history_paths p ON p.id = t.path_id JOIN history_commits c ON c.id = t.commit_id WHERE c.sha = ?')
      .all<{ path: string }>(repo.git('rev-parse', 'HEAD'));
    assert.deepEqual(touched.map((r) => r.path), ['src/a.ts']);
    const words = brain.reader.prepare("SELECT count(*) AS n FROM history_fts WHERE history_fts MATCH 'parser'").get<{ n: number }>()!;
    assert.equal(words.n, 1, "a commit's message is in the full-text index");

    const idle = await runTick(brain);
    assert.equal(idle.historyCommits, 0, 'HEAD did not move: nothing mined');
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});

test('a history that cannot be mined is recorded as failed, the tick still stands, and the next tick mines it', async () => {
  const repo = await makeGitRepo({ 'src/a.ts': 'export const a = 1;\n' });
  const t = await makeTestBrains();
  try {
    repo.write('src/a.ts', 'export const a = 2;\n');
    repo.commit('second');
    // git log refuses this configuration; status, diff and ls-files never read it.
    repo.git('config', 'log.date', 'no-such-format');
    const { brain } = await t.brains.ensure(repo.dir);
    const report = await runTick(brain, { inventory: true });
    assert.equal(report.drained, 1, 'the map is advanced anyway');
    const [state] = readHistoryStates(brain.reader);
    assert.equal(state!.status, 'failed');
    assert.match(state!.note!, /date format/);
    repo.git('config', '--unset', 'log.date');
    const next = await runTick(brain);
    assert.equal(next.historyCommits, 2);
    assert.equal(readHistoryStates(brain.reader)[0]!.status, 'ready');
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});

test('a shallow clone has no history to rank by, and says so', async () => {
  const repo = await makeGitRepo({ 'src/a.ts': 'export const a = 1;\n' });
  repo.write('src/a.ts', 'export const a = 2;\n');
  repo.commit('second');
  const clone = await makeTempDir('gardener-shallow-');
  const t = await makeTestBrains();
  try {
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${repo.dir}`, join(clone.dir, 'c')], { env: testGitEnv(), stdio: 'ignore' });
    const { brain } = await t.brains.ensure(join(clone.dir, 'c'));
    const report = await runTick(brain, { inventory: true });
    assert.equal(report.historyCommits, 0);
    assert.deepEqual(shas(brain.reader), []);
    assert.equal(readHistoryStates(brain.reader)[0]!.status, 'shallow');
    const s = await makeTestSession(t.brains, join(clone.dir, 'c'));
    try {
      const north = await s.dispatch('north');
      assert.equal(north.value.roots[0].history.status, 'shallow');
      assert.match(north.value.roots[0].history.note, /shallow clone/);
    } finally {
      await s.close();
    }
    await t.brains.close();
    const env = { ...process.env, GARDENER_HOME: t.home };
    const status = spawnSync(process.execPath, [CLI, 'status', join(clone.dir, 'c'), '--json'], { env, encoding: 'utf8' });
    assert.equal(JSON.parse(status.stdout).roots[0].history.status, 'shallow', status.stderr);
    assert.match(spawnSync(process.execPath, [CLI, 'status', join(clone.dir, 'c')], { env, encoding: 'utf8' }).stdout, /history shallow: a shallow clone/);

    // Unshallowed: the next tick mines the history although HEAD did not move.
    execFileSync('git', ['-C', join(clone.dir, 'c'), 'fetch', '-q', '--unshallow'], { env: testGitEnv(), stdio: 'ignore' });
    const again = await t.brains.ensure(join(clone.dir, 'c'));
    const after = await runTick(again.brain);
    assert.equal(after.historyCommits, 2);
    assert.equal(readHistoryStates(again.brain.reader)[0]!.status, 'ready');
  } finally {
    await t.cleanup();
    await clone.cleanup();
    await repo.cleanup();
  }
});

test('a rewritten or rewound history is rebuilt, never mixed', async () => {
  const repo = await makeGitRepo({ 'src/a.ts': 'export const a = 1;\n' });
  const t = await makeTestBrains();
  try {
    repo.write('src/a.ts', 'export const a = 2;\n');
    repo.commit('second');
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    // Rewrite: the mapped head is no longer an ancestor of HEAD.
    repo.git('commit', '-q', '--amend', '-m', 'second, reworded');
    await runTick(brain);
    assert.deepEqual(shas(brain.reader), log(repo.git));
    // Rewind: HEAD moves back to an ancestor; what came after it leaves the history.
    repo.git('checkout', '-q', '--detach', 'HEAD~1');
    await runTick(brain);
    assert.deepEqual(shas(brain.reader), log(repo.git));
    assert.equal(readHistoryStates(brain.reader)[0]!.head, repo.git('rev-parse', 'HEAD'));
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});

test('a history of 200,000 commits is bounded to the newest HISTORY_MAX_COMMITS', async () => {
  const repo = await makeGitRepo();
  const home = await makeTempDir('gardener-store-');
  try {
    const total = 200_000;
    function* commits(): Generator<ImportedCommit> {
      for (let i = 0; i < total; i++) yield { message: `change ${i}`, files: { [`src/f${i % 50}.ts`]: Math.floor(i / 50) % 2 } };
    }
    fastImport(repo, ['export const x = 0;\n', 'export const x = 1;\n'], commits());
    const head = repo.git('rev-parse', 'main');
    const mined = await mineHistory({ root: repo.dir, head, minedHead: null });
    assert.equal(mined.commits.length, HISTORY_MAX_COMMITS);
    assert.equal(mined.bounded, true);
    assert.equal(mined.commits.at(-1)!.sha, head, 'the newest are kept');
    assert.equal(mined.commits[0]!.message, `change ${total - HISTORY_MAX_COMMITS}`);
    const db = openStore(join(home.dir, 'brain.db'));
    try {
      db.transaction(() => applyHistory(db, 1, mined, 0))();
      const [state] = readHistoryStates(db);
      assert.equal(state!.commits, HISTORY_MAX_COMMITS);
      assert.equal(state!.bounded, true);
    } finally {
      db.close();
    }
  } finally {
    await home.cleanup();
    await repo.cleanup();
  }
});

test('a commit touching 50,000 files keeps its count but none of its paths', async () => {
  const repo = await makeGitRepo();
  const home = await makeTempDir('gardener-store-');
  try {
    const sweep: Record<string, number> = {};
    for (let i = 0; i < 50_000; i++) sweep[`src/d${i % 100}/f${i}.ts`] = 0;
    fastImport(repo, ['export {};\n', 'export const y = 1;\n'], [
      { message: 'format everything', files: sweep },
      { message: 'fix the parser', files: { 'src/d0/f0.ts': 1, 'src/d1/f1.ts': 1 } },
    ]);
    const mined = await mineHistory({ root: repo.dir, head: repo.git('rev-parse', 'main'), minedHead: null });
    assert.deepEqual(mined.commits.map((c) => [c.fileCount, c.files.length]), [[50_000, 0], [2, 2]]);
    assert.ok(HUGE_COMMIT_FILES < 50_000);
    const db = openStore(join(home.dir, 'brain.db'));
    try {
      db.transaction(() => applyHistory(db, 1, mined, 0))();
      assert.equal(db.prepare('SELECT count(*) AS n FROM history_paths').get<{ n: number }>()!.n, 2);
      assert.equal(db.prepare('SELECT count(*) AS n FROM history_touches').get<{ n: number }>()!.n, 2);
      assert.equal(db.prepare("SELECT count(*) AS n FROM history_fts WHERE history_fts MATCH 'format'").get<{ n: number }>()!.n, 0);
    } finally {
      db.close();
    }
  } finally {
    await home.cleanup();
    await repo.cleanup();
  }
});

test('mining a head that moved forward asks git its questions at once, not one after another', { timeout: 60_000 }, async () => {
  const repo = await makeGitRepo({ 'src/a.ts': 'export const a = 1;\n' });
  const dir = await makeTempDir();
  try {
    const minedHead = repo.git('rev-parse', 'HEAD');
    repo.write('src/a.ts', 'export const a = 2;\n');
    repo.commit('second');
    const head = repo.git('rev-parse', 'HEAD');
    // A git that logs each start and holds the first one on a named pipe until released: a
    // miner that waits for each answer before the next question never starts the others.
    const fifo = join(dir.dir, 'hold');
    execFileSync('mkfifo', [fifo]);
    const starts = join(dir.dir, 'starts');
    const wrapper = join(dir.dir, 'git');
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(wrapper, `#!/bin/sh\necho "$*" >> '${starts}'\nif mkdir '${dir.dir}/first' 2>/dev/null; then : < '${fifo}'; fi\nexec '${realGit}' "$@"\n`, { mode: 0o755 });
    const mining = mineHistory({ root: repo.dir, head, minedHead, gitBinary: wrapper });
    const started = () => (existsSync(starts) ? readFileSync(starts, 'utf8').trim().split('\n').length : 0);
    while (started() < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    writeFileSync(fifo, ''); // releases the held one
    const mined = await mining;
    assert.equal(mined.status, 'ready');
    assert.equal(mined.rebuild, false);
    assert.deepEqual(mined.commits.map((c) => c.sha), [head], 'only the new commit');
  } finally {
    await dir.cleanup();
    await repo.cleanup();
  }
});
