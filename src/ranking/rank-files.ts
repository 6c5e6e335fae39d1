/**
 * File-level ranking for a task: which files is this text about? One score per file, so a file
 * with many definitions cannot crowd out the one the task names (issue 7).
 *
 * Ranked lists over the same candidates, fused by reciprocal rank (each list counts by the
 * position of a file in it, not by its raw score, so no list's scale can drown another):
 *   text     FTS5 bm25 over path, symbol names and content, an OR of the task's rarest words
 *            and their forms (IDF-weighted by bm25 itself; stop words dropped)
 *   path     the IDF of the task's words among the file's path words (split identifiers), IDF
 *            counted over paths; path words also bring candidates the text query cannot see
 *   symbols  the IDF of the task's words among the words of its definitions' names, each word
 *            counted once per file however many definitions carry it
 *   named    bm25 over the compound identifiers the task names (`parseConfig`)
 *   notes    files named by notes that match the task
 *   imports  files the best few import by a relative specifier (a change spans both)
 *   history  recency and churn, co-change with the best few, past commit messages
 *            (history-lists.ts; only for a brain with git history)
 * then a prior lowers generated copies, tests and docs (a change is rarely made there). Every
 * weight is in weights.ts with the eval run that chose it.
 */
import type { Database } from '../store/index.js';
import type { SymbolDef } from '../ingest/extract/types.js';
import type { RankQuery } from './query.js';
import { documentFrequencies, wordForms } from './vocabulary.js';
import { pathClass, pathPrior, type PathClass } from './path-prior.js';
import { pathVocabulary, stemOf, type PathVocabulary } from './path-words.js';
import { posix } from 'node:path';
import type { ImportRef } from '../ingest/extract/types.js';
import { sameWord, wordsOfName } from './words.js';
import * as W from './weights.js';
import { addHistoryLists, hasHistory } from './history-lists.js';
import { defineHits, messageHits, partMatch, pathClueHits, wordHits } from './clue-lists.js';
import { splitWords } from './words.js';
import { STOP_WORDS } from './stop-words.js';

export interface RankedFile {
  rootId: number;
  path: string;
  /** Fused score (higher is better); comparable within one answer only. */
  score: number;
  /** Definitions whose name words match the task, most matching words first. */
  matched: SymbolDef[];
  /** Every definition of the file, as stored. */
  defs: SymbolDef[];
  /** The issue clues it matched, when the text read as an issue and it matched any. */
  clues?: FileClues;
}

export interface RankOptions {
  /** Most files returned. */
  limit: number;
  /** Root-relative paths named by notes that match the task. */
  noteFiles?: readonly string[];
  /**
   * When given, each fused list is handed here as it is added (its name, weight, the paths in
   * order and their ranks), and each candidate's path class at the end: what the issue eval
   * learns list weights from (evals/issues/), never read by the tools.
   */
  explain?: RankExplain;
}

export interface RankExplain {
  lists: { name: string; weight: number; paths: string[]; ranks: number[] }[];
  /** Each candidate's path class (path-prior.ts), whose factor multiplies its fused score. */
  classes: Map<string, PathClass>;
}

/** Why a file ranked, for the answer: the clues of an issue it matched. */
export interface FileClues {
  /** The path the text named that this file's path ends with. */
  path?: string;
  /** Quoted names this file defines, rarest first. */
  defines?: string[];
  /** It holds, word for word, a message the text quotes. */
  message?: true;
}

const quote = (term: string) => `"${term.replace(/"/g, '""')}"`;

/**
 * The full-text query: an OR of the task's rarest words (with their other forms in the index,
 * or prefix-matched when FTS_WORD_FORMS is off), at most
 * MAX_FTS_TERMS, leaving out words held by more than COMMON_TERM_SHARE of the files (their
 * idf is near zero, and each one makes bm25 score nearly every file). The path and symbol lists
 * still read every word; the compound identifiers the task names have a query of their own.
 */
