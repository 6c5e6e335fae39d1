/**
 * Notes as the recall verbs hand them out: with the definitions they are tied to and, only when
 * they went stale, a `stale` list saying which tied files (or definitions) changed and when the
 * map saw it (src/store/note-ties.ts has the rules). A stale note is never left out for it.
 */
import { marksOf, type Database, type StaleMark } from '../store/index.js';

export interface StaleOut {
  path: string;
  name?: string;
  changed_at?: string;
  removed?: true;
  gone?: true;
  moved_to?: string;
}

const staleOut = (m: StaleMark): StaleOut => ({
  path: m.path,
  ...(m.name !== undefined ? { name: m.name } : {}),
  ...(m.changedAt !== undefined ? { changed_at: new Date(m.changedAt).toISOString() } : {}),
  ...(m.removed ? { removed: true as const } : {}),
  ...(m.gone ? { gone: true as const } : {}),
  ...(m.movedTo !== undefined ? { moved_to: m.movedTo } : {}),
});

/** Each note with `definitions` (when it has some) and `stale` (when stale) added, in order. */
export function withMarks<N extends { id: number }>(db: Database, notes: readonly N[]): (N & { definitions?: { path: string; name: string }[]; stale?: StaleOut[] })[] {
  if (notes.length === 0) return [];
  const marks = marksOf(db, notes.map((n) => n.id));
  return notes.map((n) => {
    const m = marks.get(n.id);
    if (!m) return n;
    return {
      ...n,
      ...(m.definitions.length > 0 ? { definitions: m.definitions } : {}),
      ...(m.stale.length > 0 ? { stale: m.stale.map(staleOut) } : {}),
    };
  });
}

/** The files a note speaks of (its files and its definitions' files), for freshness and ranking. */
export function noteFiles(note: { files: readonly string[]; definitions?: readonly { path: string }[] }): string[] {
  return note.definitions ? [...new Set([...note.files, ...note.definitions.map((d) => d.path)])] : [...note.files];
}

/** A team note's `scope` and `file` (docs/notes.md); nothing for a private note, whose answers stay as they were. */
export function teamOf(note: { scope?: 'team'; file?: string }): { scope?: 'team'; file?: string } {
  return note.scope === 'team' ? { scope: 'team', file: note.file } : {};
}
