/**
 * Team notes in the brain: a note that is a file in a root's notes folder (team-note-file.ts
 * has the format). Two directions, one table (`team_notes`: which note a file is):
 *
 * - **in**, from the pipeline: a note file is detected and read in the pool like any changed
 *   file; when its result is committed (code-map.ts) the file is parsed here and its note added,
 *   updated (same id, so `forget ID` keeps meaning the same note) or, for a removed file,
 *   removed. A file that does not parse is an alert naming the file and line, and is skipped
 *   (a note already read from it stays as it was until the file parses again). Note files are
 *   notes, not code: they keep a stat row in the map (the stat cache) but no full-text row.
 * - **out**, from `remember {scope: "team"}` and `share`: the note's text goes through the
 *   map's own secret rules first (findSecret); one found refuses the note with its kind and
 *   line, and nothing is written. A tie to a secret-bearing file is kept by path only.
 */
import { mkdirSync, openSync, closeSync, writeSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from './sqlite-adapter.js';
import type { FileResult } from '../ingest/index.js';
import { findSecret, isSecretFile } from '../ingest/index.js';
import { NoteSecretError, InvalidArgumentError } from '../errors.js';
import { recordAlert } from './alerts.js';
import { isNoteFile, rootConfigOf } from '../detect/index.js';
import { notesDirs } from './roots.js';
import { addNoteTies, removeNoteTies, type NoteTie } from './note-ties.js';
import { addNote, removeNote } from './notes.js';
import {
  DEFAULT_TEAM_NOTES_DIR, MAX_TEAM_NOTE_FILE_BYTES, formatTeamNote, newTeamNoteId, parseTeamNote,
  type TeamNote, type TeamTie,
} from './team-note-file.js';

export { DEFAULT_TEAM_NOTES_DIR, MAX_TEAM_NOTE_FILE_BYTES } from './team-note-file.js';

/** The alert a note file that cannot be read as a note raises (docs/notes.md). */
export const TEAM_NOTE_SKIPPED_ALERT = 'team_note_skipped';


export interface TeamNoteRow {
  noteId: number;
  rootId: number;
  path: string;
  uid: string;
  author: string | null;
}

export function teamNoteOf(db: Database, noteId: number): TeamNoteRow | undefined {
  return db.prepare('SELECT note_id AS noteId, root_id AS rootId, path, uid, author FROM team_notes WHERE note_id = ?').get<TeamNoteRow>(noteId);
}

/** Every team note row, by note id (for listings). */
export function teamNotes(db: Database): Map<number, TeamNoteRow> {
  const rows = db.prepare('SELECT note_id AS noteId, root_id AS rootId, path, uid, author FROM team_notes').all<TeamNoteRow>();
  return new Map(rows.map((r) => [r.noteId, r]));
}

const skip = (db: Database, path: string, line: number, reason: string, now: number): void => {
  recordAlert(db, { code: TEAM_NOTE_SKIPPED_ALERT, message: `${path}:${line}: ${reason}; skipped`, path }, now);
};

/** Removes the note a file was, if it was one (the file is gone, or is not a note file any more). */
export function dropTeamNote(db: Database, rootId: number, path: string): void {
  const row = db.prepare('SELECT note_id AS noteId FROM team_notes WHERE root_id = ? AND path = ?').get<{ noteId: number }>(rootId, path);
  if (!row) return;
  removeNote(db, row.noteId);
  db.prepare('DELETE FROM team_notes WHERE note_id = ?').run(row.noteId);
}

/**
 * Applies one committed result of a note file (a file directly in its root's notes folder,
 * `notesDir`) to the brain's notes.
 */
export function applyTeamNoteResult(db: Database, r: FileResult, notesDir: string, now: number): void {
  if (r.status === 'deleted') return dropTeamNote(db, r.rootId, r.path);
  let row = db.prepare('SELECT note_id AS noteId FROM team_notes WHERE root_id = ? AND path = ?').get<{ noteId: number }>(r.rootId, r.path);
  if (r.status !== 'ingested') return;
  if (r.size > MAX_TEAM_NOTE_FILE_BYTES) return skip(db, r.path, 1, `a note file is at most ${MAX_TEAM_NOTE_FILE_BYTES} bytes (this one has ${r.size})`, now);
  if (r.text === null) return skip(db, r.path, 1, 'a binary file is not a note (a note is Markdown text)', now);
  const name = r.path.slice(r.path.lastIndexOf('/') + 1);
  if (!name.endsWith('.md')) return skip(db, r.path, 1, 'not a note: a note file is named <id>.md', now);
  const parsed = parseTeamNote(Buffer.from(r.text.buffer, r.text.byteOffset, r.text.byteLength).toString('utf8'), name);
  if (!parsed.ok) return skip(db, r.path, parsed.line, parsed.reason, now);
  const note = parsed.note;
  const taken = db.prepare('SELECT note_id AS noteId, path FROM team_notes WHERE root_id = ? AND uid = ? AND path != ?').get<{ noteId: number; path: string }>(r.rootId, note.id, r.path);
  if (taken && isNoteFile(taken.path, notesDir)) return skip(db, r.path, 1, `id ${note.id} is already the note in ${taken.path}`, now);
  if (taken && !row) {
    // The note's file moved with the notes folder (the root's config names a new one): the
    // same note, so its id stays.
    db.prepare('UPDATE team_notes SET path = ? WHERE note_id = ?').run(r.path, taken.noteId);
    row = { noteId: taken.noteId };
  }
  const ties: NoteTie[] = [...note.files, ...note.definitions].map((t) => ({ rootId: r.rootId, path: t.path, hash: t.hash ?? '', ...(t.name === undefined ? {} : { name: t.name }), ...(t.line === undefined ? {} : { line: t.line }) }));
  const files = [...new Set(note.files.map((t) => t.path))];
  if (row) {
    db.prepare('UPDATE notes SET text = ?, tags = ?, files = ?, pinned = ?, created_at = ? WHERE id = ?').run(
      note.text, JSON.stringify(note.tags), JSON.stringify(files), note.pinned ? 1 : 0, note.created, row.noteId,
    );
    db.prepare('DELETE FROM notes_fts WHERE rowid = ?').run(row.noteId);
    db.prepare('INSERT INTO notes_fts (rowid, text, tags, files) VALUES (?, ?, ?, ?)').run(row.noteId, note.text, note.tags.join(' '), files.join(' '));
    removeNoteTies(db, row.noteId);
    addNoteTies(db, row.noteId, ties);
    db.prepare('UPDATE team_notes SET uid = ?, author = ? WHERE note_id = ?').run(note.id, note.author ?? null, row.noteId);
    return;
  }
  const id = addNote(db, { text: note.text, tags: note.tags, files, pinned: note.pinned, ties }, note.created);
  db.prepare('INSERT INTO team_notes (note_id, root_id, path, uid, author) VALUES (?, ?, ?, ?, ?)').run(id, r.rootId, r.path, note.id, note.author ?? null);
}

/** What a team note file is made from: a note's fields, its ties, and the root it goes to. */
export interface TeamNoteDraft {
  text: string;
  tags: string[];
  pinned: boolean;
  ties: NoteTie[];
  created: number;
  author?: string;
  /** Tied files the map is behind (NoteInput.behind): queued for re-ingest with the note. */
  behind?: { rootId: number; path: string }[];
}

/**
 * Checks a draft for what may never be written into a team note, and makes its file's text.
 * Throws NoteSecretError naming what was found and where; nothing is written by this.
 */
export function teamNoteFileFor(draft: TeamNoteDraft, rootId: number, id: string): { note: TeamNote; text: string } {
  const inText = findSecret(draft.text);
  if (inText) throw new NoteSecretError(inText.kind, `the note's text, line ${inText.line}`);
  for (const [i, tag] of draft.tags.entries()) {
    const inTag = findSecret(tag);
    if (inTag) throw new NoteSecretError(inTag.kind, `tags[${i}]`);
  }
  const files: TeamTie[] = [];
  const definitions: (TeamTie & { name: string })[] = [];
  for (const t of draft.ties) {
    if (t.rootId !== rootId) throw new InvalidArgumentError(`a team note lives in one root: ${t.path} is in another root of this brain than the note`);
    // A secret-bearing file's hash says something of its content: the tie keeps its path only.
    const tie: TeamTie = { path: t.path, ...(isSecretFile(t.path) || t.hash === '' ? {} : { hash: t.hash }) };
    if (t.name === undefined) files.push(tie);
    else definitions.push({ ...tie, name: t.name, ...(t.line === undefined ? {} : { line: t.line }) });
  }
  const note: TeamNote = { id, created: draft.created, ...(draft.author ? { author: draft.author } : {}), tags: draft.tags, pinned: draft.pinned, files, definitions, text: draft.text };
  return { note, text: formatTeamNote(note) };
}

/**
 * Writes a team note's file (never over another: `O_EXCL`) and records which note it is, in
 * the caller's transaction. `noteId` is an existing private note being shared, else a new note
 * is added. The file is written before the row; a failed row removes the file again.
 */
export function writeTeamNote(db: Database, rootPath: string, rootId: number, draft: TeamNoteDraft, now: number, noteId?: number): { id: number; file: string; uid: string } {
  const uid = newTeamNoteId(now);
  const { note, text } = teamNoteFileFor(draft, rootId, uid);
  if (Buffer.byteLength(text) > MAX_TEAM_NOTE_FILE_BYTES) throw new InvalidArgumentError(`the note's file would be over ${MAX_TEAM_NOTE_FILE_BYTES} bytes`);
  // The folder the root's config names now (a tick may not have read a change yet); while the
  // config is not valid, the one the map last read notes from.
  const dir = rootConfigOf(rootPath).notesDir ?? notesDirs(db).get(rootId) ?? DEFAULT_TEAM_NOTES_DIR;
  const rel = `${dir}/${uid}.md`;
  const abs = join(rootPath, rel);
  mkdirSync(join(rootPath, dir), { recursive: true });
  const fd = openSync(abs, 'wx', 0o644);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  try {
    const id = noteId ?? addNote(db, { text: note.text, tags: note.tags, files: note.files.map((f) => f.path), pinned: note.pinned, ties: draft.ties, behind: draft.behind }, now);
    db.prepare('INSERT INTO team_notes (note_id, root_id, path, uid, author) VALUES (?, ?, ?, ?, ?)').run(id, rootId, rel, uid, note.author ?? null);
    return { id, file: rel, uid };
  } catch (err) {
    unlinkSync(abs);
    throw err;
  }
}

/** Removes a team note's file (a file already gone is fine) and its row; the note itself stays. */
export function unlinkTeamNote(db: Database, rootPath: string, row: TeamNoteRow): void {
  try {
    unlinkSync(join(rootPath, row.path));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  db.prepare('DELETE FROM team_notes WHERE note_id = ?').run(row.noteId);
}

/** A private note's draft, from the brain (for `share`). */
export function draftOf(db: Database, noteId: number): TeamNoteDraft | undefined {
  const n = db.prepare('SELECT text, tags, pinned, created_at FROM notes WHERE id = ?').get<{ text: string; tags: string; pinned: number; created_at: number }>(noteId);
  if (!n) return undefined;
  const ties = db.prepare('SELECT root_id AS rootId, path, hash, name, line FROM note_ties WHERE note_id = ? ORDER BY rowid')
    .all<{ rootId: number; path: string; hash: string; name: string | null; line: number | null }>(noteId)
    .map((t) => ({ rootId: t.rootId, path: t.path, hash: t.hash, ...(t.name === null ? {} : { name: t.name }), ...(t.line === null ? {} : { line: t.line }) }));
  return { text: n.text, tags: JSON.parse(n.tags) as string[], pinned: n.pinned === 1, ties, created: n.created_at };
}
