/**
 * `seek` for a name or two (`parseConfig`, `parse config`): definitions first, then full-text hits.
 *
 * Scores are comparable across the two groups: a definition hit scores ≥ 1 (EXACT_NAME_SCORE for
 * the exact name, PREFIX_NAME_SCORE for a prefix, + EXPORTED_NAME_BONUS when exported), a text hit
 * scores in (0, 1) from FTS5's bm25 (|bm25| / (1 + |bm25|)). So definitions always rank before
 * plain text, and within each group the better match comes first.
 *
 * Names are found through the full-text index's `symbols` column (case-folded tokens), then
 * confirmed against the file row's definitions. A text hit's line is read from the file
 * (lineOf: a bounded read of a few returned files, never a walk).
 *
 * Both full-text queries rank in the index alone and join the file rows of the page they keep:
 * joined before the sort, every matching row's file row (and its definitions' JSON, ~2 KB) was
 * read and carried through the sort. A common word matches most of a brain, so on the bench's
 * 5000-file brain that was most of the cost of seek's slowest queries: `customer` (4137
 * matching files) took 12.0 ms for the text query and 2.9 ms ranked first; the prefix
 * definitions query of `cache schedules` 13.6 and 8.9 (a loaded machine, one sitting). The
 * answer is the same: the same rows reach the same sort in the same order.
 */
import { lineOf, quoteTerm, tokenize, type Database } from '../store/index.js';
import type { SymbolDef } from '../ingest/extract/types.js';
import type { SeekHit } from './seek.js';
import * as W from './weights.js';

export function seekNames(db: Database, query: string, limit: number): SeekHit[] {
  const terms = tokenize(query);
  if (terms.length === 0) return [];
  const lowered = terms.map((t) => t.toLowerCase());
  const hits: SeekHit[] = [];
  const seen = new Set<string>();
  const add = (h: SeekHit) => {
    const key = `${h.rootId}\0${h.path}\0${h.line}\0${h.symbol ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    hits.push(h);
  };

  type FileRow = { id: number; rootId: number; path: string; symbols: string };
  const symbolSql = `SELECT f.id, f.root_id AS rootId, f.path, f.symbols
                       FROM (SELECT rowid AS id, bm25(fts, 0.0, 1.0, 0.0) AS rank FROM fts WHERE fts MATCH ? ORDER BY rank LIMIT ?) AS hit
                       JOIN files f ON f.id = hit.id ORDER BY hit.rank`;
  const candidateFiles = Math.min(W.NAME_CANDIDATE_FILES, limit * W.NAME_CANDIDATES_PER_HIT);
  // A file found by both searches has its definitions parsed once.
  const parsed = new Map<number, SymbolDef[]>();
  const collect = (rows: FileRow[], prefix: boolean) => {
    for (const row of rows) {
      let defs = parsed.get(row.id);
      if (defs === undefined) parsed.set(row.id, (defs = JSON.parse(row.symbols) as SymbolDef[]));
      for (const s of defs) {
        const name = s.name.toLowerCase();
        const score = lowered.includes(name) ? W.EXACT_NAME_SCORE : prefix && lowered.some((t) => name.startsWith(t)) ? W.PREFIX_NAME_SCORE : undefined;
        if (score === undefined) continue;
        add({ rootId: row.rootId, path: row.path, line: s.line, symbol: s.name, kind: s.kind, score: score + (s.exported ? W.EXPORTED_NAME_BONUS : 0) });
      }
    }
  };
  // Exact names first; the (wider) prefix search only when they do not fill the page.
  collect(db.prepare(symbolSql).all<FileRow>(`symbols : (${terms.map(quoteTerm).join(' OR ')})`, candidateFiles), false);
  if (hits.length < limit) {
    collect(db.prepare(symbolSql).all<FileRow>(`symbols : (${terms.map((t) => `${quoteTerm(t)}*`).join(' OR ')})`, candidateFiles), true);
  }
  hits.sort(byScore);
  hits.length = Math.min(hits.length, limit);
  // Definitions outrank text: when they fill the page, the text query could not change it.
  if (hits.length >= limit) return hits;

  const textSql = `SELECT f.root_id AS rootId, f.path, r.path AS root, hit.rank
                     FROM (SELECT rowid AS id, bm25(fts, ${W.FTS_PATH_WEIGHT}, ${W.FTS_SYMBOLS_WEIGHT}, ${W.FTS_CONTENT_WEIGHT}) AS rank
                             FROM fts WHERE fts MATCH ? ORDER BY rank LIMIT ?) AS hit
                     JOIN files f ON f.id = hit.id JOIN roots r ON r.id = f.root_id ORDER BY hit.rank`;
  type TextRow = { rootId: number; path: string; root: string; rank: number };
  let textRows = db.prepare(textSql).all<TextRow>(terms.map((t) => `${quoteTerm(t)}*`).join(' AND '), limit);
  if (textRows.length === 0 && terms.length > 1) {
    textRows = db.prepare(textSql).all<TextRow>(terms.map((t) => `${quoteTerm(t)}*`).join(' OR '), limit);
  }
  for (const r of textRows) {
    if (hits.length >= limit) break;
    const magnitude = Math.abs(r.rank);
    add({ rootId: r.rootId, path: r.path, line: lineOf(r.root, r.path, lowered), symbol: null, kind: null, score: magnitude / (1 + magnitude) });
  }
  return hits.sort(byScore);
}

function byScore(a: SeekHit, b: SeekHit): number {
  return b.score - a.score || a.path.localeCompare(b.path) || a.line - b.line;
}
