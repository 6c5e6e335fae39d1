import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { sourceFiles } from './helpers/brains.js';
import { makeWatchedBrain } from './helpers/watched-brain.js';
import { BURST_COALESCE_WINDOW_MS, ChildWatchBackend } from '../src/watch/index.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A brain watched through a real watch host (a child process). */
const throughHost = () => makeWatchedBrain(sourceFiles(4), { backend: (clock) => new ChildWatchBackend({ timers: clock, log: () => {} }) });

type Watched = Awaited<ReturnType<typeof throughHost>>;

/** Writes a file, waits for its events, ends the burst, waits for the tick. */
async function saveAndTick(f: Watched, rel: string, name: string): Promise<void> {
  const seen = once(f.watcher, 'events');
  f.repo.write(rel, `export function ${name}(): number {\n  return 1;\n}\n`);
  await seen;
  const ticked = once(f.watcher, 'ticked');
  f.clock.advance(BURST_COALESCE_WINDOW_MS);
  await ticked;
}

test('a crashed watch host is restarted: the brain is polled meanwhile, detected fully, then watched again', { timeout: 60_000 }, async () => {
  const f = await throughHost();
  const backend = f.backend as ChildWatchBackend;
  let pid: number | undefined;
  try {
    assert.equal(f.watcher.backend, 'native');
    await saveAndTick(f, 'src/before.ts', 'beforeCrash');
    assert.ok(f.inMap('beforeCrash'), 'events cross from the host');

    const first = backend.pid!;
    const lost = once(f.watcher, 'lost');
    process.kill(first, 'SIGKILL');
    await lost;
    assert.equal(f.watcher.backend, 'poll(5s)', 'a dead host is never claimed as a live watcher');
    // Written while nothing watched: the full detection after the restart finds it.
    f.repo.write('src/during.ts', 'export function duringCrash(): number {\n  return 2;\n}\n');
    const resubscribed = once(f.watcher, 'subscribed');
    const ticked = once(f.watcher, 'ticked');
    f.clock.advance(BURST_COALESCE_WINDOW_MS);
    await Promise.all([resubscribed, ticked]);
    assert.ok(f.inMap('duringCrash'), 'the tick after the crash detected what no event reported');
    assert.equal(f.watcher.backend, 'native');
    assert.notEqual(backend.pid, first, 'a new host runs');

    await saveAndTick(f, 'src/after.ts', 'afterRestart');
    assert.ok(f.inMap('afterRestart'), 'the new host reports events');
    pid = backend.pid;
  } finally {
    await f.cleanup();
  }
  if (pid) assert.equal(alive(pid), false, 'no watch host outlives its backend');
});

test('a re-subscribe through the watch host (a burst that created folders) answers, and files inside the new folders are seen', { timeout: 60_000 }, async () => {
  const f = await throughHost();
  try {
    let subscribed = 0;
    f.watcher.on('subscribed', () => subscribed++);
    await saveAndTick(f, 'pkg/new/deep/first.ts', 'firstInNewFolder');
    assert.equal(subscribed, 1, 'the root was subscribed afresh through the host');
    assert.equal(f.watcher.backend, 'native');
    await saveAndTick(f, 'pkg/new/deep/later.ts', 'insideNewFolder');
    assert.ok(f.inMap('insideNewFolder'));
  } finally {
    await f.cleanup();
  }
});
