import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { sourceFiles } from './helpers/brains.js';
import { makeWatchedBrain } from './helpers/watched-brain.js';
import { BURST_COALESCE_WINDOW_MS, ChildWatchBackend, POLL_INTERVAL_MS, fsWatchSupport } from '../src/watch/index.js';

const BUN = fileURLToPath(new URL('../../node_modules/.bin/bun', import.meta.url));

/** A watch host on `runtime` that may not load the native module (GARDENER_WATCH_NATIVE=0). */
const withoutNative = (runtime: string) =>
  makeWatchedBrain(sourceFiles(3), { backend: (clock) => new ChildWatchBackend({ runtime, env: { ...process.env, GARDENER_WATCH_NATIVE: '0' }, timers: clock, log: () => {} }) });

test('without the native module, Bun watches with recursive fs.watch, says so, and a save reaches the map', { timeout: 60_000 }, async (t) => {
  if (!existsSync(BUN)) return t.skip('bun is not installed (a dev dependency: npm install)');
  const f = await withoutNative(BUN);
  try {
    assert.equal(f.watcher.backend, 'fs.watch', 'the status names the fallback, never native');
    const said = f.alerts.map((a) => a.message).join('\n');
    assert.match(said, /native file watcher is not used \(the native watcher is turned off \(GARDENER_WATCH_NATIVE=0\)\): .* watched with fs\.watch instead\. Unset GARDENER_WATCH_NATIVE/);
    assert.doesNotMatch(said, /Reinstall/, 'a watcher turned off on purpose needs no reinstall');
    const seen = once(f.watcher, 'events');
    f.repo.write('src/fallback.ts', 'export function seenByFsWatch(): number {\n  return 1;\n}\n');
    await seen;
    const ticked = once(f.watcher, 'ticked');
    f.clock.advance(BURST_COALESCE_WINDOW_MS);
    await ticked;
    assert.ok(f.inMap('seenByFsWatch'));
  } finally {
    await f.cleanup();
  }
});

test("without the native module, Node (whose recursive fs.watch is unsound before 24.22) polls, with an alert that says why", { timeout: 60_000 }, async () => {
  assert.match(fsWatchSupport({ ...process.versions, bun: undefined } as NodeJS.ProcessVersions) ?? '', /watches every file/);
  const f = await withoutNative(process.execPath);
  try {
    assert.equal(f.watcher.backend, `poll(${POLL_INTERVAL_MS / 1000}s)`);
    const said = f.alerts.map((a) => a.message).join('\n');
    assert.match(said, /GARDENER_WATCH_NATIVE=0.*no fallback watcher.*polling every .*Unset GARDENER_WATCH_NATIVE/);
    assert.doesNotMatch(said, /Reinstall/, 'a watcher turned off on purpose needs no reinstall');
    assert.doesNotMatch(said, /sysctl/, 'no watch limit was hit: the reason names ENOSPC only as why fs.watch is no fallback');
    f.repo.write('src/polled.ts', 'export function seenByPolling(): number {\n  return 2;\n}\n');
    const ticked = once(f.watcher, 'ticked');
    f.clock.advance(POLL_INTERVAL_MS);
    await ticked;
    assert.ok(f.inMap('seenByPolling'));
  } finally {
    await f.cleanup();
  }
});
