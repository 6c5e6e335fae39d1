/**
 * Orientation queries for `north` and summaries: languages, top folders, and which files are
 * imported most. Relative import specifiers are resolved against the importing file
 * (`./x.js` from `src/a.ts` → `src/x.*`), with the extension dropped on both sides so a
 * TypeScript `.js` specifier finds its `.ts` source; bare specifiers count as packages.
 */
import { posix } from 'node:path';
import type { Database } from './sqlite-adapter.js';

export interface FolderSummary {
  folder: string;
  files: number;
  mostImported: { path: string; importedBy: number }[];
}

export function languageCounts(db: Database): { language: string; files: number }[] {
  return db
    .prepare("SELECT coalesce(language, 'other') AS language, count(*) AS files FROM files GROUP BY 1 ORDER BY files DESC")
    .all<{ language: string; files: number }>();
}

const stem = (p: string) => p.replace(/\.[A-Za-z0-9]+$/, '').replace(/\/index$/, '');

/** How many files import each mapped file, by root-relative path. */
export function importCounts(db: Database): Map<string, number> {
  const files = db.prepare('SELECT id, path FROM files').all<{ id: number; path: string }>();
  const byStem = new Map<string, string>();
  for (const f of files) if (!byStem.has(stem(f.path))) byStem.set(stem(f.path), f.path);
  const pathById = new Map(files.map((f) => [f.id, f.path]));
  const counts = new Map<string, number>();
  const seen = new Set<string>();
  for (const row of db.prepare('SELECT file_id, module FROM imports').all<{ file_id: number; module: string }>()) {
    if (!row.module.startsWith('.')) continue;
    const from = pathById.get(row.file_id);
    if (!from) continue;
    const target = byStem.get(stem(posix.normalize(posix.join(posix.dirname(from), row.module))));
    if (!target || target === from) continue;
    const edge = `${row.file_id}\0${target}`;
    if (seen.has(edge)) continue;
    seen.add(edge);
    counts.set(target, (counts.get(target) ?? 0) + 1);
  }
  return counts;
}

/** Top folders (first path segment; files at the top level count as "."), largest first. */
export function topFolders(db: Database, limit: number, perFolder: number): FolderSummary[] {
  const counts = importCounts(db);
  const folders = new Map<string, { files: number; imported: { path: string; importedBy: number }[] }>();
  for (const { path } of db.prepare('SELECT path FROM files').all<{ path: string }>()) {
    const slash = path.indexOf('/');
    const folder = slash < 0 ? '.' : path.slice(0, slash);
    let f = folders.get(folder);
    if (!f) folders.set(folder, (f = { files: 0, imported: [] }));
    f.files++;
    const n = counts.get(path);
    if (n) f.imported.push({ path, importedBy: n });
  }
  return [...folders.entries()]
    .sort((a, b) => b[1].files - a[1].files || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([folder, f]) => ({
      folder,
      files: f.files,
      mostImported: f.imported.sort((a, b) => b.importedBy - a.importedBy || a.path.localeCompare(b.path)).slice(0, perFolder),
    }));
}

/** The definitions of one file, in line order. */
export function symbolsOf(db: Database, rootId: number, path: string, limit: number): { name: string; kind: string; line: number; exported: boolean }[] {
  return db
    .prepare(
      `SELECT s.name, s.kind, s.line, s.exported FROM symbols s JOIN files f ON f.id = s.file_id
        WHERE f.root_id = ? AND f.path = ? ORDER BY s.line LIMIT ?`,
    )
    .all<{ name: string; kind: string; line: number; exported: number }>(rootId, path, limit)
    .map((s) => ({ ...s, exported: s.exported === 1 }));
}
