import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains, sourceFiles } from './helpers/brains.js';
import { ManualClock } from './helpers/manual-clock.js';
import { makeWatchedBrain } from './helpers/watched-brain.js';
import { BrainWatcher, BURST_COALESCE_WINDOW_MS, POLL_INTERVAL_MS, SUBSCRIBE_RETRY_MS, loadNativeBackend, type WatchBackend } from '../src/watch/index.js';
import { Vigil, runTick } from '../src/vigil/index.js';
import { listAlerts } from '../src/store/index.js';
import { seek } from '../src/ranking/index.js';
import type { Brain } from '../src/brain/index.js';

async function native(): Promise<WatchBackend> {
  const b = await loadNativeBackend();
  if (b instanceof Error) throw b;
  return b;
}

const watchedBrain = (files: Record<string, string>, backend?: WatchBackend | Error) => makeWatchedBrain(files, { backend });

/** Resolves once the watcher has reported events covering at least `n` paths. */
function eventsCovering(w: BrainWatcher, n: number): Promise<void> {
  let seen = 0;
  return new Promise((resolve) => {
    const on = (_root: string, count: number) => {
      seen += count;
      if (seen >= n) {
        w.off('events', on);
        resolve();
      }
    };
    w.on('events', on);
  });
}

const hasSymbol = (brain: Brain, name: string) => seek(brain.reader, name, { limit: 5 }).some((h) => h.symbol === name);

test('a single save reaches the map after one burst window', { timeout: 60_000 }, async () => {
  const f = await watchedBrain(sourceFiles(5));
  try {
    assert.equal(f.watcher.backend, 'native');
    let requested = 0;
    f.watcher.on('tick-requested', () => requested++);
    const seen = eventsCovering(f.watcher, 1);
    f.repo.write('src/saved.ts', 'export function justSaved(): number {\n  return 1;\n}\n');
    await seen;
    f.clock.advance(BURST_COALESCE_WINDOW_MS - 1);
    assert.equal(requested, 0, 'nothing before the window ends');
    const ticked = once(f.watcher, 'ticked');
    f.clock.advance(1);
    assert.equal(requested, 1);
    await ticked;
    assert.ok(hasSymbol(f.brain, 'justSaved'), 'the saved file is in the map');
  } finally {
    await f.cleanup();
  }
});

test('a 1000-file checkout is one detection', { timeout: 60_000 }, async () => {
  const f = await watchedBrain(sourceFiles(1000, 'src/big/f'));
  try {
    f.repo.git('checkout', '-q', '-b', 'rewrite');
    for (let i = 0; i < 1000; i++) f.repo.write(`src/big/f${i}.ts`, `export function rewritten${i}(): number {\n  return ${i};\n}\n`);
    f.repo.commit('rewrite all');
    f.repo.git('checkout', '-q', 'main');
    let requested = 0;
    f.watcher.on('tick-requested', () => requested++);
    const seen = eventsCovering(f.watcher, 1000);
    f.repo.git('checkout', '-q', 'rewrite');
    await seen;
    const ticked = once(f.watcher, 'ticked');
    f.clock.advance(BURST_COALESCE_WINDOW_MS);
    await ticked;
    assert.equal(requested, 1, 'one burst, one tick');
    assert.ok(hasSymbol(f.brain, 'rewritten0') && hasSymbol(f.brain, 'rewritten999'), 'the whole checkout is in the map');
  } finally {
    await f.cleanup();
  }
});

test('events during a tick cause exactly one follow-up', { timeout: 60_000 }, async () => {
  const repo = await makeGitRepo(sourceFiles(3));
  const t = await makeTestBrains();
  const { brain } = await t.brains.ensure(repo.dir);
  const clock = new ManualClock();
  let release!: () => void;
  let ticks = 0;
  const vigil = new Vigil(brain, {
    log: () => {},
    tick: async (b, o) => {
      ticks++;
      if (ticks === 1) await new Promise<void>((r) => (release = r));
      return runTick(b, o);
    },
  });
  const watcher = new BrainWatcher({ roots: brain.roots, requestTick: () => vigil.request(), backend: await native(), alert: () => {}, timers: clock, log: () => {} });
  await watcher.start();
  try {
    const first = eventsCovering(watcher, 1);
    repo.write('src/a.ts', 'export const a = 1;\n');
    await first;
    clock.advance(BURST_COALESCE_WINDOW_MS);
    assert.equal(ticks, 1, 'the first tick runs (and is held)');
    for (let i = 0; i < 3; i++) {
      const more = eventsCovering(watcher, 1);
      repo.write(`src/during${i}.ts`, `export const d${i} = ${i};\n`);
      await more;
      clock.advance(BURST_COALESCE_WINDOW_MS);
    }
    release();
    await vigil.idle();
    assert.equal(ticks, 2, 'three bursts during a tick fold into one follow-up');
    assert.ok(hasSymbol(brain, 'd2'));
  } finally {
    await watcher.close();
    await vigil.close();
    await t.cleanup();
    await repo.cleanup();
  }
});

