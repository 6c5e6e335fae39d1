/**
 * Store upkeep that a tick defers until its work is committed: WAL checkpoints and full-text
 * index merges.
 *
 * During a drain, SQLite's automatic checkpoint would run inside whichever commit crosses the
 * WAL threshold (copying pages and syncing the file), and FTS5's automatic merge would rewrite
 * index segments inside commits too; both made a burst's commits several times slower
 * (docs/benchmarks.md). The writer turns both off (`deferUpkeep`) and the vigil runs
 * `runUpkeep` after each tick, off the tick's critical path. Nothing is less durable: every
 * commit is in the WAL either way.
 */
import { statSync } from 'node:fs';
import type { Database } from './sqlite-adapter.js';

/**
 * Pages of full-text index merging per upkeep pass: bounded, so one pass stays a few ms
 * (400 pages took ~18 ms and delayed the next tick; segments left over are merged by later
 * passes, or by FTS5's own crisis merge).
 */
export const FTS_MERGE_PAGES = 64;
/** The WAL is checkpointed once it is this big: small enough that readers stay quick. */
export const CHECKPOINT_WAL_BYTES = 8 * 1024 * 1024;

/** For the one writer connection: no checkpoint or index merge inside a commit. */
export function deferUpkeep(db: Database): void {
  db.exec('PRAGMA wal_autocheckpoint = 0');
  db.exec("INSERT INTO fts (fts, rank) VALUES ('automerge', 0)");
}

export interface UpkeepOutcome {
  /** WAL frames copied back into the database file. */
  checkpointed: number;
  ms: number;
}

/** Merges some index segments; checkpoints a big WAL (PASSIVE: never waits for readers). */
export function runUpkeep(db: Database): UpkeepOutcome {
  const started = performance.now();
  db.transaction(() => db.prepare("INSERT INTO fts (fts, rank) VALUES ('merge', ?)").run(FTS_MERGE_PAGES))();
  let checkpointed = 0;
  if (walBytes(db.file) >= CHECKPOINT_WAL_BYTES) {
    checkpointed = db.prepare('PRAGMA wal_checkpoint(PASSIVE)').get<{ checkpointed: number }>()?.checkpointed ?? 0;
  }
  return { checkpointed, ms: performance.now() - started };
}

function walBytes(file: string): number {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}
