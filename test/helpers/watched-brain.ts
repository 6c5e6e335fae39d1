/**
 * A brain of a real git repository (ingested), its vigil, and a BrainWatcher on a manual clock:
 * the fixture of the watch tests. The backend is the in-process native one unless given (a
 * ChildWatchBackend, a failing fake); a child backend is closed with the rest.
 */
import { makeGitRepo } from './git-repo.js';
import { makeTestBrains } from './brains.js';
import { ManualClock } from './manual-clock.js';
import { BrainWatcher, ChildWatchBackend, loadNativeBackend, type WatchBackend } from '../../src/watch/index.js';
import { Vigil, runTick, type VigilOptions } from '../../src/vigil/index.js';
import { seek } from '../../src/ranking/index.js';

export async function makeWatchedBrain(files: Record<string, string>, options: { backend?: WatchBackend | Error | ((clock: ManualClock) => WatchBackend); vigil?: VigilOptions } = {}) {
  const repo = await makeGitRepo(files);
  const t = await makeTestBrains();
  const { brain } = await t.brains.ensure(repo.dir);
  await runTick(brain, { inventory: true });
  const clock = new ManualClock();
  const vigil = new Vigil(brain, { log: () => {}, ...options.vigil });
  const alerts: { code: string; message: string }[] = [];
  let backend: WatchBackend | Error;
  if (typeof options.backend === 'function') backend = options.backend(clock);
  else if (options.backend) backend = options.backend;
  else {
    const native = await loadNativeBackend();
    if (native instanceof Error) throw native;
    backend = native;
  }
  const watcher = new BrainWatcher({
    roots: brain.roots,
    requestTick: () => vigil.request(),
    backend,
    alert: (code, message) => alerts.push({ code, message }),
    timers: clock,
    log: () => {},
  });
  await watcher.start();
  return {
    repo, t, brain, clock, vigil, watcher, alerts, backend,
    inMap: (name: string) => seek(brain.reader, name, { limit: 5 }).some((h) => h.symbol === name),
    async cleanup() {
      await watcher.close();
      if (backend instanceof ChildWatchBackend) await backend.close();
      await vigil.close();
      await t.cleanup();
      await repo.cleanup();
    },
  };
}
