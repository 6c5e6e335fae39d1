/**
 * The backlog: a persisted FIFO of paths that must be re-ingested.
 *
 * Detection pushes the whole changed set once, in one transaction, through the stat cache (a
 * path whose size and mtime match the map is not queued: a file that stays dirty but did not
 * change since the last look costs nothing). A path is queued at most once. An item leaves
 * the backlog only in the transaction that writes its result (see code-map.ts), so a crash
 * at any point loses nothing. Nothing is ever dropped for being over a budget.
 */
import type { Database } from './sqlite-adapter.js';
import { DEFAULT_NOTES_DIR, ROOT_CONFIG_FILE, isNoteFile, type DetectResult } from '../detect/index.js';
import { recordAlert } from './alerts.js';
import type { BacklogItem } from '../ingest/index.js';

export interface PushOutcome {
  /** Paths newly queued by this push. */
  queued: number;
  /** Paths waiting in the backlog after the push. */
  backlog: number;
}

export function pushChanges(db: Database, rootId: number, detected: DetectResult, now: number): PushOutcome {
  const known = db.prepare('SELECT size, mtime_ms FROM files WHERE root_id = ? AND path = ?');
  const enqueue = db.prepare('INSERT OR IGNORE INTO backlog (root_id, path, queued_at) VALUES (?, ?, ?)');
  let queued = 0;
  const queue = (path: string) => {
    queued += enqueue.run(rootId, path, now).changes;
  };
  for (const e of detected.entries) {
    const row = known.get<{ size: number; mtime_ms: number }>(rootId, e.path);
    if (e.deleted) {
      if (row) queue(e.path);
    } else if (!row || row.size !== e.size || row.mtime_ms !== e.mtimeMs) {
      queue(e.path);
    }
  }
  if (detected.inventory) {
    const present = new Set(detected.entries.filter((e) => !e.deleted).map((e) => e.path));
    for (const { path } of db.prepare('SELECT path FROM files WHERE root_id = ?').all<{ path: string }>(rootId)) {
      if (!present.has(path)) queue(path);
    }
  }
  if (detected.notesDir !== undefined) queued += moveNotesDir(db, rootId, detected.notesDir, now);
  if (detected.configProblem) alertConfigProblem(db, rootId, detected, now);
  db.prepare('UPDATE roots SET backend = ?, since_ref = ?, dirty = ?, fallback = ?, ignore_fingerprint = ? WHERE id = ?').run(
    detected.backend,
    detected.backend === 'git' ? detected.head : null,
    JSON.stringify(detected.dirty),
    detected.fallback,
    detected.ignoreFingerprint ?? null,
    rootId,
  );
  return { queued, backlog: countBacklog(db) };
}

/**
 * A detection that applied another notes folder than the map's: the files the map holds
 * directly in the old or the new folder are queued with their hash forgotten, so each is read
 * again and committed as what it is now (a note file or code; one in a folder the map skips
 * leaves it), and so is every team note's file. The detection was an inventory, so the new
 * folder's files the map did not hold come in too. Returns how many paths it queued.
 */
function moveNotesDir(db: Database, rootId: number, notesDir: string, now: number): number {
  const was = db.prepare('SELECT notes_dir FROM roots WHERE id = ?').get<{ notes_dir: string | null }>(rootId)?.notes_dir ?? DEFAULT_NOTES_DIR;
  if (was === notesDir) return 0;
  db.prepare('UPDATE roots SET notes_dir = ? WHERE id = ?').run(notesDir === DEFAULT_NOTES_DIR ? null : notesDir, rootId);
  const inEither = (path: string) => isNoteFile(path, was) || isNoteFile(path, notesDir);
  const paths = new Set(
    db.prepare('SELECT path FROM files WHERE root_id = ? AND (substr(path, 1, ?) = ? OR substr(path, 1, ?) = ?)')
      .all<{ path: string }>(rootId, was.length + 1, `${was}/`, notesDir.length + 1, `${notesDir}/`)
      .map((r) => r.path)
      .filter(inEither),
  );
  for (const { path } of db.prepare('SELECT path FROM team_notes WHERE root_id = ?').all<{ path: string }>(rootId)) paths.add(path);
  const forget = db.prepare("UPDATE files SET hash = '' WHERE root_id = ? AND path = ?");
  const enqueue = db.prepare('INSERT OR IGNORE INTO backlog (root_id, path, queued_at) VALUES (?, ?, ?)');
  let queued = 0;
  for (const path of paths) {
    forget.run(rootId, path);
    queued += enqueue.run(rootId, path, now).changes;
  }
  return queued;
}

/** The alert a `.gardener/config.json` that is not valid raises, once while it stays unacknowledged. */
export const ROOT_CONFIG_ALERT = 'root_config_invalid';

function alertConfigProblem(db: Database, rootId: number, detected: DetectResult, now: number): void {
  const root = db.prepare('SELECT path FROM roots WHERE id = ?').get<{ path: string }>(rootId)?.path ?? '';
  const kept = detected.configProblem!.endsWith('; ignored') ? '' : `; the notes folder stays ${detected.notesDir ?? DEFAULT_NOTES_DIR}`;
  const message = `${root}/${ROOT_CONFIG_FILE}: ${detected.configProblem}${kept}`;
  const raised = db.prepare('SELECT 1 AS x FROM alerts WHERE code = ? AND message = ? AND acked_at IS NULL').get(ROOT_CONFIG_ALERT, message);
  if (raised === undefined) recordAlert(db, { code: ROOT_CONFIG_ALERT, message, path: ROOT_CONFIG_FILE }, now);
}

/** The oldest items after `afterId`, with the map's hash for each (null when not mapped). */
export function peekBacklog(db: Database, afterId: number, limit: number): BacklogItem[] {
  return db
    .prepare(
      `SELECT b.id, b.root_id AS rootId, b.path, f.hash AS knownHash
         FROM backlog b LEFT JOIN files f ON f.root_id = b.root_id AND f.path = b.path
        WHERE b.id > ? ORDER BY b.id LIMIT ?`,
    )
    .all<BacklogItem>(afterId, limit);
}

export function countBacklog(db: Database): number {
  return db.prepare('SELECT count(*) AS n FROM backlog').get<{ n: number }>()!.n;
}

/** Which of these root-relative paths are waiting in the backlog. */
export function pendingAmong(db: Database, rootId: number, paths: string[]): Set<string> {
  const st = db.prepare('SELECT 1 AS x FROM backlog WHERE root_id = ? AND path = ?');
  return new Set(paths.filter((p) => st.get(rootId, p) !== undefined));
}

/**
 * Queues paths seen to differ from the map outside detection (`remember` read a tied file the
 * map is behind on): the next drain re-reads them, and until it has, recall names them pending.
 * A path already queued is not queued twice.
 */
export function queuePaths(db: Database, paths: readonly { rootId: number; path: string }[], now: number): number {
  const enqueue = db.prepare('INSERT OR IGNORE INTO backlog (root_id, path, queued_at) VALUES (?, ?, ?)');
  let queued = 0;
  for (const p of paths) queued += enqueue.run(p.rootId, p.path, now).changes;
  return queued;
}
