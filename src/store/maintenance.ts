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
 * Pages of full-text index merging per merge transaction: bounded, so one transaction stays a
 * few ms (400 pages took ~18 ms and delayed the next tick).
 */
export const FTS_MERGE_PAGES = 64;
/**
 * How long one upkeep may keep merging, in transactions of FTS_MERGE_PAGES, in ms. Recall
 * reads every segment of the index, so segments left unmerged cost every `seek`: after a
 * 1000-file burst on 5000 files, merging until FTS5 had nothing left at its `usermerge` level
 * took 4 transactions and ~27 ms on a loaded 2-core machine and took the index from 11
 * segments to 6, and 400 queries from 901 to 796 ms of CPU (a full merge: 560 ms of writing
 * for 752). One 64-page pass, as before, did a quarter of that. The writer answers nothing
 * while it merges, so the budget is what a tick arriving just then may wait; work left over
 * is done by the next upkeep.
 */
export const UPKEEP_MERGE_BUDGET_MS = 25;
/** A hard stop on merge transactions per upkeep, whatever the clock says. */
const MAX_MERGES_PER_UPKEEP = 64;
/** The WAL is checkpointed once it is this big: small enough that readers stay quick. */
export const CHECKPOINT_WAL_BYTES = 8 * 1024 * 1024;

/** For the one writer connection: no checkpoint or index merge inside a commit. */
export function deferUpkeep(db: Database): void {
  db.exec('PRAGMA wal_autocheckpoint = 0');
  db.exec("INSERT INTO fts (fts, rank) VALUES ('automerge', 0)");
}

export interface UpkeepOutcome {
  /** Merge transactions run; the last found nothing left to merge unless the budget ran out. */
  merges: number;
  /** The budget (or the cap on transactions) stopped the merging before FTS5 found nothing left. */
  mergeLeft: boolean;
  /** WAL frames copied back into the database file. */
  checkpointed: number;
  ms: number;
}

export interface UpkeepOptions {
  /** Merging stops once this much time has passed, in ms. @default UPKEEP_MERGE_BUDGET_MS */
  budgetMs?: number;
  /** The clock, in ms. @default performance.now */
  now?: () => number;
}

/**
 * Merges index segments until FTS5 has nothing left to merge or the budget is spent (each
 * merge its own short transaction); checkpoints a big WAL (PASSIVE: never waits for readers).
 */
export function runUpkeep(db: Database, options: UpkeepOptions = {}): UpkeepOutcome {
  const now = options.now ?? (() => performance.now());
  const budgetMs = options.budgetMs ?? UPKEEP_MERGE_BUDGET_MS;
  const started = now();
  const merge = db.prepare("INSERT INTO fts (fts, rank) VALUES ('merge', ?)");
  const changes = db.prepare('SELECT total_changes() AS n');
  let merges = 0;
  let mergeLeft = true;
  while (merges < MAX_MERGES_PER_UPKEEP) {
    const before = changes.get<{ n: number }>()!.n;
    db.transaction(() => merge.run(FTS_MERGE_PAGES))();
    merges++;
    // FTS5's documented test: a 'merge' that changed fewer than 2 rows found nothing to merge.
    if (changes.get<{ n: number }>()!.n - before < 2) {
      mergeLeft = false;
      break;
    }
    if (now() - started >= budgetMs) break;
  }
  let checkpointed = 0;
  if (walBytes(db.file) >= CHECKPOINT_WAL_BYTES) {
    checkpointed = db.prepare('PRAGMA wal_checkpoint(PASSIVE)').get<{ checkpointed: number }>()?.checkpointed ?? 0;
  }
  return { merges, mergeLeft, checkpointed, ms: now() - started };
}

function walBytes(file: string): number {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}
