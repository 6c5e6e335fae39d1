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
 *   messages files holding runs of words the text quotes from a program's output, word for
 *            word (a phrase query on the full-text index): the code that prints a message
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
  const wanted = new Set(usable);
  for (const row of rows) {
    const defs = JSON.parse(row.symbols) as SymbolDef[];
    const interfaces = new Set(defs.filter((d) => d.kind === 'interface').map((d) => d.name));
    // A name counts fully where the file implements it, by DECLARED_NAME_SHARE where it only
    // declares it in an interface (a PHP or Java interface declares every method its classes hold).
    const weight = new Map<string, number>();
    for (const d of defs) {
      const n = d.name.toLowerCase();
      if (!wanted.has(n)) continue;
      const w = d.parent !== undefined && interfaces.has(d.parent) ? W.DECLARED_NAME_SHARE : 1;
      weight.set(n, Math.max(weight.get(n) ?? 0, w));
    }
    if (weight.size === 0) continue;
    const held = [...weight.keys()].sort((a, b) => idf.get(b)! - idf.get(a)!);
    // Many definitions make a name likelier by chance: a file's score is damped by the log of its size in definitions.
    const damp = 1 + W.DEFINES_SIZE_DAMPING * Math.log(1 + defs.length / W.DEFINES_TYPICAL_FILE_DEFS);
    hits.push({ id: row.id, score: held.reduce((s, n) => s + idf.get(n)! * weight.get(n)!, 0) / damp, names: held });
  }
  return hits.sort((a, b) => b.score - a.score || a.id - b.id);
}

/** A part's words as a full-text query: its rarest MAX_FTS_TERMS the index holds, stop words and common words out; '' for none. */
export function partMatch(part: string, df: ReadonlyMap<string, number>, total: number): string {
  // Words in more than COMMON_TERM_SHARE of the files make bm25 score nearly every file (as in the text list).
  const common = Math.max(W.COMMON_TERM_MIN_FILES, W.COMMON_TERM_SHARE * total);
  const held = [...new Set(splitWords(part))].filter((w) => !STOP_WORDS.has(w) && w.length > 2 && (df.get(w) ?? 0) > 0);
  const rare = held.filter((w) => df.get(w)! <= common);
  const words = rare.length > 0 ? rare : held;
  return words.sort((a, b) => df.get(a)! - df.get(b)!).slice(0, W.MAX_FTS_TERMS).map(quote).join(' OR ');
}

/** Files by the bm25 of a part's full-text query (partMatch of the title), best first. */
export function wordHits(db: Database, match: string): number[] {
  if (match === '') return [];
  return db
    .prepare(`SELECT rowid AS id FROM fts WHERE fts MATCH ? AND rank MATCH 'bm25(${W.FTS_PATH_WEIGHT}, ${W.FTS_SYMBOLS_WEIGHT}, ${W.FTS_CONTENT_WEIGHT})' ORDER BY rank LIMIT ?`)
    .all<{ id: number }>(match, W.TITLE_CANDIDATE_FILES)
    .map((r) => r.id);
}

/** Consecutive words of a message searched as one phrase, and the step between two windows. */
const PHRASE_WORDS = 4;
const PHRASE_STEP = 2;

/**
 * Files holding a phrase of the quoted messages word for word, scored by the sum over the
 * distinct phrases each holds of 1 / (files holding it): a phrase found in one file points to
 * it, one found in fifty to none. At most MESSAGE_PHRASES phrase queries.
 */
export function messageHits(db: Database, messages: readonly string[]): { id: number; score: number }[] {
  const phrases = new Set<string>();
  for (const m of messages) {
    const tokens = (m.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).filter((t) => /\p{L}/u.test(t));
    if (tokens.length < PHRASE_WORDS) continue;
    for (let i = 0; i + PHRASE_WORDS <= tokens.length; i += PHRASE_STEP) phrases.add(tokens.slice(i, i + PHRASE_WORDS).join(' '));
    if ((tokens.length - PHRASE_WORDS) % PHRASE_STEP !== 0) phrases.add(tokens.slice(-PHRASE_WORDS).join(' '));
  }
  const query = db.prepare('SELECT rowid AS id FROM fts WHERE fts MATCH ? LIMIT ?');
  const scores = new Map<number, number>();
  for (const p of [...phrases].slice(0, W.MESSAGE_PHRASES)) {
    const ids = query.all<{ id: number }>(`content : ${quote(p)}`, W.MESSAGE_PHRASE_MAX_FILES + 1).map((r) => r.id);
    if (ids.length === 0 || ids.length > W.MESSAGE_PHRASE_MAX_FILES) continue;
    for (const id of ids) scores.set(id, (scores.get(id) ?? 0) + 1 / ids.length);
  }
  return [...scores.entries()].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || a.id - b.id);
}
