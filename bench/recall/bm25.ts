/**
 * The recall eval's baseline: plain BM25 over whole files (path + content, identifiers split),
 * k1 = 1.2, b = 0.75, the Lucene idf `ln(1 + (N - df + 0.5) / (df + 0.5))` (never negative).
 * Our own ~50 lines rather than a library: the baseline is exactly this formula, and a
 * test checks it against scores computed by hand (test/recall-bm25.test.ts).
 *
 * Documents are term-count maps, built once per file version (the eval keys them by content
 * hash, so a file unchanged between two parent commits is not tokenized twice). Scoring walks
 * every document once per query term: a few thousand files × a few dozen terms, no postings.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { identifierWords } from './identifier-words.js';

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

export interface Bm25Doc {
  id: string;
  /** Term → occurrences in the document. */
  terms: Map<string, number>;
  /** Words in the document. */
  length: number;
}

/** A document from its path and text: every identifier-split word of both. */
export function bm25Doc(id: string, path: string, text: string): Bm25Doc {
  const terms = new Map<string, number>();
  let length = 0;
  for (const source of [path, text]) {
    for (const w of identifierWords(source)) {
      terms.set(w, (terms.get(w) ?? 0) + 1);
      length++;
    }
  }
  return { id, terms, length };
}

/** Document ids by descending BM25 score for `query` (distinct query words); zero scores left out. */
export function rankBm25(docs: readonly Bm25Doc[], query: string, limit = Infinity): { id: string; score: number }[] {
  const words = [...new Set(identifierWords(query))];
  if (docs.length === 0 || words.length === 0) return [];
  const n = docs.length;
  const avgdl = docs.reduce((s, d) => s + d.length, 0) / n || 1;
  const scores = new Float64Array(n);
  for (const w of words) {
    let df = 0;
    for (const d of docs) if (d.terms.has(w)) df++;
    if (df === 0) continue;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    for (let i = 0; i < n; i++) {
      const tf = docs[i]!.terms.get(w);
      if (tf === undefined) continue;
      scores[i]! += (idf * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * docs[i]!.length) / avgdl));
    }
  }
  const ranked: { id: string; score: number }[] = [];
  for (let i = 0; i < n; i++) if (scores[i]! > 0) ranked.push({ id: docs[i]!.id, score: scores[i]! });
  ranked.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  return ranked.length > limit ? ranked.slice(0, limit) : ranked;
}

/**
 * The documents of a brain's mapped files (`rows` of its files table), read from the work tree
 * `dir`, each made once per version: `cache` keys them by path and content hash, so a file
 * unchanged between two checked-out commits is not read and split again. A file the map holds
 * without its text (or that is gone) counts by its path words only.
 */
export function corpusOf(rows: readonly { path: string; hash: string; indexed: number }[], dir: string, cache: Map<string, Bm25Doc>): Bm25Doc[] {
  return rows.map((r) => {
    const key = `${r.path}\0${r.hash}`;
    let d = cache.get(key);
    if (!d) {
      let text = '';
      if (r.indexed) try { text = readFileSync(join(dir, r.path), 'utf8'); } catch { /* gone or unreadable: path words only */ }
      cache.set(key, (d = bm25Doc(r.path, r.path, text)));
    }
    return d;
  });
}
