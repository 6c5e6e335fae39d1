/**
 * The code map as the skeleton reads it: every file with its language and its imports
 * resolved to files (import-resolver.ts), and how many files import each file. Definitions
 * are not loaded here: only the few key files of each room need theirs (`exportedNames`),
 * and parsing every file's definitions would cost more than the rest of a reconcile.
 */
import type { Database } from '../store/index.js';
import type { ImportRef, SymbolDef } from '../ingest/extract/types.js';
import { ImportResolver } from './import-resolver.js';

export interface CodeImport {
  /** The imported file, root-relative. */
  target: string;
  line: number;
  /** The module as written. */
  module: string;
}

export interface CodeFile {
  rootId: number;
  path: string;
  language: string | null;
  imports: CodeImport[];
}

export interface CodeGraph {
  /** Sorted by path. */
  files: CodeFile[];
  /** How many distinct files import each file. */
  importedBy: Map<string, number>;
  /** Each file by path. */
  byPath: Map<string, CodeFile>;
  /** Imports the extractors recorded, resolved or not. */
  importsSeen: number;
}

export function loadCodeGraph(db: Database): CodeGraph {
  const rows = db.prepare('SELECT root_id, path, language, imports FROM files ORDER BY path').all<{ root_id: number; path: string; language: string | null; imports: string }>();
  const resolver = new ImportResolver(rows.map((r) => r.path));
  const importedBy = new Map<string, number>();
  let importsSeen = 0;
  const files = rows.map((r) => {
    const imports: CodeImport[] = [];
    const targets = new Set<string>();
    if (r.imports !== '[]') {
      for (const imp of JSON.parse(r.imports) as ImportRef[]) {
        importsSeen++;
        const target = resolver.resolve(r.path, r.language, imp.module);
        if (target === null) continue;
        imports.push({ target, line: imp.line, module: imp.module });
        targets.add(target);
      }
    }
    for (const t of targets) importedBy.set(t, (importedBy.get(t) ?? 0) + 1);
    return { rootId: r.root_id, path: r.path, language: r.language, imports };
  });
  return { files, importedBy, importsSeen, byPath: new Map(files.map((f) => [f.path, f])) };
}

/** The exported definitions' names of one file, in line order (through the (root_id, path) index). */
export function exportedNames(db: Database, file: Pick<CodeFile, 'rootId' | 'path'>, limit: number): string[] {
  const row = db.prepare('SELECT symbols FROM files WHERE root_id = ? AND path = ?').get<{ symbols: string }>(file.rootId, file.path);
  if (!row || row.symbols === '[]') return [];
  const out: string[] = [];
  for (const s of (JSON.parse(row.symbols) as SymbolDef[]).sort((a, b) => a.line - b.line)) {
    if (s.exported && !s.parent && !out.includes(s.name)) out.push(s.name);
    if (out.length >= limit) break;
  }
  return out;
}