export function ftsMatchOf(query: RankQuery, df: ReadonlyMap<string, number> = new Map(), total = 0, forms?: ReadonlyMap<string, string[]>): string {
  const words = rarest(query.words, df, total);
  const terms = [
    ...words.flatMap((w) => {
      const prefix = w.length >= W.PREFIX_MIN_CHARS ? `${quote(w)}*` : quote(w);
      // A word the index lacks as such may still start one (completion → completions_zsh): ask by prefix.
      if (!forms || (total > 0 && (df.get(w) ?? 0) === 0)) return [prefix];
      return (forms.get(w) ?? [w]).map(quote);
    }),
  ];
  return terms.join(' OR ');
}

/** The rarest terms, at most MAX_FTS_TERMS, without common ones unless nothing else is left. */
function rarest(terms: readonly string[], df: ReadonlyMap<string, number>, total: number): string[] {
  const common = (w: string) => (df.get(w) ?? 0) > Math.max(W.COMMON_TERM_MIN_FILES, W.COMMON_TERM_SHARE * total);
  const rare = terms.filter((w) => !common(w));
  return (rare.length > 0 ? rare : terms)
    .map((w, i) => ({ w, i, n: df.get(w) ?? 0 }))
    .sort((a, b) => a.n - b.n || a.i - b.i)
    .slice(0, W.MAX_FTS_TERMS)
    .map(({ w }) => w);
}

interface Candidate {
  id: number;
  rootId: number;
  path: string;
  defs: SymbolDef[];
  textRank: number;
  pathScore: number;
  symbolScore: number;
  matched: SymbolDef[];
  noteRank: number;
  namedRank: number;
  clues?: FileClues;
}

