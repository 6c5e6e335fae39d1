/**
 * The code map as the skeleton reads it: every file with its language and its imports
 * resolved to files (import-resolver.ts), and how many files import each file. Definitions
 * are not loaded here: only the few key files of each room need theirs (`exportedNames`),
 * and parsing every file's definitions would cost more than the rest of a reconcile.
 */
import type { Database } from '../store/index.js';
import type { ImportRef, SymbolDef } from '../ingest/extract/types.js';
import { ImportResolver, lookupStems, loadLayout, type Layout } from '../resolve/index.js';

export interface CodeImport {
  /** The imported file, root-relative. */
  target: string;
  line: number;
  /** The module as written. */
  module: string;
}

export interface CodeFile {
  /** The file's row id in the code map. */
  id: number;
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

/**
 * What a connection has read before, by file id: a file whose hash is unchanged keeps its
 * parsed imports and its exported names, so a reconcile after a burst reads and parses only
 * the files the burst touched (the store writer's connection lives as long as the brain).
 */
interface FileMemo {
  path: string;
  hash: string;
  /** The file's imports, each with the stems that resolve it when they depend only on this file (import-resolver.ts). */
  imports: (ImportRef & { stems: string[] | null })[];
  /** Its imports resolved, valid while the code map's path list is the one they were resolved against. */
  resolved?: CodeImport[];
  exported?: string[];
}
const memos = new WeakMap<Database, Map<number, FileMemo>>();
/** The sorted path list and manifests each connection last resolved against: an edit-only burst keeps them. */
const lastPaths = new WeakMap<Database, { paths: string[]; layout: Layout }>();
/** Most names remembered per file: the most any caller asks for. */
const EXPORTED_MEMO_NAMES = 8;
/** Ids per `IN (…)` query when fetching the imports of changed files. */
const FETCH_CHUNK = 500;

/**
 * The last graph each connection built, with the store version it was built at. `refs` and
 * `impact` ask for the graph on every call; rebuilding it walks every file of the map (the bench's
 * 5000-file brain: refs p50 27.8 ms built each call, 6.0 ms kept; impact 37.2 -> 16.0 ms), so a graph is kept until the store changes: another
 * connection's commit moves `PRAGMA data_version`, this connection's own writes move
 * `total_changes()`. Callers treat the graph as read-only.
 */
const lastGraphs = new WeakMap<Database, { version: string; graph: CodeGraph }>();

function storeVersion(db: Database): string {
  const dv = db.prepare('PRAGMA data_version').get<{ data_version: number }>();
  const tc = db.prepare('SELECT total_changes() AS n').get<{ n: number }>();
  return `${dv?.data_version ?? 0}:${tc?.n ?? 0}`;
}

export function loadCodeGraph(db: Database): CodeGraph {
  const version = storeVersion(db);
  const last = lastGraphs.get(db);
  if (last !== undefined && last.version === version) return last.graph;
  const graph = buildCodeGraph(db);
  lastGraphs.set(db, { version, graph });
  return graph;
}

function buildCodeGraph(db: Database): CodeGraph {
  const rows = db.prepare('SELECT id, root_id, path, hash, language FROM files').all<{ id: number; root_id: number; path: string; hash: string; language: string | null }>();
  rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.root_id - b.root_id));
  let memo = memos.get(db);
  if (!memo) memos.set(db, (memo = new Map()));
  const stale = rows.filter((r) => {
    const m = memo!.get(r.id);
    return !m || m.hash !== r.hash || m.path !== r.path;
  });
  for (let i = 0; i < stale.length; i += FETCH_CHUNK) {
    const chunk = stale.slice(i, i + FETCH_CHUNK);
    // One text for every chunk (the ids as a JSON array): a connection keeps its statements.
    const got = db.prepare('SELECT id, imports FROM files WHERE id IN (SELECT value FROM json_each(?))').all<{ id: number; imports: string }>(JSON.stringify(chunk.map((r) => r.id)));
    const byId = new Map(got.map((g) => [g.id, g.imports]));
    for (const r of chunk) {
      const refs = JSON.parse(byId.get(r.id) ?? '[]') as ImportRef[];
      const imports = refs.map((ref) => ({ module: ref.module, line: ref.line, stems: lookupStems(r.path, r.language, ref.module) }));
      memo.set(r.id, { path: r.path, hash: r.hash, imports });
    }
  }
  if (memo.size > rows.length) {
    const live = new Set(rows.map((r) => r.id));
    for (const id of memo.keys()) if (!live.has(id)) memo.delete(id);
  }
  const paths = rows.map((r) => r.path);
  const previous = lastPaths.get(db);
  // A manifest's edit (a tsconfig path, a package's exports) re-resolves every import from the
  // memo: nothing is read again.
  const layout = loadLayout(db);
  const samePaths = previous !== undefined && previous.layout === layout && previous.paths.length === paths.length && previous.paths.every((p, i) => p === paths[i]);
  lastPaths.set(db, { paths, layout });
  let resolver: ImportResolver | undefined;
  const importedBy = new Map<string, number>();
  let importsSeen = 0;
  const files = rows.map((r): CodeFile => {
    const m = memo!.get(r.id)!;
    importsSeen += m.imports.length;
    if (!samePaths || !m.resolved) {
      resolver ??= new ImportResolver(paths, layout);
      m.resolved = [];
      for (const imp of m.imports) {
        const target = imp.stems ? resolver.resolveStems(r.path, imp.stems) : resolver.resolve(r.path, r.language, imp.module);
        if (target !== null) m.resolved.push({ target, line: imp.line, module: imp.module });
      }
    }
    const imports = m.resolved;
    const targets = new Set<string>();
    for (const imp of imports) targets.add(imp.target);
    for (const t of targets) importedBy.set(t, (importedBy.get(t) ?? 0) + 1);
    return { id: r.id, rootId: r.root_id, path: r.path, language: r.language, imports };
  });
  return { files, importedBy, importsSeen, byPath: new Map(files.map((f) => [f.path, f])) };
}

/** The exported definitions' names of one file, in line order (remembered while its hash holds). */
export function exportedNames(db: Database, file: Pick<CodeFile, 'id'>, limit: number): string[] {
  const m = memos.get(db)?.get(file.id);
  if (m?.exported) return m.exported.slice(0, limit);
  const row = db.prepare('SELECT symbols FROM files WHERE id = ?').get<{ symbols: string }>(file.id);
  const out: string[] = [];
  if (row && row.symbols !== '[]') {
    for (const s of (JSON.parse(row.symbols) as SymbolDef[]).sort((a, b) => a.line - b.line)) {
      if (s.exported && !s.parent && !out.includes(s.name)) out.push(s.name);
      if (out.length >= Math.max(limit, EXPORTED_MEMO_NAMES)) break;
    }
  }
  if (m) m.exported = out;
  return out.slice(0, limit);
}
