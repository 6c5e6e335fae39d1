/**
 * Recall over the code map: symbol definitions first, then full-text hits.
 *
 * Scores are comparable across the two: a symbol hit scores ≥ 1 (3 exact name, 2 prefix,
 * +0.1 when exported), a text hit scores in (0, 1) from FTS5's bm25. So symbols always rank
 * before plain text, and within each group the better match comes first.
 *
 * Names are found through the full-text index's `symbols` column (case-folded tokens), then
 * confirmed against the file row's definitions. The index is contentless, so a text hit's
 * line is read from the file itself (a bounded read of a few returned files, never a walk).
 */
import { closeSync, constants, openSync, readSync } from 'node:fs';
import { joinFsPath } from '../paths/path-bytes.js';
import type { Database } from './sqlite-adapter.js';
import type { SymbolDef } from '../ingest/extract/types.js';
import { isSecretFile, redactTokens } from '../ingest/index.js';

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

/** Most files whose definitions are checked per query (3 per requested hit, up to this). */
const SYMBOL_CANDIDATE_FILES = 200;
/** How much of a file is read to find a text hit's line, in bytes. */
const LINE_SCAN_BYTES = 256 * 1024;

export function seek(db: Database, query: string, options: SeekOptions = {}): SeekHit[] {
  const limit = options.limit ?? 20;
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
  const symbolSql = `SELECT f.id, f.root_id AS rootId, f.path, f.symbols FROM fts JOIN files f ON f.id = fts.rowid
                      WHERE fts MATCH ? ORDER BY bm25(fts, 0.0, 1.0, 0.0) LIMIT ?`;
  const candidateFiles = Math.min(SYMBOL_CANDIDATE_FILES, limit * 3);
  const collect = (rows: FileRow[], prefix: boolean) => {
    for (const row of rows) {
      for (const s of JSON.parse(row.symbols) as SymbolDef[]) {
        const name = s.name.toLowerCase();
        const exported = s.exported ? 0.1 : 0;
        if (lowered.includes(name)) add({ rootId: row.rootId, path: row.path, line: s.line, symbol: s.name, kind: s.kind, score: 3 + exported });
        else if (prefix && lowered.some((t) => name.startsWith(t))) add({ rootId: row.rootId, path: row.path, line: s.line, symbol: s.name, kind: s.kind, score: 2 + exported });
      }
    }
  };
  // Exact names first; the (wider) prefix search only when they do not fill the page.
  collect(db.prepare(symbolSql).all<FileRow>(`symbols : (${terms.map(quote).join(' OR ')})`, candidateFiles), false);
  if (hits.length < limit) {
    collect(db.prepare(symbolSql).all<FileRow>(`symbols : (${terms.map((t) => `${quote(t)}*`).join(' OR ')})`, candidateFiles), true);
  }
  hits.sort(byScore);
  hits.length = Math.min(hits.length, limit);
  // Symbols outrank text: when they fill the page, the text query could not change it.
  if (hits.length >= limit) return hits;

  const textSql = `SELECT f.root_id AS rootId, f.path, r.path AS root, bm25(fts, 4.0, 2.0, 1.0) AS rank
                     FROM fts JOIN files f ON f.id = fts.rowid JOIN roots r ON r.id = f.root_id
                    WHERE fts MATCH ? ORDER BY rank LIMIT ?`;
  type TextRow = { rootId: number; path: string; root: string; rank: number };
  let textRows = db.prepare(textSql).all<TextRow>(terms.map((t) => `${quote(t)}*`).join(' AND '), limit);
  if (textRows.length === 0 && terms.length > 1) {
    textRows = db.prepare(textSql).all<TextRow>(terms.map((t) => `${quote(t)}*`).join(' OR '), limit);
  }
  for (const r of textRows) {
    if (hits.length >= limit) break;
    const magnitude = Math.abs(r.rank);
    add({ rootId: r.rootId, path: r.path, line: lineOf(r.root, r.path, lowered), symbol: null, kind: null, score: magnitude / (1 + magnitude) });
  }
  return hits.sort(byScore);
}

/**
 * Identifier-like terms of the query; punctuation is a separator, but `$` is kept: it is part of
 * a JavaScript name (`$ZodType`, `$inject`), so a hit is confirmed against the name as written.
 * The full-text index's tokenizer drops `$` (it is not a token character), and FTS5 runs that
 * tokenizer on each quoted term too, so `"$ZodType"` matches the indexed token `zodtype`; a
 * term with nothing else than `$` would be an empty phrase and is no term.
 */
export function tokenize(query: string): string[] {
  return [...new Set(query.split(/[^\p{L}\p{N}_$]+/u).filter((t) => HAS_WORD_CHAR.test(t)))].slice(0, 16);
}

const HAS_WORD_CHAR = /[\p{L}\p{N}_]/u;

const quote = (term: string) => `"${term.replace(/"/g, '""')}"`;

function byScore(a: SeekHit, b: SeekHit): number {
  return b.score - a.score || a.path.localeCompare(b.path) || a.line - b.line;
}

/**
 * The first line of the file on disk that contains a term (1 when none, or unreadable). The
 * file is read as the index saw it (docs/secrets.md): a secret-bearing file is always line 1 and
 * tokens are redacted first, so a line number never tells where a secret word sits.
 */
export function lineOf(root: string, path: string, lowered: string[]): number {
  if (isSecretFile(path)) return 1;
  let text: string;
  try {
    const fd = openSync(joinFsPath(root, path), constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const buf = Buffer.allocUnsafe(LINE_SCAN_BYTES);
      text = redactTokens(buf.toString('utf8', 0, readSync(fd, buf, 0, LINE_SCAN_BYTES, 0))).toLowerCase();
    } finally {
      closeSync(fd);
    }
  } catch {
    return 1;
  }
  let best = -1;
  for (const t of lowered) {
    const at = text.indexOf(t);
    if (at >= 0 && (best < 0 || at < best)) best = at;
  }
  if (best < 0) return 1;
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < best; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
