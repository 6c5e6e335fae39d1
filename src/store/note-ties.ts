/**
 * What a note was written against, and whether it still holds: a note tied to files (or to
 * definitions in files) keeps each file's content hash from when it was written; a reader
 * compares it with the map's hash today.
 *
 * The rules (docs/tools.md, `remember`):
 * - a tied file is stale when the map holds other content for it than the note saw, and the map
 *   read that content after the note was written (`changedAt`: when the map saw the change). A
 *   map row older than the note with other content means the map is behind the file the note
 *   saw (the agent wrote the note right after an edit): the file is pending, not the note stale.
 *   A row whose hash was cleared for a re-read (a migration) is pending too;
 * - a tied file gone from the map is stale: `movedTo` the file of the same root that holds the
 *   content the note saw (a rename with the content kept), else `removed` (the map keeps no time
 *   for a removal);
 * - a tied definition is stale only when its file changed and no definition of that name is
 *   left in it: found in another file it `movedTo` there (`path:line`), else it is `gone`. A
 *   definition still in its file (at any line) is not stale: an edit above it moves its line
 *   without changing what a note about it says.
 * Notes never leave an answer for being stale: they carry the mark.
 */
import type { Database } from './sqlite-adapter.js';
import type { SymbolDef } from '../ingest/extract/types.js';
import { quoteTerm } from './query-terms.js';

export interface NoteTie {
  rootId: number;
  path: string;
  /** The file's content hash when the note was written (the map's xxh64 hex). */
  hash: string;
  /** A definition tie: the definition's name. */
  name?: string;
  /** …and its line when the note was written. */
  line?: number;
}

export interface StaleMark {
  path: string;
  /** The definition, for a definition tie. */
  name?: string;
  /** When the map saw the file's new content (epoch ms). */
  changedAt?: number;
  /** The file left the map. */
  removed?: true;
  /** The definition is no longer in its file, nor found in another. */
  gone?: true;
  /**
   * Where the definition is now (`path:line`), when it left its file for another; for a file
   * tie, the path that holds the file's content now, when the file left the map.
   */
  movedTo?: string;
}

export interface NoteMarks {
  definitions: { path: string; name: string }[];
  stale: StaleMark[];
}

/** Most other files looked at to find where a definition went. */
const MOVED_CANDIDATE_FILES = 20;
/** Note ids per query: under SQLite's smallest bound on parameters (999). */
const IDS_PER_QUERY = 500;

export function addNoteTies(db: Database, noteId: number, ties: readonly NoteTie[]): void {
  const insert = db.prepare('INSERT INTO note_ties (note_id, root_id, path, hash, name, line) VALUES (?, ?, ?, ?, ?, ?)');
  for (const t of ties) insert.run(noteId, t.rootId, t.path, t.hash, t.name ?? null, t.line ?? null);
}

export function removeNoteTies(db: Database, noteId: number): void {
  db.prepare('DELETE FROM note_ties WHERE note_id = ?').run(noteId);
}

type TieRow = {
  noteId: number; rootId: number; path: string; hash: string; name: string | null;
  createdAt: number; nowHash: string | null; ingestedAt: number | null; symbols: string | null;
};

/** The definitions and stale marks of each note (a note without ties is absent from the map). */
export function marksOf(db: Database, noteIds: readonly number[]): Map<number, NoteMarks> {
  const out = new Map<number, NoteMarks>();
  const movedCache = new Map<string, string | null>();
  for (let i = 0; i < noteIds.length; i += IDS_PER_QUERY) {
    const ids = noteIds.slice(i, i + IDS_PER_QUERY);
    const rows = db.prepare(
      `SELECT t.note_id AS noteId, t.root_id AS rootId, t.path, t.hash, t.name, n.created_at AS createdAt,
              f.hash AS nowHash, f.ingested_at AS ingestedAt, CASE WHEN t.name IS NULL THEN NULL ELSE f.symbols END AS symbols
         FROM note_ties t JOIN notes n ON n.id = t.note_id
         LEFT JOIN files f ON f.root_id = t.root_id AND f.path = t.path
        WHERE t.note_id IN (SELECT value FROM json_each(?))
        ORDER BY t.note_id, t.rowid`,
    ).all<TieRow>(JSON.stringify(ids));
    for (const r of rows) {
      let marks = out.get(r.noteId);
      if (!marks) out.set(r.noteId, (marks = { definitions: [], stale: [] }));
      if (r.name !== null) marks.definitions.push({ path: r.path, name: r.name });
      const mark = staleMark(db, r, movedCache);
      if (mark) marks.stale.push(mark);
    }
  }
  return out;
}

function staleMark(db: Database, r: TieRow, movedCache: Map<string, string | null>): StaleMark | null {
  // A tie by path only (a team note's tie to a secret-bearing file): stale only when the file is gone.
  if (r.hash === '') return r.nowHash === null ? { path: r.path, ...(r.name === null ? {} : { name: r.name }), removed: true } : null;
  if (r.nowHash === null) {
    if (r.name === null) {
      const movedTo = holderOf(db, r.rootId, r.hash, movedCache);
      return movedTo ? { path: r.path, movedTo } : { path: r.path, removed: true };
    }
    const movedTo = whereIs(db, r.name, r.rootId, r.path, movedCache);
    return movedTo ? { path: r.path, name: r.name, movedTo } : { path: r.path, name: r.name, removed: true };
  }
  if (r.nowHash === r.hash || r.nowHash === '' || r.ingestedAt! < r.createdAt) return null;
  if (r.name === null) return { path: r.path, changedAt: r.ingestedAt! };
  if ((JSON.parse(r.symbols ?? '[]') as SymbolDef[]).some((s) => s.name === r.name)) return null;
  const movedTo = whereIs(db, r.name, r.rootId, r.path, movedCache);
  return movedTo ? { path: r.path, name: r.name, changedAt: r.ingestedAt!, movedTo } : { path: r.path, name: r.name, changedAt: r.ingestedAt!, gone: true };
}

/**
 * The path (the first by name) that holds this content hash in the root now, or null. Asked
 * only for a tie whose file left the map, so it scans the root's files rather than keep an
 * index on hashes that every write would pay for.
 */
function holderOf(db: Database, rootId: number, hash: string, cache: Map<string, string | null>): string | null {
  const key = `${rootId}\0#${hash}`;
  if (cache.has(key)) return cache.get(key)!;
  const row = db.prepare('SELECT path FROM files WHERE root_id = ? AND hash = ? ORDER BY path LIMIT 1').get<{ path: string }>(rootId, hash);
  const found = row?.path ?? null;
  cache.set(key, found);
  return found;
}

/** `path:line` of a definition of this name in another file (the first by path), or null. */
function whereIs(db: Database, name: string, rootId: number, from: string, cache: Map<string, string | null>): string | null {
  const key = `${rootId}\0${from}\0${name}`;
  if (cache.has(key)) return cache.get(key)!;
  const rows = db.prepare(
    `SELECT f.root_id AS rootId, f.path, f.symbols FROM fts JOIN files f ON f.id = fts.rowid
      WHERE fts MATCH ? ORDER BY f.path LIMIT ?`,
  ).all<{ rootId: number; path: string; symbols: string }>(`symbols : ${quoteTerm(name)}`, MOVED_CANDIDATE_FILES);
  let found: string | null = null;
  for (const row of rows) {
    if (row.rootId === rootId && row.path === from) continue;
    const def = (JSON.parse(row.symbols) as SymbolDef[]).find((s) => s.name === name);
    if (def) {
      found = `${row.path}:${def.line}`;
      break;
    }
  }
  cache.set(key, found);
  return found;
}