export function rankFiles(db: Database, query: RankQuery, options: RankOptions): RankedFile[] {
  if (query.words.length + query.compounds.length === 0) return [];
  // (A text of compounds only has no words: its candidates come from the named query.)
  const titleWords = query.clues ? splitWords(query.clues.title).filter((w) => !STOP_WORDS.has(w)) : [];
  const { total, df } = documentFrequencies(db, [...new Set([...query.words, ...query.compounds, ...titleWords])]);
  // The title's full-text query, asked of the code (the title list) and of past commit messages.
  const titleMatch = query.clues ? partMatch(query.clues.title, df, total) : '';
  const match = ftsMatchOf(query, df, total, W.FTS_WORD_FORMS ? wordForms(query.words, W.PREFIX_MIN_CHARS) : undefined);
  const idf = (w: string) => idfOf(df.get(w) ?? 1, total);
  const paths = pathVocabulary(db);
  // Path words: their weight counts the paths that hold them (prefix matches too: test → tests),
  // and the files they name are candidates whatever the full-text index saw.
  const holders = pathHolders(paths, [...query.words, ...titleWords]);
  const pathScores = pathScoresOf(paths, holders, query.words);
  const byPathScore = [...pathScores.entries()].sort((a, b) => b[1] - a[1]).slice(0, W.PATH_CANDIDATE_FILES);
  const rows = match === '' ? [] : db
    .prepare(`SELECT rowid AS id FROM fts WHERE fts MATCH ? AND rank MATCH 'bm25(${W.FTS_PATH_WEIGHT}, ${W.FTS_SYMBOLS_WEIGHT}, ${W.FTS_CONTENT_WEIGHT})' ORDER BY rank LIMIT ?`)
    .all<{ id: number }>(match, W.CANDIDATE_FILES);
  // The identifiers the task names (`parseConfig`, `io.ReadAll`) are a list of their own:
  // among thirty words of prose, bm25 would let them count as one word each.
  const named = query.compounds.length === 0 ? [] : db
    .prepare(`SELECT rowid AS id FROM fts WHERE fts MATCH ? AND rank MATCH 'bm25(${W.FTS_PATH_WEIGHT}, ${W.FTS_SYMBOLS_WEIGHT}, ${W.FTS_CONTENT_WEIGHT})' ORDER BY rank LIMIT ?`)
    .all<{ id: number }>(rarest(indexedOrAll(query.compounds, df), df, total).map(quote).join(' OR '), W.NAMED_CANDIDATE_FILES);
  const namedRank = new Map(named.map((r, i) => [r.id, i]));
  const ids = [...rows.map((r) => r.id)];
  const inText = new Set(ids);
  for (const { id } of named) if (!inText.has(id)) (ids.push(id), inText.add(id));
  for (const [i] of byPathScore) if (!inText.has(paths.files[i]!.id)) ids.push(paths.files[i]!.id);
  const fileRow = db.prepare('SELECT root_id AS rootId, path, symbols FROM files WHERE id = ?');
  const candidates: Candidate[] = [];
  const byPath = new Map<string, Candidate>();
  const compounds = new Set(query.compounds);
  // A name can only match a word if it holds the word's first PREFIX_MIN_CHARS letters: a cheap
  // test that spares splitting most names (sameWord's prefix rule implies it).
  const stems = query.words.map((w) => w.slice(0, W.PREFIX_MIN_CHARS));
  for (const [order, id] of ids.entries()) {
    const textRank = order < rows.length ? order : Infinity;
    const f = fileRow.get<{ rootId: number; path: string; symbols: string }>(id);
    if (!f) continue;
    const defs = JSON.parse(f.symbols) as SymbolDef[];
    const at = paths.byId.get(id);
    const c: Candidate = { id, rootId: f.rootId, path: f.path, defs, textRank, pathScore: at === undefined ? 0 : pathScores.get(at) ?? 0, symbolScore: 0, matched: [], noteRank: -1, namedRank: namedRank.get(id) ?? -1 };
    const inSymbols = new Set<string>();
    const hits: { def: SymbolDef; n: number }[] = [];
    for (const def of defs) {
      const lower = def.name.toLowerCase();
      let n = compounds.has(lower) ? query.words.length : 0;
      if (n === 0 && !stems.some((st) => lower.includes(st))) continue;
      const nameWords = wordsOfName(def.name);
      for (const w of query.words) {
        if (nameWords.some((nw) => sameWord(nw, w, W.PREFIX_MIN_CHARS))) {
          n++;
          inSymbols.add(w);
        }
      }
      if (n > 0) hits.push({ def, n });
    }
    for (const w of query.words) {
      if (inSymbols.has(w)) c.symbolScore += idf(w);
    }
    c.matched = hits.sort((a, b) => b.n - a.n || a.def.line - b.def.line).map((h) => h.def);
    candidates.push(c);
    byPath.set(f.path, c);
  }
  for (const [i, p] of (options.noteFiles ?? []).entries()) {
    const c = byPath.get(p);
    if (c && c.noteRank < 0) c.noteRank = i;
  }

  const fused = new Map<Candidate, number>();
  // `ranks` (optional) gives tied entries one rank: a list that cannot tell them apart must not order them by name.
  const addList = (list: Candidate[], weight: number, ranks: readonly number[] | undefined, name: string) => {
    options.explain?.lists.push({ name, weight, paths: list.map((c) => c.path), ranks: list.map((_, i) => ranks?.[i] ?? i) });
    for (const [i, c] of list.entries()) fused.set(c, (fused.get(c) ?? 0) + weight / (W.RRF_K + (ranks?.[i] ?? i) + 1));
  };
  const byId = new Map(candidates.map((c) => [c.id, c]));
  /** The candidate for a file id, made (and added) when the file is not one yet. */
  const candidateOf = (id: number): Candidate | undefined => {
    let c = byId.get(id);
    if (c) return c;
    const f = fileRow.get<{ rootId: number; path: string; symbols: string }>(id);
    if (!f) return undefined;
    c = { id, rootId: f.rootId, path: f.path, defs: JSON.parse(f.symbols) as SymbolDef[], textRank: Infinity, pathScore: 0, symbolScore: 0, matched: [], noteRank: -1, namedRank: -1 };
    byId.set(id, c);
    candidates.push(c);
    return c;
  };
  const byText = (a: Candidate, b: Candidate) => (a.textRank === b.textRank ? a.path.localeCompare(b.path) : a.textRank < b.textRank ? -1 : 1);
  // A small brain without history: the full text is the one list that sees a large file's logic (issue 18).
  const smallWithoutHistory = total <= W.SMALL_BRAIN_FILES && !hasHistory(db);
  addList(candidates.filter((c) => c.textRank !== Infinity), smallWithoutHistory ? W.SMALL_BRAIN_TEXT_LIST_WEIGHT : W.TEXT_LIST_WEIGHT, undefined, 'text');
  addList(candidates.filter((c) => c.pathScore > 0).sort((a, b) => b.pathScore - a.pathScore || byText(a, b)), W.PATH_LIST_WEIGHT, undefined, 'path');
  addList(candidates.filter((c) => c.symbolScore > 0).sort((a, b) => b.symbolScore - a.symbolScore || byText(a, b)), W.SYMBOL_LIST_WEIGHT, undefined, 'symbols');
  addList(candidates.filter((c) => c.namedRank >= 0).sort((a, b) => a.namedRank - b.namedRank), W.NAMED_LIST_WEIGHT, undefined, 'named');
  addList(candidates.filter((c) => c.noteRank >= 0).sort((a, b) => a.noteRank - b.noteRank), W.NOTE_LIST_WEIGHT, undefined, 'notes');
  if (query.clues) addClueLists(db, query.clues, paths, pathScoresOf(paths, holders, titleWords), titleMatch, total, candidateOf, addList);

  // Files the best few import (relative imports only): a change often spans a file and what it uses.
  if (W.NEIGHBOUR_LIST_WEIGHT > 0) {
    const head = candidates
      .map((c) => ({ c, score: (fused.get(c) ?? 0) * pathPrior(c.path) }))
      .sort((a, b) => b.score - a.score || byText(a.c, b.c))
      .slice(0, W.NEIGHBOUR_SOURCES);
    const neighbours: Candidate[] = [];
    for (const { c } of head) {
      for (const id of importedFiles(db, paths, c)) {
        const n = candidateOf(id);
        if (!n) continue;
        if (n !== c && !neighbours.includes(n)) neighbours.push(n);
      }
    }
    addList(neighbours, W.NEIGHBOUR_LIST_WEIGHT, undefined, 'neighbours');
  }

  // History lists (history-lists.ts): a brain without git history skips them.
  const byPathKey = new Map(candidates.map((c) => [`${c.rootId}\0${c.path}`, c]));
  const fileAt = db.prepare('SELECT id FROM files WHERE root_id = ? AND path = ?');
  addHistoryLists<Candidate>({
    db,
    match,
    ...(query.clues ? { titleMatch } : {}),
    candidates: [...candidates],
    headOf: (n) => candidates
      .map((c) => ({ c, score: (fused.get(c) ?? 0) * pathPrior(c.path) }))
      .sort((a, b) => b.score - a.score || byText(a.c, b.c))
      .slice(0, n)
      .map(({ c }) => c),
    candidateAt: (rootId, path) => {
      const key = `${rootId}\0${path}`;
      let c = byPathKey.get(key);
      if (c) return c;
      const f = fileAt.get<{ id: number }>(rootId, path);
      c = f ? candidateOf(f.id) : undefined;
      if (c) byPathKey.set(key, c);
      return c;
    },
    addList,
  });

  if (options.explain) for (const c of candidates) options.explain.classes.set(c.path, pathClass(c.path));
  return candidates
    .map((c) => ({ c, score: (fused.get(c) ?? 0) * pathPrior(c.path) }))
    .sort((a, b) => b.score - a.score || byText(a.c, b.c))
    .slice(0, options.limit)
    .map(({ c, score }) => ({ rootId: c.rootId, path: c.path, score, matched: c.matched, defs: c.defs, ...(c.clues ? { clues: c.clues } : {}) }));
}

