/**
 * The live watcher, measured as a user feels it (the owner's watch path, in this process, on
 * real timers and the real watch host):
 *
 *   - a single saved file, from the write to the end of the tick that maps it, over
 *     `saves` saves: p50/p99 against BURST_COALESCE_WINDOW_MS + 100 ms;
 *   - a `git checkout` that rewrites CHECKOUT_FILES files, from the end of git's own work to the
 *     end of its one tick, against the window plus the 1000-file burst tick of the same run;
 *   - idle: WATCHED_REPOS repositories of the bench's size subscribed at once (the bench's
 *     brain and copies of its work tree), the watch host's CPU over IDLE_WINDOW_MS scaled to
 *     a minute, its RSS, and the inotify watches it holds (Linux /proc).
 */
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { Vigil } from '../src/vigil/index.js';
import { BrainWatcher, ChildWatchBackend, BURST_COALESCE_WINDOW_MS } from '../src/watch/index.js';
import { makeBurst } from './fixtures/make-repo.js';
import { percentile } from './seek-latency.js';
import type { BenchContext } from './tick-burst.js';
import { cpuSeconds, inotifyWatches, rssMb } from './proc-stats.js';

/** Files a measured checkout rewrites. */
export const CHECKOUT_FILES = 1000;
/** Repositories watched at once for the idle figures. */
export const WATCHED_REPOS = 3;
/** How long the idle host's CPU is watched, in ms (scaled to a minute in the report). */
export const WATCH_IDLE_WINDOW_MS = 10_000;

export interface WatchBenchResult {
  saves: number;
  save: { p50: number; p99: number; max: number };
  windowMs: number;
  checkoutFiles: number;
  checkoutMs: number;
  checkoutTicks: number;
  idle: { repos: number; filesPerRepo: number; hostCpuSPerMin: number; hostRssMb: number; inotifyWatches: number | null; windowMs: number };
}




export async function measureWatch(ctx: BenchContext, parent: string, saves: number): Promise<WatchBenchResult> {
  const { brain, repo, log } = ctx;
  const backend = new ChildWatchBackend({ log });
  const vigil = new Vigil(brain, { log });
  const watcher = new BrainWatcher({ roots: brain.roots, requestTick: () => vigil.request(), backend, alert: (code, message) => log(`watch alert ${code}: ${message}`), log: () => {} });
  const extra: BrainWatcher[] = [];
  try {
    await watcher.start();
    if (watcher.backend !== 'native') throw new Error(`the watcher runs as ${watcher.backend}, not native`);
    let ticks = 0;
    watcher.on('tick-requested', () => ticks++);

    // Single saves: the write, one window of silence, the tick.
    const latencies: number[] = [];
    const target = join(repo.dir, 'watch-bench-saved.ts');
    for (let i = 0; i < saves; i++) {
      await watcher.settled();
      await vigil.idle();
      // In the map when the vigil's tick ends (the watcher's own upkeep after it is not waited for).
      const mapped = once(vigil, 'tick');
      const t0 = performance.now();
      writeFileSync(target, `export function savedForBench${i}(): number {\n  return ${i};\n}\n`);
      await mapped;
      latencies.push(performance.now() - t0);
    }
    latencies.sort((a, b) => a - b);
    const save = { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies[latencies.length - 1]! };
    log(`watch: a single save in the map ${save.p50.toFixed(0)} ms p50, ${save.p99.toFixed(0)} ms p99 after the write (window ${BURST_COALESCE_WINDOW_MS} ms, ${saves} saves)`);
    repo.git('add', '-A');
    repo.git('commit', '-qm', 'bench: saved file');

    // A checkout that rewrites CHECKOUT_FILES files (fewer in a small smoke repo): one burst, one tick.
    const checkoutFiles = Math.min(CHECKOUT_FILES, repo.files.length);
    const base = repo.git('rev-parse', 'HEAD').trim();
    repo.git('checkout', '-q', '-b', 'watch-bench-checkout');
    makeBurst(repo, checkoutFiles, 900);
    repo.git('add', '-A');
    repo.git('commit', '-qm', 'bench: rewrite');
    repo.git('checkout', '-q', base);
    await watcher.settled();
    await vigil.request();
    await watcher.settled();
    const before = ticks;
    const mapped = once(vigil, 'tick');
    // From the end of git's own work (its last write starts the burst's silence) to the end of
    // the tick that maps the checkout.
    repo.git('checkout', '-q', 'watch-bench-checkout');
    const t0 = performance.now();
    await mapped;
    const checkoutMs = performance.now() - t0;
    await watcher.settled();
    const checkoutTicks = ticks - before;
    log(`watch: a ${checkoutFiles}-file checkout in the map ${checkoutMs.toFixed(0)} ms after git finished (${checkoutTicks} tick${checkoutTicks === 1 ? '' : 's'})`);
    repo.git('checkout', '-q', base);
    await watcher.settled();
    await vigil.request();

    // Idle: WATCHED_REPOS trees of this size subscribed through the same host.
    for (let i = 1; i < WATCHED_REPOS; i++) {
      const copy = join(parent, `watch-copy-${i}`);
      cpSync(repo.dir, copy, { recursive: true });
      const w = new BrainWatcher({ roots: [copy], requestTick: async () => {}, backend, alert: () => {}, log: () => {} });
      await w.start();
      extra.push(w);
    }
    const host = backend.pid!;
    const c0 = cpuSeconds(host);
    await new Promise((r) => setTimeout(r, WATCH_IDLE_WINDOW_MS));
    const cpuS = cpuSeconds(host) - c0;
    const idle = {
      repos: WATCHED_REPOS,
      filesPerRepo: repo.files.length,
      hostCpuSPerMin: (cpuS * 60_000) / WATCH_IDLE_WINDOW_MS,
      hostRssMb: rssMb(host),
      inotifyWatches: inotifyWatches(host),
      windowMs: WATCH_IDLE_WINDOW_MS,
    };
    log(`watch: idle host watching ${WATCHED_REPOS} × ${repo.files.length} files: ${idle.hostCpuSPerMin.toFixed(3)} CPU s per minute, ${idle.hostRssMb.toFixed(0)} MB, ${idle.inotifyWatches ?? '?'} inotify watches`);
    return { saves, save, windowMs: BURST_COALESCE_WINDOW_MS, checkoutFiles, checkoutMs, checkoutTicks, idle };
  } finally {
    await Promise.allSettled(extra.map((w) => w.close()));
    await watcher.close();
    await backend.close();
    await vigil.close();
  }
}
