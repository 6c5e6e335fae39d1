import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains, sourceFiles } from './helpers/brains.js';
import { ManualClock } from './helpers/manual-clock.js';
import { BrainWatcher, BURST_COALESCE_WINDOW_MS, ChildWatchBackend } from '../src/watch/index.js';
import { Vigil, runTick } from '../src/vigil/index.js';
import { seek } from '../src/store/index.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('a crashed watch host is restarted: the brain is polled meanwhile, detected fully, then watched again', { timeout: 60_000 }, async () => {
  const repo = await makeGitRepo(sourceFiles(4));
  const t = await makeTestBrains();
  const { brain } = await t.brains.ensure(repo.dir);
  await runTick(brain, { inventory: true });
  const clock = new ManualClock();
  const vigil = new Vigil(brain, { log: () => {} });
  const backend = new ChildWatchBackend({ timers: clock, log: () => {} });
  const watcher = new BrainWatcher({ roots: brain.roots, requestTick: () => vigil.request(), backend, alert: () => {}, timers: clock, log: () => {} });
  const inMap = (name: string) => seek(brain.reader, name, { limit: 5 }).some((h) => h.symbol === name);
  const saveAndTick = async (rel: string, name: string) => {
    const seen = once(watcher, 'events');
    repo.write(rel, `export function ${name}(): number {\n  return 1;\n}\n`);
    await seen;
    const ticked = once(watcher, 'ticked');
    clock.advance(BURST_COALESCE_WINDOW_MS);
    await ticked;
  };
  try {
    await watcher.start();
    assert.equal(watcher.backend, 'native');
    await saveAndTick('src/before.ts', 'beforeCrash');
    assert.ok(inMap('beforeCrash'), 'events cross from the host');

    const first = backend.pid!;
    const lost = once(watcher, 'lost');
    process.kill(first, 'SIGKILL');
    await lost;
    assert.equal(watcher.backend, 'poll(5s)', 'a dead host is never claimed as a live watcher');
    // Written while nothing watched: the full detection after the restart finds it.
    repo.write('src/during.ts', 'export function duringCrash(): number {\n  return 2;\n}\n');
    const resubscribed = once(watcher, 'subscribed');
    const ticked = once(watcher, 'ticked');
    clock.advance(BURST_COALESCE_WINDOW_MS);
    await Promise.all([resubscribed, ticked]);
    assert.ok(inMap('duringCrash'), 'the tick after the crash detected what no event reported');
    assert.equal(watcher.backend, 'native');
    assert.notEqual(backend.pid, first, 'a new host runs');

    await saveAndTick('src/after.ts', 'afterRestart');
    assert.ok(inMap('afterRestart'), 'the new host reports events');
  } finally {
    const pid = backend.pid;
    await watcher.close();
    await backend.close();
    await vigil.close();
    await t.cleanup();
    await repo.cleanup();
    if (pid) assert.equal(alive(pid), false, 'no watch host outlives its backend');
  }
});

test('a re-subscribe through the watch host (a burst that created folders) answers, and files inside the new folders are seen', { timeout: 60_000 }, async () => {
  const repo = await makeGitRepo(sourceFiles(3));
  const t = await makeTestBrains();
  const { brain } = await t.brains.ensure(repo.dir);
  await runTick(brain, { inventory: true });
  const clock = new ManualClock();
  const vigil = new Vigil(brain, { log: () => {} });
  const backend = new ChildWatchBackend({ timers: clock, log: () => {} });
  const watcher = new BrainWatcher({ roots: brain.roots, requestTick: () => vigil.request(), backend, alert: () => {}, timers: clock, log: () => {} });
  try {
    await watcher.start();
    let subscribed = 0;
    watcher.on('subscribed', () => subscribed++);
    const seen = once(watcher, 'events');
    repo.write('pkg/new/deep/first.ts', 'export const first = 1;\n');
    await seen;
    const ticked = once(watcher, 'ticked');
    clock.advance(BURST_COALESCE_WINDOW_MS);
    await ticked;
    assert.equal(subscribed, 1, 'the root was subscribed afresh through the host');
    assert.equal(watcher.backend, 'native');
    const later = once(watcher, 'events');
    repo.write('pkg/new/deep/later.ts', 'export function insideNewFolder(): number {\n  return 1;\n}\n');
    await later;
    const again = once(watcher, 'ticked');
    clock.advance(BURST_COALESCE_WINDOW_MS);
    await again;
    assert.ok(seek(brain.reader, 'insideNewFolder', { limit: 5 }).some((h) => h.symbol === 'insideNewFolder'));
  } finally {
    await watcher.close();
    await backend.close();
    await vigil.close();
    await t.cleanup();
    await repo.cleanup();
  }
});
