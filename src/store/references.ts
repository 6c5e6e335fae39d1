/**
 * The reference queries over the code map: where a name is defined, and where it is used.
 *
 * Resolution is by name, at query time (the extractors only say what was written where). The
 * full-text index already holds every file's words, so the files that may use a name are one
 * index lookup (`content : "name"`, case-folded), and each candidate's stored references
 * (src/ingest/reference-codec.ts) confirm the uses with the exact spelling. A name found in more files
 * than a query may read answers with what it read and says it stopped.
 */
import type { Database } from './sqlite-adapter.js';
import type { ReferenceKind, SymbolDef } from '../ingest/extract/types.js';
import { usesIn } from '../ingest/index.js';

export interface DefinitionHit {
  rootId: number;
  path: string;
  line: number;
  kind: string;
  exported: boolean;
  parent?: string;
}

export interface UseHit {
  line: number;
  kind: ReferenceKind;
  /** The enclosing definition's name, absent at top level. */
  in?: string;
}

export interface FileUses {
  fileId: number;
  rootId: number;
  path: string;
  uses: UseHit[];
}

export interface UsesOutcome {
  files: FileUses[];
  /** Files whose words include the name that were read; `truncated` when more were left. */
  scanned: number;
  truncated: boolean;
  /** Of those, files mapped before references were kept (they wait in the backlog to be read again). */
  unknown: number;
}

/** Most files whose definitions are checked for one name. */
export const MAX_DEFINITION_FILES = 1000;
/** Most candidate files read for the uses of one name (a name in every file stops here). */
export const MAX_USE_FILES = 2000;

const quote = (term: string) => `"${term.replace(/"/g, '""')}"`;

/** The definitions named exactly `name`, by path then line. */
export function definitionsOf(db: Database, name: string, maxFiles = MAX_DEFINITION_FILES): DefinitionHit[] {
  const rows = db
    .prepare('SELECT f.root_id AS rootId, f.path, f.symbols FROM fts JOIN files f ON f.id = fts.rowid WHERE fts MATCH ? LIMIT ?')
    .all<{ rootId: number; path: string; symbols: string }>(`symbols : ${quote(name)}`, maxFiles);
  const out: DefinitionHit[] = [];
  for (const row of rows) {
    for (const s of JSON.parse(row.symbols) as SymbolDef[]) {
      if (s.name !== name) continue;
      const hit: DefinitionHit = { rootId: row.rootId, path: row.path, line: s.line, kind: s.kind, exported: s.exported };
      if (s.parent !== undefined) hit.parent = s.parent;
      out.push(hit);
    }
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
}

/** Every stored use of `name`, grouped by file (files in path order, uses in line order). */
export function usesOf(db: Database, name: string, maxFiles = MAX_USE_FILES): UsesOutcome {
  const match = `content : ${quote(name)}`;
  const candidates = db.prepare('SELECT count(*) AS n FROM (SELECT rowid FROM fts WHERE fts MATCH ? LIMIT ?)').get<{ n: number }>(match, maxFiles + 1)!.n;
  const truncated = candidates > maxFiles;
  // SQLite keeps the candidates whose references hold the name (the codec's `\n<name>\t`): a
  // common word is in thousands of files that never use it as a name, and bringing each row's
  // references and definitions into JavaScript to find that out cost 20 ms a call on 3000 files.
  const rows = db
    .prepare(
      'SELECT f.id, f.root_id AS rootId, f.path, f.refs, f.symbols FROM (SELECT rowid AS id FROM fts WHERE fts MATCH ? LIMIT ?) c ' +
        'JOIN files f ON f.id = c.id WHERE f.refs IS NULL OR instr(f.refs, ?) > 0',
    )
    .all<{ id: number; rootId: number; path: string; refs: string | null; symbols: string }>(match, maxFiles, `\n${name}\t`);
  const files: FileUses[] = [];
  let unknown = 0;
  for (const row of rows) {
    if (row.refs === null) {
      unknown++;
      continue;
    }
    const stored = usesIn(row.refs, name);
    if (stored.length === 0) continue;
    let symbols: SymbolDef[] | undefined;
    const uses = stored.map((u): UseHit => {
      if (u.in === undefined) return { line: u.line, kind: u.kind };
      symbols ??= JSON.parse(row.symbols) as SymbolDef[];
      const within = symbols[u.in]?.name;
      return within === undefined ? { line: u.line, kind: u.kind } : { line: u.line, kind: u.kind, in: within };
    });
    files.push({ fileId: row.id, rootId: row.rootId, path: row.path, uses });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.rootId - b.rootId));
  return { files, scanned: Math.min(candidates, maxFiles), truncated, unknown };
}

/**
 * Defined names that look like `name` (the same letters in another case, a prefix, or the
 * name inside a longer one), for an answer that found nothing: at most `limit`, shortest first.
 */
export function nearestNames(db: Database, name: string, limit = 5): string[] {
  const term = name.replace(/[^\p{L}\p{N}_]+/gu, '');
  if (term.length === 0) return [];
  const rows = db
    .prepare('SELECT f.symbols FROM fts JOIN files f ON f.id = fts.rowid WHERE fts MATCH ? LIMIT 50')
    .all<{ symbols: string }>(`symbols : ${quote(term.slice(0, Math.max(3, Math.min(term.length, 6))))}*`);
  const lowered = term.toLowerCase();
  const seen = new Set<string>();
  for (const row of rows) for (const s of JSON.parse(row.symbols) as SymbolDef[]) if (s.name.toLowerCase().includes(lowered.slice(0, 3))) seen.add(s.name);
  seen.delete(name);
  return [...seen]
    .sort((a, b) => distance(a.toLowerCase(), lowered) - distance(b.toLowerCase(), lowered) || a.length - b.length || (a < b ? -1 : 1))
    .slice(0, limit);
}

/** Levenshtein distance, bounded to short names (identifiers). */
function distance(a: string, b: string): number {
  if (a.length > 64 || b.length > 64) return Math.abs(a.length - b.length) + 64;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}
