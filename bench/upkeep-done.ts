/**
 * The writer's upkeep run until FTS5 finds nothing left to merge: the state a burst arriving
 * seconds after the last one finds, because an idle writer merges by itself, slice after slice
 * (workers/store-writer.ts, UPKEEP_FOLLOW_UP_MS). A measured tick or query that started in the
 * middle of those slices would time the merging, not itself; the bench waits them out here,
 * unmeasured, instead.
 */
import type { Brain } from '../src/brain/index.js';

/** A bound on upkeep calls, whatever the index holds (each is one merge budget long). */
const MAX_UPKEEPS = 10_000;

export async function upkeepDone(brain: Brain): Promise<void> {
  for (let i = 0; i < MAX_UPKEEPS; i++) {
    if (!(await brain.writer.runUpkeep()).mergeLeft) return;
  }
}
