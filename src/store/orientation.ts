/**
 * Orientation queries for `north` and summaries: languages, top folders, and which files are
 * imported most. Relative import specifiers are resolved against the importing file
 * (`./x.js` from `src/a.ts` → `src/x.*`), with the extension dropped on both sides so a
 * TypeScript `.js` specifier finds its `.ts` source; bare specifiers count as packages.
 */
import { posix } from 'node:path';
import type { Database } from './sqlite-adapter.js';
import type { ImportRef, SymbolDef } from '../ingest/extract/types.js';

export interface FolderSummary {
  folder: string;
  files: number;
  mostImported: { path: string; importedBy: number }[];
}

export function languageCounts(db: Database): { language: string; files: number; definitions: number }[] {
  return db
    .prepare("SELECT coalesce(language, 'other') AS language, count(*) AS files, coalesce(sum(symbol_count), 0) AS definitions FROM files GROUP BY 1 ORDER BY files DESC")
    .all<{ language: string; files: number; definitions: number }>();
}

const stem = (p: string) => p.replace(/\.[A-Za-z0-9]+$/, '').replace(/\/index$/, '');

/** How many files import each mapped file, by root-relative path. */
export function importCounts(db: Database): Map<string, number> {
  const files = db.prepare('SELECT path, imports FROM files').all<{ path: string; imports: string }>();
  const byStem = new Map<string, string>();
  for (const f of files) if (!byStem.has(stem(f.path))) byStem.set(stem(f.path), f.path);
  const counts = new Map<string, number>();
  for (const f of files) {
    const targets = new Set<string>();
    for (const imp of JSON.parse(f.imports) as ImportRef[]) {
      if (!imp.module.startsWith('.')) continue;
      const target = byStem.get(stem(posix.normalize(posix.join(posix.dirname(f.path), imp.module))));
      if (target && target !== f.path) targets.add(target);
    }
    for (const t of targets) counts.set(t, (counts.get(t) ?? 0) + 1);
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
  const row = db.prepare('SELECT symbols FROM files WHERE root_id = ? AND path = ?').get<{ symbols: string }>(rootId, path);
  if (!row) return [];
  return (JSON.parse(row.symbols) as SymbolDef[])
    .sort((a, b) => a.line - b.line)
    .slice(0, limit)
    .map((s) => ({ name: s.name, kind: s.kind, line: s.line, exported: s.exported }));
}