const idfOf = (n: number, all: number) => Math.log(1 + (all - n + 0.5) / (Math.max(1, n) + 0.5));

/** Per word, the paths holding it (index into paths.files → 1, or NAME_WORD_FACTOR in the file's own name). */
type PathHolders = Map<string, Map<number, number>>;

/**
 * The paths holding each of `words` (one pass over the path vocabulary for all of them: the
 * words of a task and of an issue's title are looked up together).
 */
function pathHolders(paths: PathVocabulary, words: readonly string[]): PathHolders {
  const out: PathHolders = new Map();
  const wanted = [...new Set(words)];
  for (const w of wanted) out.set(w, new Map());
  for (const [pw, list] of paths.postings) {
    for (const w of wanted) {
      if (pw.charCodeAt(0) !== w.charCodeAt(0) || !sameWord(pw, w, W.PREFIX_MIN_CHARS)) continue;
      const holders = out.get(w)!;
      for (const i of list) holders.set(i, Math.max(holders.get(i) ?? 0, paths.files[i]!.nameWords.has(pw) ? W.NAME_WORD_FACTOR : 1));
    }
  }
  return out;
}

/** Each path's score for `words` (index into paths.files → the summed IDF, over paths, of the words its path holds). */
function pathScoresOf(paths: PathVocabulary, holders: PathHolders, words: readonly string[]): Map<number, number> {
  const pathScores = new Map<number, number>();
  for (const w of new Set(words)) {
    const held = holders.get(w);
    if (!held) continue;
    const weight = idfOf(held.size, paths.files.length);
    for (const [i, factor] of held) pathScores.set(i, (pathScores.get(i) ?? 0) + weight * factor);
  }
  return pathScores;
}

