/**
 * The history lists' storage (schema migration 7): the writer applies what the detect worker
 * mined, in one transaction; ranking and `north` read through the recall connection.
 *
 * A rebuild (first build, rewritten history, a shallow clone) drops everything stored for the
 * root before it writes, in the same transaction: a reader sees the old history or the new,
 * never a mix. Past HISTORY_MAX_COMMITS the oldest commits leave with their paths and words.
 */
import type { Database } from '../store/index.js';
import type { MinedHistory } from './types.js';
import { HISTORY_MAX_COMMITS } from './mine-history.js';

export interface HistoryState {
  rootId: number;
  /** 'ready', 'shallow' (no history to rank by) or 'failed' (see note). */
  status: string;
  /** The commit history is mined up to. */
  head: string | null;
  commits: number;
  /** True when only the newest HISTORY_MAX_COMMITS were kept. */
  bounded: boolean;
  builtAt: number;
  note: string | null;
}

export interface HistoryApplied {
  status: string;
  added: number;
  dropped: number;
  commits: number;
}

export function readHistoryStates(db: Database): HistoryState[] {
  return db
    .prepare('SELECT root_id, status, head, commits, bounded, built_at, note FROM history_state ORDER BY root_id')
    .all<{ root_id: number; status: string; head: string | null; commits: number; bounded: number; built_at: number; note: string | null }>()
    .map((r) => ({ rootId: r.root_id, status: r.status, head: r.head, commits: r.commits, bounded: r.bounded === 1, builtAt: r.built_at, note: r.note }));
}

/**
 * The head history was mined to for each root with status 'ready'. A failure is mined again at
 * the next tick, and so is a shallow clone (one `rev-parse` a tick): once unshallowed
 * (`git fetch --unshallow`) it gets its history without waiting for HEAD to move.
 */
export function minedHeads(db: Database): Record<number, string> {
  const out: Record<number, string> = {};
  for (const s of readHistoryStates(db)) if (s.head !== null && s.status === 'ready') out[s.rootId] = s.head;
  return out;
}

function dropRoot(db: Database, rootId: number): number {
  const ids = db.prepare('SELECT id FROM history_commits WHERE root_id = ?').all<{ id: number }>(rootId);
  dropCommits(db, ids.map((r) => r.id));
  db.prepare('DELETE FROM history_paths WHERE root_id = ?').run(rootId);
  return ids.length;
}

function dropCommits(db: Database, ids: readonly number[]): void {
  const touches = db.prepare('DELETE FROM history_touches WHERE commit_id = ?');
  const words = db.prepare('DELETE FROM history_fts WHERE rowid = ?');
  const commit = db.prepare('DELETE FROM history_commits WHERE id = ?');
  for (const id of ids) {
    touches.run(id);
    words.run(id);
    commit.run(id);
  }
}

/** Applies mined history for a root; run inside the writer's transaction. */
export function applyHistory(db: Database, rootId: number, mined: MinedHistory, now: number, maxCommits = HISTORY_MAX_COMMITS): HistoryApplied {
  let dropped = 0;
  const was = readHistoryStates(db).find((s) => s.rootId === rootId);
  // Still the same shallow clone: nothing to write (a shallow root is asked again every tick).
  if (mined.status === 'shallow' && was?.status === 'shallow' && was.head === mined.head) return { status: 'shallow', added: 0, dropped: 0, commits: 0 };
  if (mined.rebuild) dropped += dropRoot(db, rootId);
  const addCommit = db.prepare('INSERT INTO history_commits (root_id, sha, time, files) VALUES (?, ?, ?, ?)');
  const addWords = db.prepare('INSERT INTO history_fts (rowid, message) VALUES (?, ?)');
  const addPath = db.prepare('INSERT OR IGNORE INTO history_paths (root_id, path) VALUES (?, ?)');
  const pathId = db.prepare('SELECT id FROM history_paths WHERE root_id = ? AND path = ?');
  const addTouch = db.prepare('INSERT OR IGNORE INTO history_touches (commit_id, path_id) VALUES (?, ?)');
  const lastId = db.prepare('SELECT last_insert_rowid() AS id');
  const ids = new Map<string, number>();
  const idOf = (path: string): number => {
    let id = ids.get(path);
    if (id === undefined) {
      addPath.run(rootId, path);
      id = pathId.get<{ id: number }>(rootId, path)!.id;
      ids.set(path, id);
    }
    return id;
  };
  for (const c of mined.commits) {
    addCommit.run(rootId, c.sha, c.time, c.fileCount);
    const id = lastId.get<{ id: number }>()!.id;
    // A huge commit arrives without paths: its words would name every file too.
    if (c.files.length === 0) continue;
    if (c.message !== '') addWords.run(id, c.message);
    for (const p of c.files) addTouch.run(id, idOf(p));
  }
  let commits = db.prepare('SELECT count(*) AS n FROM history_commits WHERE root_id = ?').get<{ n: number }>(rootId)!.n;
  let bounded = mined.bounded || (!mined.rebuild && was?.bounded === true);
  if (commits > maxCommits) {
    const old = db.prepare('SELECT id FROM history_commits WHERE root_id = ? ORDER BY id LIMIT ?').all<{ id: number }>(rootId, commits - maxCommits);
    dropCommits(db, old.map((r) => r.id));
    dropped += old.length;
    commits -= old.length;
    bounded = true;
  }
  db.prepare(
    `INSERT INTO history_state (root_id, status, head, commits, bounded, built_at, note) VALUES (?, ?, ?, ?, ?, ?, NULL)
     ON CONFLICT (root_id) DO UPDATE SET status = excluded.status, head = excluded.head, commits = excluded.commits,
       bounded = excluded.bounded, built_at = excluded.built_at, note = NULL`,
  ).run(rootId, mined.status, mined.head, commits, bounded ? 1 : 0, now);
  return { status: mined.status, added: mined.commits.length, dropped, commits };
}

/** Records that mining failed for a root: the history stored stays (up to its own head), and the next tick tries again. */
export function recordHistoryFailure(db: Database, rootId: number, note: string, now: number): void {
  db.prepare(
    `INSERT INTO history_state (root_id, status, head, commits, bounded, built_at, note) VALUES (?, 'failed', NULL, 0, 0, ?, ?)
     ON CONFLICT (root_id) DO UPDATE SET status = 'failed', built_at = excluded.built_at, note = excluded.note`,
  ).run(rootId, now, note.slice(0, 500));
}
