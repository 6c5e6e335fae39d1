/**
 * The messages between the main thread and the workers, in one place (piscina's src/types.ts).
 * Everything here crosses a thread boundary by structured clone: plain data only.
 */
import type { ImportRef, Reference, SymbolDef } from '../src/ingest/extract/types.js';
import type { MessagePort } from 'node:worker_threads';
import { encodeReferences } from '../src/store/reference-codec.js';
import type { DetectRequest, DetectResult } from '../src/detect/types.js';
import type { MineRequest } from '../src/history/types.js';

export type { DetectRequest, DetectResult };

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

/** One path waiting in the backlog, with what the map knows of it. */
export interface BacklogItem {
  id: number;
  rootId: number;
  path: string;
  /** The hash in the map, if the path is there: an unchanged file only updates its stat row. */
  knownHash: string | null;
}

/** A batch for the hash+extract pool. */
export interface HashExtractTask {
  /** Absolute path of each ingest root the batch's items belong to, by root id. */
  roots: Record<number, string>;
  items: BacklogItem[];
  /** Files larger than this are hashed but not full-text indexed, in bytes. */
  maxIndexBytes: number;
  /** Extract references; false only in the bench's with/without comparison. @default true */
  references?: boolean;
}

interface ResultBase {
  id: number;
  rootId: number;
  path: string;
}
export interface DeletedResult extends ResultBase {
  status: 'deleted';
}
export interface UnchangedResult extends ResultBase {
  status: 'unchanged';
  size: number;
  mtimeMs: number;
}
/**
 * A file that was (re)ingested. Definitions and imports arrive already serialised: one string
 * crosses the threads instead of dozens of small objects, and the pool thread (which has CPU
 * to spare) does the work the writer (the drain's critical path) would otherwise do.
 */
export interface IngestedResult extends ResultBase {
  status: 'ingested';
  size: number;
  mtimeMs: number;
  hash: string;
  language: string | null;
  lines: number;
  /**
   * The file's UTF-8 bytes for the full-text index; null for binary or oversized files.
   * Bytes rather than a string so they cross threads by transfer, not by copy: the main
   * thread only relays them from the pool to the writer, which decodes them once.
   */
  text: Uint8Array | null;
  /** The file's definitions, as stored (JSON of SymbolDef[]), and how many. */
  symbolsJson: string;
  symbolCount: number;
  /** The definitions' names, space-separated, for the full-text index's `symbols` column. */
  symbolNames: string;
  /** The file's imports, as stored (JSON of ImportRef[]). */
  importsJson: string;
  /**
   * Why the file has no definitions although its language has a grammar (too large, parse
   * timed out, grammar failed): the writer raises it as an alert naming the file.
   */
  note?: { code: string; message: string };
  /** The file's references, as stored (src/store/reference-codec.ts): grouped by name, `in` as a definition index. */
  refsText: string;
}
export interface FailedResult extends ResultBase {
  status: 'failed';
  /** The errno code (EACCES, EISDIR…) or GDN code. */
  code: string;
  message: string;
}
export type FileResult = DeletedResult | UnchangedResult | IngestedResult | FailedResult;

export interface HashExtractOutput {
  results: FileResult[];
  /** Time spent reading, hashing and extracting, in ms. */
  workMs: number;
}

/** The transferable buffers inside a set of results (each text's own ArrayBuffer). */
export function textBuffers(results: readonly FileResult[]): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const r of results) if (r.status === 'ingested' && r.text) out.push(r.text.buffer as ArrayBuffer);
  return out;
}

/** Serialises an extraction into the fields an IngestedResult carries. */
export function extractionFields(symbols: readonly SymbolDef[], imports: readonly ImportRef[], references: readonly Reference[] = []) {
  return {
    symbolsJson: JSON.stringify(symbols),
    symbolCount: symbols.length,
    symbolNames: symbols.map((s) => s.name).join(' '),
    importsJson: JSON.stringify(imports),
    refsText: encodeReferences(symbols, references),
  };
}
