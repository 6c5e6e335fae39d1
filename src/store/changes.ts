/**
 * The `changes` tool's question to the map: for each path detection found changed under a
 * root, is it still pending re-ingest? Pending means queued in the backlog, or the file on
 * disk is not what the map holds (a different size or mtime, a deleted file still mapped, a
 * new file not mapped yet). Read-only, on the recall connection.
 */
import { pendingAmong } from './backlog.js';
import type { Database } from './sqlite-adapter.js';

/** What detection saw of one path (the detect stage's ChangedEntry, structurally). */
export interface SeenEntry {
  path: string;
  size: number;
  mtimeMs: number;
  deleted: boolean;
}

export interface ChangeAgainstMap {
  path: string;
  deleted: boolean;
  pending: boolean;
}

/** Each entry with whether it is pending re-ingest, in the order given. */
export function compareWithMap(db: Database, rootId: number, entries: readonly SeenEntry[]): ChangeAgainstMap[] {
  const queued = pendingAmong(db, rootId, entries.map((e) => e.path));
  const mapped = db.prepare('SELECT size, mtime_ms FROM files WHERE root_id = ? AND path = ?');
  return entries.map((e) => {
    const row = mapped.get<{ size: number; mtime_ms: number }>(rootId, e.path);
    const differs = e.deleted ? row !== undefined : !row || row.size !== e.size || row.mtime_ms !== e.mtimeMs;
    return { path: e.path, deleted: e.deleted, pending: queued.has(e.path) || differs };
  });
}
