/**
 * The main thread's young generation stays at the size V8 starts it with.
 *
 * Left alone, V8 grows a busy thread's new space to its maximum (16 MB semi-spaces on Node 20,
 * 32 MB of RSS with both halves) and keeps it there: the main thread relays every drain's
 * results between the pool and the store writer, so it gets busy in every tick. Measured on
 * the bench (5000-file ingest, 1000-file bursts, the tree-sitter burst, the skeleton; Node 20):
 * the main heap held 47 MB with 14 MB live, 32 MB of it the new space; capped, 24 MB, and the
 * process's peak RSS fell by about 28 MB (docs/benchmarks.md). Worker threads bound theirs
 * with `resourceLimits` (src/pool/worker-pool.ts); the main thread's limits are fixed when
 * Node starts, but V8 reads the growth factor each time it would grow the new space, so a
 * factor of 1 set at run time keeps it where it is. The flag is process-wide: threads started
 * afterwards keep their starting young generation too (below their `resourceLimits` cap).
 * Bun runs JavaScriptCore, which has no such flag.
 */
import { setFlagsFromString } from 'node:v8';

/** V8's new-space growth factor: 1 keeps the young generation at its starting size. */
const SEMI_SPACE_GROWTH_FACTOR = 1;

/** Keeps this process's young generations from growing (Node; nothing on Bun). */
export function keepYoungGenerationSmall(): void {
  if ((process.versions as Record<string, string | undefined>).bun !== undefined) return;
  setFlagsFromString(`--semi-space-growth-factor=${SEMI_SPACE_GROWTH_FACTOR}`);
}