test('a closed watcher (disarm) requests no more ticks', { timeout: 60_000 }, async () => {
  const f = await watchedBrain(sourceFiles(3));
  try {
    let requested = 0;
    f.watcher.on('tick-requested', () => requested++);
    await f.watcher.close();
    assert.equal(f.watcher.backend, 'none', 'a closed watcher never claims to watch');
    f.repo.write('src/after.ts', 'export const after = 1;\n');
    f.clock.advance(POLL_INTERVAL_MS * 100);
    assert.equal(requested, 0);
    assert.equal(f.clock.pending, 0, 'no timer left behind');
  } finally {
    await f.cleanup();
  }
});

test('a watcher that cannot subscribe falls back to polling with an alert that names the fix', { timeout: 60_000 }, async () => {
  const full: WatchBackend = {
    name: 'native',
    subscribe: async () => {
      throw Object.assign(new Error('inotify_add_watch failed: No space left on device'), { code: 'ENOSPC' });
    },
  };
  const f = await watchedBrain(sourceFiles(3), full);
  try {
    assert.equal(f.watcher.backend, `poll(${POLL_INTERVAL_MS / 1000}s)`);
    assert.equal(f.alerts.length, 1);
    assert.equal(f.alerts[0]!.code, 'watcher_failed');
    assert.match(f.alerts[0]!.message, /fs\.inotify\.max_user_watches=\d+/);
    f.repo.write('src/polled.ts', 'export function polledIn(): number {\n  return 2;\n}\n');
    const ticked = once(f.watcher, 'ticked');
    f.clock.advance(POLL_INTERVAL_MS);
    await ticked;
    assert.ok(hasSymbol(f.brain, 'polledIn'), 'polling keeps the map fresh');
    // Retries of the failed subscribe (every SUBSCRIBE_RETRY_MS) do not repeat the alert.
    for (let i = 0; i < (2 * SUBSCRIBE_RETRY_MS) / POLL_INTERVAL_MS; i++) {
      const polled = once(f.watcher, 'ticked');
      f.clock.advance(POLL_INTERVAL_MS);
      await polled;
    }
    assert.equal(f.alerts.length, 1, `one alert for the failure, got ${f.alerts.length}`);
  } finally {
    await f.cleanup();
  }
});

test('a native module that does not load means polling, said in an alert', { timeout: 60_000 }, async () => {
  const f = await watchedBrain(sourceFiles(2), new Error('Cannot find module @parcel/watcher-linux-x64-glibc') as unknown as WatchBackend);
  try {
    assert.equal(f.watcher.backend, `poll(${POLL_INTERVAL_MS / 1000}s)`);
    assert.match(f.alerts[0]!.message, /not used \(Cannot find module @parcel.*\): polling .*Reinstall Gardener/);
  } finally {
    await f.cleanup();
  }
});

test('a root that vanishes is polled for, then watched again when it comes back', { timeout: 60_000 }, async () => {
  const f = await watchedBrain(sourceFiles(3));
  const root = f.brain.roots[0]!;
  const aside = `${root}-aside`;
  try {
    const gone = once(f.watcher, 'missing');
    renameSync(root, aside);
    await gone;
    assert.equal(f.watcher.backend, `poll(${POLL_INTERVAL_MS / 1000}s)`, 'a vanished root is not claimed as watched');
    assert.ok(f.alerts.some((a) => a.code === 'watcher_failed' && /is gone/.test(a.message) && /gardener brains --prune/.test(a.message)), 'the alert names how to drop a brain whose folder will not come back');
    renameSync(aside, root);
    const back = once(f.watcher, 'subscribed');
    const repaired = once(f.watcher, 'ticked');
    f.clock.advance(BURST_COALESCE_WINDOW_MS + POLL_INTERVAL_MS);
    await Promise.all([back, repaired]);
    await f.watcher.idle();
    assert.equal(f.watcher.backend, 'native');
    // Watched again: a save after the return reaches the map.
    const seen = eventsCovering(f.watcher, 1);
    f.repo.write('src/back.ts', 'export function cameBack(): number {\n  return 3;\n}\n');
    await seen;
    const ticked = once(f.watcher, 'ticked');
    f.clock.advance(BURST_COALESCE_WINDOW_MS);
    await ticked;
    assert.ok(hasSymbol(f.brain, 'cameBack'));
  } finally {
    rmSync(aside, { recursive: true, force: true });
    await f.cleanup();
  }
});

test('a burst that creates folders re-subscribes its root, so files inside them are seen later', { timeout: 60_000 }, async () => {
  const f = await watchedBrain(sourceFiles(2));
  try {
    let subscribed = 0;
    f.watcher.on('subscribed', () => subscribed++);
    const seen = eventsCovering(f.watcher, 1);
    mkdirSync(join(f.repo.dir, 'pkg/deep/er'), { recursive: true });
    writeFileSync(join(f.repo.dir, 'pkg/deep/er/first.ts'), 'export const first = 1;\n');
    await seen;
    const ticked = once(f.watcher, 'ticked');
    f.clock.advance(BURST_COALESCE_WINDOW_MS);
    await ticked;
    assert.equal(subscribed, 1, 'the root was subscribed afresh after the tick');
    const later = eventsCovering(f.watcher, 1);
    writeFileSync(join(f.repo.dir, 'pkg/deep/er/later.ts'), 'export function laterInside(): number {\n  return 4;\n}\n');
    await later;
    const again = once(f.watcher, 'ticked');
    f.clock.advance(BURST_COALESCE_WINDOW_MS);
    await again;
    assert.ok(hasSymbol(f.brain, 'laterInside'));
  } finally {
    await f.cleanup();
  }
});
