/**
 * Bun's side of a thread's memory: JavaScriptCore's own heap figures for this thread (`bun:jsc`'s
 * `heapStats()` answers for the thread that calls it; `node:v8`'s `getHeapStatistics()` answers,
 * on Bun, with the whole process on every thread), and the collection a Bun thread runs at the
 * end of a task.
 *
 * Imported by the worker entries and the bench: it imports nothing but node:module and the
 * ground's heap-growth.ts (`onBun`), and loads `bun:jsc` only on Bun.
 */
import { createRequire } from 'node:module';
import { onBun } from './heap-growth.js';

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
 * It counts a WebAssembly memory twice once its buffer has been read (the Memory and its
 * ArrayBuffer: a 32 MB memory shows as 64 MB, checked on Bun 1.4.5), and at its full size, not
 * what of it is resident: web-tree-sitter's 32 MB memory holds about 12 MB of RSS with the bench's
 * four grammars loaded, on Bun as on Node, so "external" overstates the grammars (the pool thread
 * removes the second count: workers/hash-extract.ts `heapStats`).
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
 * a pool thread's WebAssembly memory in it (about 70 MB as it counts it: web-tree-sitter's 32 MB
 * memory twice, above), so
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

/**
 * On Bun, in a thread that holds tree-sitter grammars: how far the process's resident memory may
 * grow past what it was after this thread's last full collection before the thread collects at the
 * end of a task, in bytes, whatever its heap of cells did.
 *
 * Why: the code JavaScriptCore's WebAssembly tiers compile for the grammars' lexers (BBQ, then
 * OMG), and the code the later tier retires, live outside the heap of cells that
 * BUN_COLLECT_GROWTH_BYTES reads, and JSC gives them back only at a collection. Measured on Bun
 * 1.4.5 (one thread parsing the bench's C/C#/Kotlin/Ruby files, collecting every 100 files): the
 * process went from 101 to 142–164 MB in the first 90 files while the heap grew 20 MB, and the
 * collection at file 100 brought it back to 102 MB. In the bench (`--sizes 1000 --runs 1 --no-mcp`,
 * interleaved with the build before, one sitting, five runs each): peak RSS median 268 MB from
 * 279 (paired differences -29 to +2 MB), the tree-sitter burst 2959 ms median against 2833 (+4%;
 * the build before ranged 2151–4893), the 1000-file scanner burst 285 ms against 294. Only a
 * thread that holds grammars: the process also grows with the store writer's work, and a scanner
 * burst must not pay for collections that free nothing (10–40 ms each). 32 MB measured 273 and
 * 276 MB.
 */
export const BUN_COLLECT_RSS_GROWTH_BYTES = 16 << 20;

/** What collectIfGrown reads and calls; the real one on Bun unless a test hands in its own. */
export interface HeapProbe {
  onBun: boolean;
  /** This thread's heap of cells (per thread on Bun) and the process's RSS, in bytes. */
  usage(): { heapTotal: number; rss: number };
  collect(): void;
}

/** What the last collection left: this thread's heap of cells and the process's RSS, in bytes. */
export interface CollectBaseline {
  keptHeap: number;
  keptRss: number;
}

const bunProbe: HeapProbe = {
  onBun,
  usage: () => process.memoryUsage(),
  collect: () => (globalThis as unknown as { Bun: { gc(full: boolean): void } }).Bun.gc(true),
};

const thisThread: CollectBaseline = { keptHeap: 0, keptRss: 0 };

/**
 * At the end of a task, on Bun: a full collection if this thread's heap of cells has grown
 * BUN_COLLECT_GROWTH_BYTES past what the last one kept, or, in a thread that holds grammars, the
 * process's RSS BUN_COLLECT_RSS_GROWTH_BYTES past what it was after it. Nothing on Node (V8's own
 * limits and flags bound its heaps: src/heap-growth.ts, WORKER_RESOURCE_LIMITS). Returns whether
 * it collected.
 */
export function collectIfGrown(
  thread: { holdsGrammars: boolean } = { holdsGrammars: false },
  probe: HeapProbe = bunProbe,
  baseline: CollectBaseline = thisThread,
): boolean {
  if (!probe.onBun) return false;
  const now = probe.usage();
  const heapGrown = now.heapTotal - baseline.keptHeap >= BUN_COLLECT_GROWTH_BYTES;
  const rssGrown = thread.holdsGrammars && now.rss - baseline.keptRss >= BUN_COLLECT_RSS_GROWTH_BYTES;
  if (!heapGrown && !rssGrown) return false;
  probe.collect();
  const after = probe.usage();
  baseline.keptHeap = after.heapTotal;
  baseline.keptRss = after.rss;
  return true;
}
