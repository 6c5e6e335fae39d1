/** The ingest roots a brain is bound to, with each root's detection state (since_ref, dirty set). */
import type { Database } from './sqlite-adapter.js';
import { DEFAULT_NOTES_DIR } from '../detect/index.js';

export interface RootRow {
  id: number;
  path: string;
  backend: string | null;
  sinceRef: string | null;
  dirty: string[];
  fallback: string | null;
  /** The `.gardenerignore` fingerprint the last detection applied; null when none. */
  ignoreFingerprint: string | null;
  /** The team notes folder the last detection applied; null for the default (`.gardener/notes`). */
  notesDir: string | null;
}

export function ensureRoot(db: Database, path: string, now: number): number {
  db.prepare('INSERT OR IGNORE INTO roots (path, added_at) VALUES (?, ?)').run(path, now);
  return db.prepare('SELECT id FROM roots WHERE path = ?').get<{ id: number }>(path)!.id;
}

export function listRoots(db: Database): RootRow[] {
  return db
    .prepare('SELECT id, path, backend, since_ref, dirty, fallback, ignore_fingerprint, notes_dir FROM roots ORDER BY id')
    .all<{ id: number; path: string; backend: string | null; since_ref: string | null; dirty: string; fallback: string | null; ignore_fingerprint: string | null; notes_dir: string | null }>()
    .map((r) => ({
      id: r.id,
      path: r.path,
      backend: r.backend,
      sinceRef: r.since_ref,
      dirty: JSON.parse(r.dirty) as string[],
      fallback: r.fallback,
      ignoreFingerprint: r.ignore_fingerprint,
      notesDir: r.notes_dir,
    }));
}

export function getRoot(db: Database, rootId: number): RootRow | undefined {
  return listRoots(db).find((r) => r.id === rootId);
}

/** Each root's team notes folder, by root id (the default for a root whose detection set none). */
export function notesDirs(db: Database): Map<number, string> {
  return new Map(
    db.prepare('SELECT id, notes_dir FROM roots').all<{ id: number; notes_dir: string | null }>().map((r) => [r.id, r.notes_dir ?? DEFAULT_NOTES_DIR]),
  );
}
