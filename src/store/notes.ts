/** Notes: what agents chose to remember, with tags, related files and a pin. */
import type { Database } from './sqlite-adapter.js';
import { tokenize } from './query-terms.js';
import { addNoteTies, removeNoteTies, type NoteTie } from './note-ties.js';
import { queuePaths } from './backlog.js';

export interface NoteInput {
  text: string;
  tags?: string[];
  files?: string[];
  pinned?: boolean;
  /** What the note was written against: its files' (and definitions') content hashes then. */
  ties?: NoteTie[];
  /** Tied files whose content on disk the map does not hold yet: queued for re-ingest. */
  behind?: { rootId: number; path: string }[];
}

export interface Note {
  id: number;
  text: string;
  tags: string[];
  files: string[];
  pinned: boolean;
  createdAt: number;
  /** A team note (team-notes.ts): a file in the repository; private notes have no scope field. */
  scope?: 'team';
  /** The team note's file, root-relative. */
  file?: string;
}

export interface NoteHit extends Note {
  score: number;
}

type Row = { id: number; text: string; tags: string; files: string; pinned: number; created_at: number; team_path?: string | null };
const toNote = (r: Row): Note => ({
  id: r.id,
  text: r.text,
  tags: JSON.parse(r.tags) as string[],
  files: JSON.parse(r.files) as string[],
  pinned: r.pinned === 1,
  createdAt: r.created_at,
  ...(r.team_path ? { scope: 'team' as const, file: r.team_path } : {}),
});

export function addNote(db: Database, note: NoteInput, now: number): number {
  const tags = note.tags ?? [];
  const files = note.files ?? [];
  db.prepare('INSERT INTO notes (text, tags, files, pinned, created_at) VALUES (?, ?, ?, ?, ?)').run(
    note.text, JSON.stringify(tags), JSON.stringify(files), note.pinned ? 1 : 0, now,
  );
  const id = db.prepare('SELECT last_insert_rowid() AS id').get<{ id: number }>()!.id;
  db.prepare('INSERT INTO notes_fts (rowid, text, tags, files) VALUES (?, ?, ?, ?)').run(id, note.text, tags.join(' '), files.join(' '));
  addNoteTies(db, id, note.ties ?? []);
  if (note.behind?.length) queuePaths(db, note.behind, now);
  return id;
}

/** Removes a note; false when there was none with that id. */
export function removeNote(db: Database, id: number): boolean {
  db.prepare('DELETE FROM notes_fts WHERE rowid = ?').run(id);
  removeNoteTies(db, id);
  return db.prepare('DELETE FROM notes WHERE id = ?').run(id).changes > 0;
}

/** Pinned notes first, then the most recent, up to `limit`. */
export function bootNotes(db: Database, limit: number): Note[] {
  return db.prepare(
    'SELECT n.*, t.path AS team_path FROM notes n LEFT JOIN team_notes t ON t.note_id = n.id ORDER BY n.pinned DESC, n.created_at DESC, n.id DESC LIMIT ?',
  ).all<Row>(limit).map(toNote);
}

export function countNotes(db: Database): number {
  return db.prepare('SELECT count(*) AS n FROM notes').get<{ n: number }>()!.n;
}

/** Full-text search over notes; scores in (0, 1), pinned notes nudged up. */
export function searchNotes(db: Database, query: string, limit: number): NoteHit[] {
  const terms = tokenize(query);
  if (terms.length === 0) return [];
  const match = terms.map((t) => `"${t.replace(/"/g, '""')}"*`).join(' OR ');
  return db
    .prepare(
      `SELECT n.*, t.path AS team_path, bm25(notes_fts) AS rank FROM notes_fts JOIN notes n ON n.id = notes_fts.rowid
        LEFT JOIN team_notes t ON t.note_id = n.id
        WHERE notes_fts MATCH ? ORDER BY rank LIMIT ?`,
    )
    .all<Row & { rank: number }>(match, limit)
    .map((r) => {
      const m = Math.abs(r.rank);
      return { ...toNote(r), score: Math.min(0.999, m / (1 + m) + (r.pinned ? 0.05 : 0)) };
    });
}
