import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains, sourceFiles } from './helpers/brains.js';
import { ManualClock } from './helpers/manual-clock.js';
import { BrainWatcher, BURST_COALESCE_WINDOW_MS, ChildWatchBackend, POLL_INTERVAL_MS, fsWatchSupport } from '../src/watch/index.js';
import { Vigil, runTick } from '../src/vigil/index.js';
import { seek } from '../src/store/index.js';

const BUN = fileURLToPath(new URL('../../node_modules/.bin/bun', import.meta.url));

async function watchedThrough(runtime: string) {
  const repo = await makeGitRepo(sourceFiles(3));
  const t = await makeTestBrains();
  const { brain } = await t.brains.ensure(repo.dir);
  await runTick(brain, { inventory: true });
  const clock = new ManualClock();
  const vigil = new Vigil(brain, { log: () => {} });
  const backend = new ChildWatchBackend({ runtime, env: { ...process.env, GARDENER_WATCH_NATIVE: '0' }, timers: clock, log: () => {} });
  const alerts: string[] = [];
  const watcher = new BrainWatcher({ roots: brain.roots, requestTick: () => vigil.request(), backend, alert: (_c, m) => alerts.push(m), timers: clock, log: () => {} });
  await watcher.start();
  return {
    repo, brain, clock, watcher, alerts,
    inMap: (name: string) => seek(brain.reader, name, { limit: 5 }).some((h) => h.symbol === name),
    async cleanup() {
      await watcher.close();
      await backend.close();
      await vigil.close();
      await t.cleanup();
      await repo.cleanup();
    },
  };
}

test('without the native module, Bun watches with recursive fs.watch, says so, and a save reaches the map', { timeout: 60_000 }, async (t) => {
  if (!existsSync(BUN)) return t.skip('bun is not installed (a dev dependency: npm install)');
  const f = await watchedThrough(BUN);
  try {
    assert.equal(f.watcher.backend, 'fs.watch', 'the status names the fallback, never native');
    assert.match(f.alerts.join('\n'), /native file watcher could not load: .* watched with fs\.watch/);
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
  const f = await watchedThrough(process.execPath);
  try {
    assert.equal(f.watcher.backend, `poll(${POLL_INTERVAL_MS / 1000}s)`);
    assert.match(f.alerts.join('\n'), /GARDENER_WATCH_NATIVE=0.*no fallback watcher/);
    f.repo.write('src/polled.ts', 'export function seenByPolling(): number {\n  return 2;\n}\n');
    const ticked = once(f.watcher, 'ticked');
    f.clock.advance(POLL_INTERVAL_MS);
    await ticked;
    assert.ok(f.inMap('seenByPolling'));
  } finally {
    await f.cleanup();
  }
});
