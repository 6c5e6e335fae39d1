/**
 * Short lists from the code map for MCP completions and file outlines (src/mcp/): paths and
 * definition names that start with what a person has typed so far, and one file's row. Every
 * list is bounded by its caller's `limit` and ranked here: an exact-case prefix before a
 * case-folded one, then shorter (shallower) first, then alphabetical.
 */
import type { Database } from './sqlite-adapter.js';
import type { SymbolDef } from '../ingest/extract/types.js';

/** Files whose symbols are read for one list of names: a prefix of one letter must stay cheap. */
const NAME_SCAN_FILES = 400;

const rank = (prefix: string) => (a: string, b: string) =>
  Number(!b.startsWith(prefix)) - Number(!a.startsWith(prefix)) || a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/** Mapped root-relative paths starting with `prefix` (case-insensitive), ranked, at most `limit`; `total` counts them all up to the scan. */
export function pathsByPrefix(db: Database, prefix: string, limit: number): { values: string[]; total: number } {
  // `LIKE` is case-insensitive for ASCII; the escape keeps `%` and `_` in a path literal.
  const pattern = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = db
    .prepare("SELECT DISTINCT path FROM files WHERE path LIKE ? ESCAPE '\\' ORDER BY length(path), path LIMIT ?")
    .all<{ path: string }>(pattern, limit * 4);
  const values = rows.map((r) => r.path).sort(rank(prefix));
  return { values: values.slice(0, limit), total: values.length };
}

/** Definition names starting with `prefix` (case-insensitive), ranked, at most `limit`. An empty prefix lists the names of the files with most definitions. */
export function namesByPrefix(db: Database, prefix: string, limit: number): { values: string[]; total: number } {
  const term = prefix.replace(/[^\p{L}\p{N}_$]+/gu, '');
  if (term !== prefix) return { values: [], total: 0 };
  const ftsTerm = term.replace(/\$/g, '');
  const rows = ftsTerm === ''
    ? db.prepare('SELECT symbols FROM files ORDER BY symbol_count DESC LIMIT ?').all<{ symbols: string }>(NAME_SCAN_FILES / 8)
    : db
      .prepare('SELECT f.symbols FROM fts JOIN files f ON f.id = fts.rowid WHERE fts MATCH ? LIMIT ?')
      .all<{ symbols: string }>(`symbols : "${ftsTerm}"*`, NAME_SCAN_FILES);
  const lowered = term.toLowerCase();
  const names = new Set<string>();
  for (const row of rows) for (const s of JSON.parse(row.symbols) as SymbolDef[]) if (s.name.toLowerCase().startsWith(lowered)) names.add(s.name);
  const values = [...names].sort(rank(term));
  return { values: values.slice(0, limit), total: values.length };
}

/** One mapped file's language and line count, or null when the map does not hold it. */
export function mappedFile(db: Database, rootId: number, path: string): { language: string | null; lines: number; symbols: number } | null {
  const row = db.prepare('SELECT language, lines, symbol_count FROM files WHERE root_id = ? AND path = ?').get<{ language: string | null; lines: number; symbol_count: number }>(rootId, path);
  return row ? { language: row.language, lines: row.lines, symbols: row.symbol_count } : null;
}
