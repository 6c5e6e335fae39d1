/**
 * The messages between the main thread and the workers, in one place (piscina's src/types.ts).
 * Everything here crosses a thread boundary by structured clone: plain data only.
 */
import type { MessagePort } from 'node:worker_threads';
import { getHeapStatistics } from 'node:v8';
import { bunThreadHeap } from '../src/bun-heap.js';
import { onBun } from '../src/heap-growth.js';
import { pageReturns, type PageReturns } from '../src/page-return.js';
import type { DetectRequest, DetectResult } from '../src/detect/types.js';
import type { FileResult, HashExtractTask } from '../src/ingest/types.js';
import type { MineRequest } from '../src/history/types.js';

/** The facts detect and ingest produce belong to their rooms; the messages carry them. */
export type { DetectRequest, DetectResult };
export type { BacklogItem, DeletedResult, FailedResult, FileResult, HashExtractTask, IngestedResult, UnchangedResult } from '../src/ingest/types.js';
export { extractionFields } from '../src/ingest/extraction-fields.js';

/**
 * The detect worker's own bound on one task, in ms: its AbortSignal kills every git the task
 * runs (runGit's abort path) and the task rejects. It sits between the one-git bound
 * (GIT_COMMAND_TIMEOUT_MS, 30 s: a detection runs a few gits in turn) and the pool's bound on
 * any task (POOL_TASK_TIMEOUT_MS, 120 s), past which Piscina ends the thread and would orphan a
 * git child instead of killing it; the gap leaves the killed task time to answer.
 */
export const DETECT_TASK_TIMEOUT_MS = 90_000;

/**
 * A task of the detect worker. `abort` is the caller's cancel, relayed: one message on it and
 * the worker kills its git and rejects with AbortedError. (A Piscina abort would end the thread
 * instead, leaving the git running.)
 */
export interface DetectTask {
  request: DetectRequest;
  abort?: MessagePort;
}

/** The detect worker's other task: the commit a ref names in a work tree (the `changes` tool's `since`). */
export interface ResolveCommitTask {
  root: string;
  ref: string;
  gitBinary?: string;
  abort?: MessagePort;
}

/** The detect worker's history task: mine a root's commits up to the map's head (src/history/). */
export interface MineHistoryTask {
  request: MineRequest;
  abort?: MessagePort;
}

/**
 * A drain's hash+extract batch: the results go on `deliverTo`, a port whose other end the store
 * writer holds (stageFrom), and the main thread gets only their summaries. The results cross
 * one thread boundary instead of two, and the main thread never clones a file's text.
 */
export interface HashExtractDeliverTask extends PoolHashExtractTask {
  deliverTo: MessagePort;
}

/**
 * A batch as the pool hands it to its thread: `leave` names items (by id) that git's ignore
 * rules now cover; they leave the map unread (src/pool/leaving-paths.ts).
 */
export interface PoolHashExtractTask extends HashExtractTask {
  leave?: number[];
}

/** What the main thread keeps of one delivered result: enough to count, bound and report it. */
export interface ResultSummary {
  id: number;
  rootId: number;
  path: string;
  status: FileResult['status'];
  /** Bytes of the text delivered for indexing (0 without). */
  textBytes: number;
}

export interface HashExtractDelivered {
  summaries: ResultSummary[];
  /** Time spent reading, hashing, extracting and delivering, in ms. */
  workMs: number;
  holdsGrammars: boolean;
}

/** The summary of one result (ResultSummary). */
export function summarize(r: FileResult): ResultSummary {
  return { id: r.id, rootId: r.rootId, path: r.path, status: r.status, textBytes: r.status === 'ingested' && r.text ? r.text.byteLength : 0 };
}

export interface HashExtractOutput {
  results: FileResult[];
  /** Time spent reading, hashing and extracting, in ms. */
  workMs: number;
  /** Whether the thread that ran the batch holds the tree-sitter runtime (grammars in its WebAssembly memory). */
  holdsGrammars: boolean;
}

/**
 * One thread's V8 heap as V8 reports it (\`v8.getHeapStatistics()\`), in bytes: what the thread
 * holds in the process's RSS for its JavaScript (\`heap\`, of which \`used\` is live or not yet
 * collected) and its external memory (WebAssembly memories: the tree-sitter grammars). On Bun,
 * JavaScriptCore's figures for the same three (src/bun-heap.ts).
 */
export interface ThreadHeap {
  heap: number;
  used: number;
  external: number;
  /** The thread's page returns so far (src/page-return.ts); null where the thread runs none. */
  returns: PageReturns | null;
}

/** This thread's heap (ThreadHeap). */
export function threadHeap(): ThreadHeap {
  if (onBun) return { ...bunThreadHeap(), returns: pageReturns() };
  const h = getHeapStatistics();
  return { heap: h.total_physical_size, used: h.used_heap_size, external: h.external_memory ?? 0, returns: pageReturns() };
}

/** The transferable buffers inside a set of results (each text's own ArrayBuffer). */
export function textBuffers(results: readonly FileResult[]): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const r of results) if (r.status === 'ingested' && r.text) out.push(r.text.buffer as ArrayBuffer);
  return out;
}
