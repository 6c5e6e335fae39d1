/**
 * What the ingest stage takes and gives: a batch of backlog items in, one result per item out.
 * The pool carries both between threads (workers/types.ts re-exports them), so everything here
 * is plain structured-clone data; the store reads the results it commits.
 */

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
  /**
   * Each root's team notes folder, by root id: a path the noise policy skips outside it leaves
   * the map unread. Unset: only `.gardenerignore` is applied.
   */
  notesDirs?: Record<number, string>;
  /** Files larger than this are hashed but not full-text indexed, in bytes. */
  maxIndexBytes: number;
  /** Extract references; false only in the bench's with/without comparison. @default true */
  references?: boolean;
  /** The main thread's request gate (src/pool/request-gate.ts): the batch waits between files while recall calls run. */
  gate?: Int32Array;
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
   * Bytes rather than a string so they cross threads by transfer, not by copy: a drain's
   * pool thread posts them straight to the writer (never through the main thread), which
   * decodes them once.
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
  /** The file's references, as stored (src/ingest/reference-codec.ts): grouped by name, `in` as a definition index. */
  refsText: string;
  /** A build manifest's facts for resolution (src/ingest/manifest.ts), as stored JSON; absent for every other file. */
  manifest?: string;
}
export interface FailedResult extends ResultBase {
  status: 'failed';
  /** The errno code (EACCES, EISDIR…) or GDN code. */
  code: string;
  message: string;
}
export type FileResult = DeletedResult | UnchangedResult | IngestedResult | FailedResult;
