/**
 * Bun's side of a thread's memory: JavaScriptCore's own heap figures for this thread (`bun:jsc`'s
 * `heapStats()` answers for the thread that calls it; `node:v8`'s `getHeapStatistics()` answers,
 * on Bun, with the whole process on every thread), and the collection a Bun thread runs at the
 * end of a task.
 *
 * Imported by the worker entries and the bench: it imports nothing but node:module, and loads
 * `bun:jsc` only on Bun.
 */
import { createRequire } from 'node:module';

/** True on Bun. */
export const onBun = (process.versions as Record<string, string | undefined>).bun !== undefined;

interface BunJsc {
  heapStats(): { heapSize: number; heapCapacity: number; extraMemorySize: number };
}

let jsc: BunJsc | undefined;
function bunJsc(): BunJsc {
  jsc ??= createRequire(import.meta.url)('bun:jsc') as BunJsc;
  return jsc;
}

/**
 * This thread's JavaScriptCore heap in ThreadHeap's terms, in bytes: the heap's capacity (what
 * it holds of the RSS, garbage and free blocks included) and its live size, both without the
 * memory its objects hold outside it, which is `external` (WebAssembly memories: the grammars;
 * the storage of large strings and ArrayBuffers). JSC counts that memory inside both figures.
 */
export function bunThreadHeap(): { heap: number; used: number; external: number } {
  const h = bunJsc().heapStats();
  const external = h.extraMemorySize;
  return { heap: Math.max(0, h.heapCapacity - external), used: Math.max(0, h.heapSize - external), external };
}

/**
 * On Bun, how far a thread's heap of cells (`process.memoryUsage().heapTotal`, per thread on Bun;
 * the grammars' WebAssembly memory is not in it) may grow past what its last full collection
 * kept before the thread collects at the end of a task, in bytes.
 *
 * Why: JavaScriptCore sizes its next collection in proportion to the heap it counts, and it counts
 * a pool thread's WebAssembly memory (the tree-sitter runtime and grammars, about 70 MB) in it, so
 * the garbage of parsing (web-tree-sitter's nodes and captures, about 135 KB a file of the bench's
 * tree-sitter burst) piles up far past what is live. Measured on Bun 1.4.5 (one pool thread, 1000
 * files of the bench's C/C#/Kotlin/Ruby burst through WorkerPool.hashExtract): without it the pool
 * thread ended at 200 MB of heap with 76 MB live and the process at 269 MB (peak 270); with 32 MB
 * at 78–100 MB of heap and 136–145 MB (peak 194–203). Each collection took 10–40 ms on this loaded
 * machine, about one per 250 tree-sitter files; none ran during the first ingest or the scanner
 * bursts before any grammar loaded (JSC's own collections keep that heap below the bound), two per
 * 1000-file scanner burst once grammars were loaded. 16 MB measured no lower peak in the bench.
 * The same in the store writer, after each commit or once it idled 500 ms, measured no lower
 * peak (its heap holds 4–20 MB there), so only the pool thread does it.
 */
export const BUN_COLLECT_GROWTH_BYTES = 32 << 20;

let keptAfterCollect = 0;

/**
 * At the end of a task, on Bun: a full collection if this thread's heap of cells has grown
 * BUN_COLLECT_GROWTH_BYTES past what the last one kept. Nothing on Node (V8's own limits and
 * flags bound its heaps: src/heap-growth.ts, WORKER_RESOURCE_LIMITS). Returns whether it collected.
 */
export function collectIfGrown(): boolean {
  if (!onBun) return false;
  if (process.memoryUsage().heapTotal - keptAfterCollect < BUN_COLLECT_GROWTH_BYTES) return false;
  (globalThis as unknown as { Bun: { gc(full: boolean): void } }).Bun.gc(true);
  keptAfterCollect = process.memoryUsage().heapTotal;
  return true;
}