/** Compounds the index holds, or all of them when it holds none (a compound no file has would take a query slot). */
function indexedOrAll(compounds: readonly string[], df: ReadonlyMap<string, number>): string[] {
  const held = compounds.filter((c) => (df.get(c) ?? 0) > 0);
  return held.length > 0 ? held : [...compounds];
}

/** The lists an issue's clues make (clue-lists.ts), fused like the others; matched clues are kept on the candidate for the answer. */
function addClueLists(
  db: Database,
  clues: NonNullable<RankQuery['clues']>,
  paths: PathVocabulary,
  titlePathScores: ReadonlyMap<number, number>,
  titleMatch: string,
  total: number,
  candidateOf: (id: number) => Candidate | undefined,
  addList: (list: Candidate[], weight: number, ranks: readonly number[] | undefined, name: string) => void,
): void {
  const pathHits = pathClueHits(paths, clues.paths);
  const pathList: Candidate[] = [];
  const pathRanks: number[] = [];
  for (const h of pathHits) {
    const c = candidateOf(h.id);
    if (!c) continue;
    c.clues = { ...c.clues, path: h.clue };
    // Files sharing as long a tail of the named path share a rank.
    pathRanks.push(pathList.length > 0 && pathHits[pathList.length - 1]!.shared === h.shared ? pathRanks.at(-1)! : pathList.length);
    pathList.push(c);
  }
  addList(pathList, W.PATH_CLUE_LIST_WEIGHT, pathRanks, 'clue-paths');
  const defines: Candidate[] = [];
  for (const h of defineHits(db, clues.names, total)) {
    const c = candidateOf(h.id);
    if (!c) continue;
    c.clues = { ...c.clues, defines: h.names.slice(0, W.CLUE_NAMES_SHOWN) };
    defines.push(c);
  }
  addList(defines, W.DEFINES_LIST_WEIGHT, undefined, 'defines');
  const known = (c: Candidate | undefined): c is Candidate => c !== undefined;
  addList(wordHits(db, titleMatch).map(candidateOf).filter(known), W.TITLE_LIST_WEIGHT, undefined, 'title');
  const byTitlePath = [...titlePathScores].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, W.PATH_CANDIDATE_FILES);
  addList(byTitlePath.map(([i]) => candidateOf(paths.files[i]!.id)).filter(known), W.TITLE_PATH_LIST_WEIGHT, undefined, 'title-path');
  const messages: Candidate[] = [];
  for (const h of messageHits(db, clues.messages)) {
    const c = candidateOf(h.id);
    if (!c) continue;
    c.clues = { ...c.clues, message: true };
    messages.push(c);
  }
  addList(messages, W.MESSAGE_CLUE_LIST_WEIGHT, undefined, 'messages-quoted');
}

/** Ids of the mapped files a candidate imports by a relative specifier (`./x.js` → `x.ts`). */
function importedFiles(db: Database, paths: PathVocabulary, c: Candidate): number[] {
  const row = db.prepare('SELECT imports FROM files WHERE id = ?').get<{ imports: string }>(c.id);
  if (!row) return [];
  const out: number[] = [];
  for (const imp of JSON.parse(row.imports) as ImportRef[]) {
    if (!imp.module.startsWith('.')) continue;
    const at = paths.byStem.get(stemOf(posix.normalize(posix.join(posix.dirname(c.path), imp.module))));
    if (at !== undefined) out.push(paths.files[at]!.id);
  }
  return out;
}
