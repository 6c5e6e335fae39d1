/**
 * Recall over the code map: symbol definitions first, then full-text hits.
 *
 * Scores are comparable across the two: a symbol hit scores ≥ 1 (3 exact, 2 prefix, plus a
 * little for exported definitions), a text hit scores in (0, 1) from FTS5's bm25. So symbols
 * always rank before plain text, and within each group the better match comes first.
 */
import type { Database } from './sqlite-adapter.js';

export interface SeekOptions {
  /** Most hits to return. @default 20 */
  limit?: number;
}

export interface SeekHit {
  rootId: number;
  path: string;
  line: number;
  /** The defined symbol for a symbol hit; null for a text hit. */
  symbol: string | null;
  kind: string | null;
  score: number;
}

/** Longest content we scan to find a text hit's line, in characters. */
const LINE_SCAN_CHARS = 1 << 20;

export function seek(db: Database, query: string, options: SeekOptions = {}): SeekHit[] {
  const limit = options.limit ?? 20;
  const terms = tokenize(query);
  if (terms.length === 0) return [];
  const hits: SeekHit[] = [];
  const seen = new Set<string>();
  const add = (h: SeekHit) => {
    const key = `${h.rootId}\0${h.path}\0${h.line}\0${h.symbol ?? ''}`;
    if (seen.has(key) || hits.length >= limit * 4) return;
    seen.add(key);
    hits.push(h);
  };
  const symbolSql = `SELECT f.root_id AS rootId, f.path, s.line, s.name, s.kind, s.exported
                       FROM symbols s JOIN files f ON f.id = s.file_id
                      WHERE %WHERE% ORDER BY s.exported DESC, f.path LIMIT ?`;
  // Both forms use the NOCASE index on symbols.name; LIKE would scan.
  const exactSql = symbolSql.replace('%WHERE%', 's.name = ? COLLATE NOCASE');
  const prefixSql = symbolSql.replace('%WHERE%', 's.name > ? COLLATE NOCASE AND s.name < ? COLLATE NOCASE');
  type SymRow = { rootId: number; path: string; line: number; name: string; kind: string; exported: number };
  for (const term of terms) {
    for (const r of db.prepare(exactSql).all<SymRow>(term, limit)) {
      add({ rootId: r.rootId, path: r.path, line: r.line, symbol: r.name, kind: r.kind, score: 3 + r.exported * 0.1 });
    }
    for (const r of db.prepare(prefixSql).all<SymRow>(term, `${term}\u{10FFFF}`, limit)) {
      add({ rootId: r.rootId, path: r.path, line: r.line, symbol: r.name, kind: r.kind, score: 2 + r.exported * 0.1 });
    }
  }
  const match = terms.map((t) => `"${t.replace(/"/g, '""')}"*`).join(' ');
  const textRows = db
    .prepare(
      `SELECT f.root_id AS rootId, f.path, bm25(fts, 4.0, 2.0, 1.0) AS rank, fts.content AS content
         FROM fts JOIN files f ON f.id = fts.rowid
        WHERE fts MATCH ? ORDER BY rank LIMIT ?`,
    )
    .all<{ rootId: number; path: string; rank: number; content: string }>(match, limit);
  for (const r of textRows) {
    const magnitude = Math.abs(r.rank);
    add({
      rootId: r.rootId,
      path: r.path,
      line: firstLineWith(r.content, terms),
      symbol: null,
      kind: null,
      score: magnitude / (1 + magnitude),
    });
  }
  hits.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path) || a.line - b.line);
  return hits.slice(0, limit);
}

/** Identifier-like terms of the query; punctuation is a separator. */
export function tokenize(query: string): string[] {
  return [...new Set(query.split(/[^\p{L}\p{N}_]+/u).filter(Boolean))].slice(0, 16);
}

function firstLineWith(content: string, terms: string[]): number {
  const text = content.length > LINE_SCAN_CHARS ? content.slice(0, LINE_SCAN_CHARS) : content;
  const lower = text.toLowerCase();
  let best = -1;
  for (const t of terms) {
    const at = lower.indexOf(t.toLowerCase());
    if (at >= 0 && (best < 0 || at < best)) best = at;
  }
  if (best < 0) return 1;
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < best; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
