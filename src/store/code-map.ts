/**
 * Applies ingest results to the code map: file rows (with their definitions, imports and references) and
 * the full-text index,
 * and removes each item from the backlog in the same transaction. An item already gone from
 * the backlog (another process committed it first) is skipped, so two writers never ingest a
 * path twice.
 *
 * The full-text index is written last, in rowid order: every old row first (deletes, in
 * ascending rowid), then every new row (inserts, in ascending rowid). FTS5 flushes the terms it
 * holds in memory into a new index segment whenever a write's rowid is lower than the last
 * one's (or repeats it after an insert), so writing each file's delete and insert as it came,
 * in backlog order, flushed one tiny segment per replaced file: measured on a 1000-file burst
 * in a 5000-file brain, 155–200 ms of SQL per burst of which the deletes' flushes were 77–90,
 * and hundreds of segments for every recall query to read until upkeep merged them. In rowid
 * order the whole commit is one segment (more only when its terms outgrow FTS5's hash).
 */
import type { Database } from './sqlite-adapter.js';
import type { FileResult, IngestedResult } from '../ingest/index.js';
import { recordAlert } from './alerts.js';
import { applyTeamNoteResult, dropTeamNote } from './team-notes.js';
import { notesDirs } from './roots.js';
import { isNoteFile } from '../detect/index.js';

export interface CommitOutcome {
  ingested: number;
  unchanged: number;
  deleted: number;
  failed: number;
  /** Results whose backlog item was already gone (committed elsewhere). */
  skipped: number;
}

export function commitResults(db: Database, results: FileResult[], now: number): CommitOutcome {
  const out: CommitOutcome = { ingested: 0, unchanged: 0, deleted: 0, failed: 0, skipped: 0 };
  const inBacklog = db.prepare('SELECT 1 AS x FROM backlog WHERE id = ?');
  const dequeue = db.prepare('DELETE FROM backlog WHERE id = ?');
  const fileId = db.prepare('SELECT id FROM files WHERE root_id = ? AND path = ?');
  // What the full-text index must lose (rows it held before this commit) and hold afterwards.
  const stale = new Set<number>();
  const fresh = new Map<number, IngestedResult>();
  const created = new Set<number>();
  // Which files are notes: the ones directly in their root's notes folder; a file that has a
  // team note row without being one (its folder is not the notes folder any more) drops it.
  const dirs = notesDirs(db);
  const isNote = (r: FileResult) => isNoteFile(r.path, dirs.get(r.rootId));
  const noteRows = new Set(db.prepare('SELECT root_id AS rootId, path FROM team_notes').all<{ rootId: number; path: string }>().map((t) => `${t.rootId}\0${t.path}`));
  for (const r of results) {
    if (inBacklog.get(r.id) === undefined) {
      out.skipped++;
      continue;
    }
    const existing = fileId.get<{ id: number }>(r.rootId, r.path)?.id;
    switch (r.status) {
      case 'deleted':
        if (existing !== undefined) {
          db.prepare('DELETE FROM files WHERE id = ?').run(existing);
          fresh.delete(existing);
          if (!created.has(existing)) stale.add(existing);
        }
        out.deleted++;
        break;
      case 'unchanged':
        db.prepare('UPDATE files SET size = ?, mtime_ms = ? WHERE id = ?').run(r.size, r.mtimeMs, existing ?? -1);
        out.unchanged++;
        break;
      case 'ingested': {
        const id = upsertFile(db, existing, r.rootId, r.path, r, now);
        if (existing === undefined) created.add(id);
        else if (!created.has(id)) stale.add(id);
        // A note file is a note, not code: its stat row stays (the stat cache), no full-text row.
        if (!isNote(r)) fresh.set(id, r);
        if (r.note !== undefined) recordAlert(db, { code: r.note.code, message: `${r.path}: ${r.note.message}; indexed as text only`, path: r.path }, now);
        out.ingested++;
        break;
      }
      case 'failed':
        recordAlert(db, { code: 'ingest_failed', message: `${r.path}: ${r.message} (${r.code}); skipped`, path: r.path }, now);
        out.failed++;
        break;
    }
    if (isNote(r)) applyTeamNoteResult(db, r, dirs.get(r.rootId)!, now);
    else if (noteRows.has(`${r.rootId}\0${r.path}`)) dropTeamNote(db, r.rootId, r.path);
    dequeue.run(r.id);
  }
  const ascending = (a: number, b: number) => a - b;
  const remove = db.prepare('DELETE FROM fts WHERE rowid = ?');
  for (const id of [...stale].sort(ascending)) remove.run(id);
  const insert = db.prepare('INSERT INTO fts (rowid, path, symbols, content) VALUES (?, ?, ?, ?)');
  for (const id of [...fresh.keys()].sort(ascending)) {
    const r = fresh.get(id)!;
    insert.run(id, r.path, r.symbolNames, r.text === null ? '' : Buffer.from(r.text.buffer, r.text.byteOffset, r.text.byteLength).toString('utf8'));
  }
  return out;
}

function upsertFile(db: Database, existing: number | undefined, rootId: number, path: string, r: IngestedResult, now: number): number {
  const indexed = r.text === null ? 0 : 1;
  if (existing !== undefined) {
    db.prepare(
      'UPDATE files SET size = ?, mtime_ms = ?, hash = ?, language = ?, lines = ?, indexed = ?, symbol_count = ?, symbols = ?, imports = ?, refs = ?, manifest = ?, ingested_at = ? WHERE id = ?',
    ).run(r.size, r.mtimeMs, r.hash, r.language, r.lines, indexed, r.symbolCount, r.symbolsJson, r.importsJson, r.refsText, r.manifest ?? null, now, existing);
    return existing;
  }
  db.prepare(
    `INSERT INTO files (root_id, path, size, mtime_ms, hash, language, lines, indexed, symbol_count, symbols, imports, refs, manifest, ingested_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(rootId, path, r.size, r.mtimeMs, r.hash, r.language, r.lines, indexed, r.symbolCount, r.symbolsJson, r.importsJson, r.refsText, r.manifest ?? null, now);
  return db.prepare('SELECT last_insert_rowid() AS id').get<{ id: number }>()!.id;
}
