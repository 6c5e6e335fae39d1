/**
 * The `gardener` process's heaps stay near what they hold: the young generation at the size
 * V8 starts it with, the old generation growing 20% past what its last collection kept.
 *
 * Left alone, V8 grows a busy thread's new space to its maximum and keeps it there, and the
 * main thread is busy in every tick (it then relayed every drain's results between the pool and
 * the store writer; they now go from the pool thread to the writer directly, src/vigil/tick.ts,
 * and the main thread handles detection's paths, the summaries and the tools). Measured on the bench (5000 files, a 1000-file burst, the tree-sitter burst,
 * the skeleton; one sitting, docs/benchmarks.md): on Node 24 the main heap reached 121–153 MB
 * with 27–40 MB in use, and the process peaked at 342 MB; with both flags 25–26 MB and 211 MB.
 * On Node 20 (16 MB semi-spaces) the main heap held about 50 MB either way, but the young
 * generation alone, capped, let promoted garbage pile up in the old one (82 MB in one run):
 * the growth limit keeps that bounded. A thread's limits are fixed when it starts (worker
 * threads bound theirs with `resourceLimits`, src/pool/worker-pool.ts), but V8 reads these two
 * flags each time it sizes a heap, so setting them at run time works; they are process-wide,
 * so the worker threads follow them too, below their own caps. On Node 20 starting a worker
 * thread puts them back to V8's defaults for the whole process (the command line's too), so the
 * module each thread starts with sets them again before the rest of the thread's modules load
 * (workers/pool-thread.ts, workers/store-writer-thread.ts), as the CLI sets them before it loads
 * the rest (src/cli/main.ts): loading a module graph allocates enough to grow a young generation
 * under V8's defaults, and on Node 20 a collection does not shrink it again. Bun runs
 * JavaScriptCore, which has no such flags.
 *
 * Imported first by the CLI and by each thread: it imports nothing but node:v8.
 */
import { setFlagsFromString } from 'node:v8';

/** V8's new-space growth factor: 1 keeps the young generation at its starting size. */
const SEMI_SPACE_GROWTH_FACTOR = 1;
/** How far past the live set a collection lets the old generation grow before the next, in %. */
const HEAP_GROWING_PERCENT = 20;

/** True on Bun (JavaScriptCore): V8's flags mean nothing there. */
export const onBun = (process.versions as Record<string, string | undefined>).bun !== undefined;

/** Keeps this process's heaps near their live sets (Node; nothing on Bun). */
export function keepHeapsSmall(): void {
  if (onBun) return;
  setFlagsFromString(`--semi-space-growth-factor=${SEMI_SPACE_GROWTH_FACTOR}`);
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
