/**
 * The lists an issue's clues make (issue-clues.ts), each a ranking of mapped files fused in
 * rank-files.ts with the others:
 *
 *   paths    files whose path ends with a path the text names, the longest shared tail first
 *            (a bare file name counts only where few files carry it)
 *   defines  files that define names the text quotes, scored by the rarity of each name among
 *            definitions (idf over the files defining it): a file defining `QuerySet` and
 *            `filter` outranks one defining `filter` alone, and one defining `get` counts little
 *   title    the full-text bm25 of the title's words alone
 */
import type { Database } from '../store/index.js';
import type { SymbolDef } from '../ingest/extract/types.js';
import type { PathVocabulary } from './path-words.js';
import { splitWords } from './words.js';
import { STOP_WORDS } from './stop-words.js';
import * as W from './weights.js';

const quote = (term: string) => `"${term.replace(/"/g, '""')}"`;

export interface PathHit {
  id: number;
  /** Segments shared with the named path, counted from the end. */
  shared: number;
  /** The named path it matched. */
  clue: string;
}

const byBase = new WeakMap<PathVocabulary, Map<string, number[]>>();

/** Indexes into `vocab.files` by lower-cased file name. */
function filesByName(vocab: PathVocabulary): Map<string, number[]> {
  let m = byBase.get(vocab);
  if (m) return m;
  m = new Map();
  for (const [i, f] of vocab.files.entries()) {
    const base = f.path.slice(f.path.lastIndexOf('/') + 1).toLowerCase();
    let list = m.get(base);
    if (!list) m.set(base, (list = []));
    list.push(i);
  }
  byBase.set(vocab, m);
  return m;
}

/** Mapped files the named paths point to, best first (clue order breaks ties). */
export function pathClueHits(vocab: PathVocabulary, clues: readonly string[]): PathHit[] {
  const names = filesByName(vocab);
  const best = new Map<number, PathHit>();
  for (const clue of clues) {
    const segs = clue.toLowerCase().split('/').filter(Boolean);
    const holders = names.get(segs.at(-1) ?? '') ?? [];
    if (holders.length === 0) continue;
    const scored = holders.map((i) => {
      const own = vocab.files[i]!.path.toLowerCase().split('/');
      let shared = 0;
      while (shared < segs.length && shared < own.length && segs[segs.length - 1 - shared] === own[own.length - 1 - shared]) shared++;
      return { i, shared };
    });
    const top = Math.max(...scored.map((s) => s.shared));
    const winners = scored.filter((s) => s.shared === top);
    // A bare name shared by many files says little about which one.
    if (top === 1 && winners.length > W.PATH_CLUE_MAX_NAMESAKES) continue;
    for (const { i, shared } of winners) {
      const id = vocab.files[i]!.id;
      const was = best.get(id);
      if (!was || shared > was.shared) best.set(id, { id, shared, clue });
    }
  }
  return [...best.values()].sort((a, b) => b.shared - a.shared);
}

const preparedCol = new WeakSet<Database>();

/** How many files define each name (its folded token in the full-text index's symbols column). */
function definitionFrequencies(db: Database, names: readonly string[]): Map<string, number> {
  if (!preparedCol.has(db)) {
    db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.gardener_fts_vocab_col USING fts5vocab(main, 'fts', 'col')");
    preparedCol.add(db);
  }
  const one = db.prepare("SELECT doc FROM temp.gardener_fts_vocab_col WHERE term = ? AND col = 'symbols'");
  const out = new Map<string, number>();
  for (const n of names) out.set(n, one.get<{ doc: number }>(n)?.doc ?? 0);
  return out;
}

export interface DefineHit {
  id: number;
  score: number;
  /** The named definitions the file holds, rarest first. */
  names: string[];
}

/**
 * Files defining the quoted names, by the summed idf of the distinct names each defines. Names
 * no file defines, and names defined in more than DEFINES_COMMON_SHARE of the files, are left out.
 */
export function defineHits(db: Database, names: readonly string[], total: number): DefineHit[] {
  const folded = [...new Set(names.map((n) => n.toLowerCase()).filter((n) => /^[\p{L}\p{N}_]+$/u.test(n)))];
  if (folded.length === 0 || total === 0) return [];
  const df = definitionFrequencies(db, folded);
  const limit = Math.max(W.DEFINES_COMMON_MIN_FILES, W.DEFINES_COMMON_SHARE * total);
  const usable = folded.filter((n) => (df.get(n) ?? 0) > 0 && df.get(n)! <= limit);
  if (usable.length === 0) return [];
  const idf = new Map(usable.map((n) => [n, Math.log(1 + (total - df.get(n)! + 0.5) / (df.get(n)! + 0.5))]));
  const rows = db
    .prepare(`SELECT f.id, f.symbols FROM (SELECT rowid AS id, bm25(fts, 0.0, 1.0, 0.0) AS r FROM fts WHERE fts MATCH ? ORDER BY r LIMIT ?) AS hit JOIN files f ON f.id = hit.id`)
    .all<{ id: number; symbols: string }>(`symbols : (${usable.map(quote).join(' OR ')})`, W.DEFINES_CANDIDATE_FILES);
  const hits: DefineHit[] = [];
  for (const row of rows) {
    const defined = new Set((JSON.parse(row.symbols) as SymbolDef[]).map((d) => d.name.toLowerCase()));
    const held = usable.filter((n) => defined.has(n));
    if (held.length === 0) continue;
    held.sort((a, b) => idf.get(b)! - idf.get(a)!);
    hits.push({ id: row.id, score: held.reduce((s, n) => s + idf.get(n)!, 0), names: held });
  }
  return hits.sort((a, b) => b.score - a.score || a.id - b.id);
}

/** Files by the bm25 of the title's words (rarest MAX_FTS_TERMS, stop words out), best first. */
export function titleHits(db: Database, title: string, df: ReadonlyMap<string, number>): number[] {
  const words = [...new Set(splitWords(title))].filter((w) => !STOP_WORDS.has(w) && w.length > 2 && (df.get(w) ?? 0) > 0);
  if (words.length === 0) return [];
  const terms = words.sort((a, b) => df.get(a)! - df.get(b)!).slice(0, W.MAX_FTS_TERMS);
  return db
    .prepare(`SELECT rowid AS id FROM fts WHERE fts MATCH ? AND rank MATCH 'bm25(${W.FTS_PATH_WEIGHT}, ${W.FTS_SYMBOLS_WEIGHT}, ${W.FTS_CONTENT_WEIGHT})' ORDER BY rank LIMIT ?`)
    .all<{ id: number }>(terms.map(quote).join(' OR '), W.TITLE_CANDIDATE_FILES)
    .map((r) => r.id);
}
