/**
 * The skeleton's costs on the bench repository: proposing a candidate from the whole code map
 * (through the store writer, as `skeleton_candidate` does), the candidate's shape (rooms,
 * files per room, share of imports that stay inside a room), and a reconcile of the ratified
 * skeleton after a burst (derive in the store writer, the write keyed on store_version), with
 * the main thread's event-loop delay while it runs. The burst is ingested before the reconcile
 * is timed and undone after, outside the measured region.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { runTick } from '../src/vigil/index.js';
import { Reconciler, skeletonView, unrefused } from '../src/skeleton/index.js';
import { makeBurst } from './fixtures/make-repo.js';
import { median, settle, type BenchContext } from './tick-burst.js';
import { upkeepDone } from './upkeep-done.js';

/** The targets (issue 10): a candidate of the 5000-file base, a reconcile after a 1000-file burst. */
export const SKELETON_CANDIDATE_TARGET_MS = 500;
export const RECONCILE_TARGET_MS = 100;
/** The burst a reconcile follows, in files (half the base at most: a burst edits existing files). */
export const RECONCILE_BURST_FILES = 1000;

export interface SkeletonBenchResult {
  candidateMs: number;
  rooms: number;
  filesPerRoom: { min: number; median: number; max: number };
  insideShare: number;
  burstFiles: number;
  /** Median wall time of one reconcile after the burst, in ms. */
  reconcileMs: number;
  /** Median of each reconcile's event-loop delay p99, in ms. */
  reconcileLoopDelayP99Ms: number;
  samples: number;
}

export async function measureSkeleton(ctx: BenchContext, burstFiles: number, runs: number): Promise<SkeletonBenchResult> {
  const { brain } = ctx;
  let t0 = performance.now();
  const proposed = unrefused(await brain.writer.skeletonPropose(Date.now(), 'code'));
  const candidateMs = performance.now() - t0;
  const view = skeletonView(brain.reader, 'candidate');
  const sizes = view.state === 'none' ? [] : view.rooms.map((r) => r.files);
  ctx.log(`skeleton candidate: ${sizes.length} rooms in ${Math.round(candidateMs)} ms`);
  unrefused(await brain.writer.skeletonRatify(proposed.storeVersion, Date.now()));
  const reconciler = new Reconciler(brain.id, brain.writer, { log: ctx.log });
  const times: number[] = [];
  const delays: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const burst = makeBurst(ctx.repo, burstFiles, 1000 + run);
      await runTick(brain);
      // The tick's deferred store upkeep (checkpoint, index merge) runs in the writer after it;
      // a real reconcile comes a quiet window later, long after, so it is not timed here.
      await upkeepDone(brain);
      const loop = monitorEventLoopDelay({ resolution: 1 });
      loop.enable();
      t0 = performance.now();
      const outcome = await reconciler.reconcileNow();
      times.push(performance.now() - t0);
      loop.disable();
      delays.push(loop.count > 0 ? loop.percentile(99) / 1e6 : 0);
      if (outcome.kind !== 'reconciled') throw new Error(`bench: the reconcile did not happen (${JSON.stringify(outcome)})`);
      await settle(ctx, burst);
    }
  } finally {
    await reconciler.close();
  }
  return {
    candidateMs,
    rooms: sizes.length,
    filesPerRoom: { min: Math.min(...sizes), median: median(sizes), max: Math.max(...sizes) },
    insideShare: view.state === 'none' ? 0 : view.inside_share,
    burstFiles,
    reconcileMs: median(times),
    reconcileLoopDelayP99Ms: median(delays),
    samples: times.length,
  };
}
