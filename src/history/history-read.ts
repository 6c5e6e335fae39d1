/**
 * Reads of the stored history for ranking (src/ranking/history-lists.ts), on the recall
 * connection. Each read is bounded by its caller's limit; none scans all of history.
 */
import type { Database } from '../store/index.js';

export interface Touch {
  commitId: number;
  /** Paths the commit touched. */
  files: number;
}

/** Roots with history to rank by, with the id of their newest commit (ages count back from it). */
export function historyHeads(db: Database): Map<number, number> {
  const rows = db
    .prepare(
      `SELECT s.root_id AS rootId, (SELECT max(id) FROM history_commits c WHERE c.root_id = s.root_id) AS top
       FROM history_state s WHERE s.status IN ('ready', 'failed') AND s.commits > 0`,
    )
    .all<{ rootId: number; top: number | null }>();
  return new Map(rows.filter((r) => r.top !== null).map((r) => [r.rootId, r.top!]));
}

/** The newest `limit` commits that touched a path, newest first. */
export function touchesOf(db: Database, rootId: number, path: string, limit: number): Touch[] {
  return db
    .prepare(
      `SELECT t.commit_id AS commitId, c.files AS files FROM history_paths p
       JOIN history_touches t ON t.path_id = p.id JOIN history_commits c ON c.id = t.commit_id
       WHERE p.root_id = ? AND p.path = ? ORDER BY t.commit_id DESC LIMIT ?`,
    )
    .all<Touch>(rootId, path, limit);
}

/** The ids of the newest `limit` commits that touched a path, newest first (touchesOf without the sizes: one join fewer). */
export function recentCommitIds(db: Database, rootId: number, path: string, limit: number): number[] {
  return db
    .prepare(
      `SELECT t.commit_id AS id FROM history_paths p JOIN history_touches t ON t.path_id = p.id
       WHERE p.root_id = ? AND p.path = ? ORDER BY t.commit_id DESC LIMIT ?`,
    )
    .all<{ id: number }>(rootId, path, limit)
    .map((r) => r.id);
}

/** The paths a commit touched. */
export function pathsOf(db: Database, commitId: number): string[] {
  return db
    .prepare('SELECT p.path AS path FROM history_touches t JOIN history_paths p ON p.id = t.path_id WHERE t.commit_id = ?')
    .all<{ path: string }>(commitId)
    .map((r) => r.path);
}

/** Commits whose message matches a full-text query, best first, with their root and size. */
export function commitsMatching(db: Database, match: string, limit: number): { commitId: number; rootId: number; files: number }[] {
  if (match === '') return [];
  return db
    .prepare(
      `SELECT c.id AS commitId, c.root_id AS rootId, c.files AS files FROM
         (SELECT rowid AS id, rank FROM history_fts WHERE history_fts MATCH ? ORDER BY rank LIMIT ?) m
       JOIN history_commits c ON c.id = m.id ORDER BY m.rank`,
    )
    .all<{ commitId: number; rootId: number; files: number }>(match, limit);
}

/** How many stored commits touched a path (its churn). */
export function churnOf(db: Database, rootId: number, path: string): number {
  return db
    .prepare('SELECT count(*) AS n FROM history_paths p JOIN history_touches t ON t.path_id = p.id WHERE p.root_id = ? AND p.path = ?')
    .get<{ n: number }>(rootId, path)!.n;
}
