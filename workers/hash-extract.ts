/**
 * Pool worker (Piscina): hash+extract batches.
 *
 *   main thread ── run(HashExtractTask) ──► [this worker] ── reads files under task.root
 *               ◄── HashExtractOutput ────┘
 *
 *   a drain:  main ── run(HashExtractDeliverTask) ──► [this worker] ── results ──► deliverTo
 *                  ◄── HashExtractDelivered (summaries) ┘              (the store writer's port)
 *
 * Stateless but for the tree-sitter grammars it loads lazily, once per thread, for the languages
 * its batches hold (src/ingest/tree-sitter/): it may touch only the files of the batch it is
 * handed; no store, no git. A Gardener error (or a coded one) leaves as data and is itself
 * again in the caller (src/pool/error-wire.ts).
 */
import { Piscina } from 'piscina';
import { hashAndExtract } from '../src/ingest/hash-extract.js';
import { runtimeStarted, treeSitterMemoryBytes } from '../src/ingest/tree-sitter/index.js';
import { summarize, textBuffers, threadHeap, type FileResult, type HashExtractDelivered, type HashExtractDeliverTask, type HashExtractOutput, type PoolHashExtractTask, type ThreadHeap } from './types.js';
import { onBun } from '../src/heap-growth.js';
import { collectIfGrown } from '../src/bun-heap.js';
import { keepPagesReturned } from '../src/page-return.js';
import { isMainThread } from 'node:worker_threads';
import { yieldToMainThread } from '../src/pool/thread-priority.js';
import { giveWay } from '../src/pool/request-gate.js';
import { throwsWhole } from '../src/pool/error-wire.js';

// A pool thread works below the main thread's priority (src/pool/thread-priority.ts).
yieldToMainThread();
// It gives its heap's garbage pages back once the heap grew (src/page-return.ts; once per thread).
if (!isMainThread) keepPagesReturned();

/** One batch, as both entries run it: read, hash and extract, then this thread's upkeep. */
async function runBatch(task: PoolHashExtractTask): Promise<{ results: FileResult[]; workMs: number; holdsGrammars: boolean }> {
  const started = performance.now();
  const results = await hashAndExtract(withoutLeaving(task), () => giveWay(task.gate));
  // Items git's ignore rules now cover leave the map as deletions, never read.
  if (task.leave?.length) {
    const leave = new Set(task.leave);
    for (const item of task.items) if (leave.has(item.id)) results.push({ id: item.id, rootId: item.rootId, path: item.path, status: 'deleted' });
  }
  // On Bun, the garbage the batch left (parsing, mostly) is collected once it has piled up, and in a
  // thread holding grammars once the process grew (the lexers' compiled code: src/bun-heap.ts).
  const holdsGrammars = runtimeStarted();
  collectIfGrown({ holdsGrammars });
  return { results, workMs: performance.now() - started, holdsGrammars };
}

/** The batch without the items that leave unread. */
function withoutLeaving(task: PoolHashExtractTask): PoolHashExtractTask {
  if (!task.leave?.length) return task;
  const leave = new Set(task.leave);
  return { ...task, items: task.items.filter((item) => !leave.has(item.id)) };
}

export default throwsWhole(async function hashExtract(task: PoolHashExtractTask): Promise<HashExtractOutput> {
  const output: HashExtractOutput = await runBatch(task);
  const { results } = output;
  // The file texts are moved to the main thread, not copied (Piscina's movable protocol).
  return Piscina.move({
    get [Piscina.transferableSymbol]() {
      return textBuffers(results);
    },
    get [Piscina.valueSymbol]() {
      return output;
    },
  } as never) as unknown as HashExtractOutput;
});

/**
 * A drain's batch: the results (texts moved, not copied) go straight to the store writer on
 * `task.deliverTo`, posted before this task answers; the main thread gets their summaries.
 */
export const deliver = throwsWhole(async (task: HashExtractDeliverTask): Promise<HashExtractDelivered> => {
  const { deliverTo, ...batch } = task;
  const { results, workMs, holdsGrammars } = await runBatch(batch);
  deliverTo.postMessage(results, textBuffers(results));
  return { summaries: results.map(summarize), workMs, holdsGrammars };
});

/**
 * This thread's heap, for the bench's memory breakdown (bench/memory-breakdown.ts). On Bun the
 * external memory counts web-tree-sitter's WebAssembly memory once, as Node does: JavaScriptCore
 * counts a memory twice once its buffer has been read, and web-tree-sitter reads it as it starts
 * (checked on Bun 1.4.5: with the runtime and three grammars loaded, external is 74.2 MB on Bun
 * against 42.5 MB on Node, for a 32 MB memory).
 */
export function heapStats(): ThreadHeap {
  const heap = threadHeap();
  if (!onBun) return heap;
  return { ...heap, external: Math.max(0, heap.external - treeSitterMemoryBytes()) };
}
