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
 * On Bun, how far a thread's JavaScriptCore heap may grow past what its last full collection
 * kept before the thread collects it at the end of a task, in bytes.
 */
export const BUN_COLLECT_GROWTH_BYTES = 32 << 20;

let keptAfterCollect = 0;

/**
 * At the end of a task, on Bun: a full collection if this thread's heap has grown
 * BUN_COLLECT_GROWTH_BYTES past what the last one kept. Nothing on Node.
 */
export function collectIfGrown(): boolean {
  if (!onBun) return false;
  if (process.memoryUsage().heapTotal - keptAfterCollect < BUN_COLLECT_GROWTH_BYTES) return false;
  (globalThis as unknown as { Bun: { gc(full: boolean): void } }).Bun.gc(true);
  keptAfterCollect = process.memoryUsage().heapTotal;
  return true;
}
