/**
 * Ranked files as the recall verbs hand them out: `delegate`'s files (path, score, the lines
 * worth reading, the definitions that matter first) and `seek`'s hits for a text query (one
 * hit per file, at its best definition or its first matching line).
 */
import { lineOf, listRoots, type Database } from '../store/index.js';
import { analyseQuery, type RankQuery } from './query.js';
import { rankFiles, type FileClues, type RankedFile } from './rank-files.js';

/** Lines and definitions listed per file: enough to open it at the right place. */
export const LINES_PER_FILE = 10;
export const SYMBOLS_PER_FILE = 12;
/**
 * Files past the first DETAILED_FILES list only their first TAIL_LINES lines and the
 * definitions the task matched (at most TAIL_SYMBOLS): an agent opens the first few files and
 * reads the rest as a list of where else to look, so the pack stays a fraction of its budget
 * (issue 52: the whole 4000 tokens on every answer before).
 */
export const DETAILED_FILES = 5;
export const TAIL_LINES = 3;
export const TAIL_SYMBOLS = 3;
/** Files whose first matching line is read from disk when no definition matched (bounded reads). */
const LINE_READS = 20;

export interface TaskFile {
  path: string;
  score: number;
  lines: number[];
  symbols: { name: string; kind: string; line: number; exported: boolean }[];
  /** The issue clues the file matched (a path the text names, names it defines). */
  clues?: FileClues;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

function rootPaths(db: Database): Map<number, string> {
  return new Map(listRoots(db).map((r) => [r.id, r.path]));
}

/** The first line of a file holding a query word, read from disk (1 when none). */
function textLine(roots: Map<number, string>, f: RankedFile, q: RankQuery): number {
  const root = roots.get(f.rootId);
  return root === undefined ? 1 : lineOf(root, f.path, [...q.compounds, ...q.words]);
}

export function taskFiles(db: Database, q: RankQuery, limit: number, noteFiles: readonly string[] = []): TaskFile[] {
  const ranked = rankFiles(db, q, { limit, noteFiles });
  const roots = rootPaths(db);
  return ranked.map((f, i) => {
    const detailed = i < DETAILED_FILES;
    const lines = [...new Set(f.matched.map((d) => d.line))].slice(0, detailed ? LINES_PER_FILE : TAIL_LINES).sort((a, b) => a - b);
    if (lines.length === 0 && i < LINE_READS) lines.push(textLine(roots, f, q));
    const first = new Set(f.matched.slice(0, detailed ? SYMBOLS_PER_FILE : TAIL_SYMBOLS));
    const rest = detailed ? f.defs.filter((d) => !first.has(d)).sort((a, b) => a.line - b.line) : [];
    const symbols = [...first, ...rest].slice(0, SYMBOLS_PER_FILE).map((d) => ({ name: d.name, kind: d.kind, line: d.line, exported: d.exported }));
    return { path: f.path, score: round(f.score), lines, symbols, ...(f.clues ? { clues: f.clues } : {}) };
  });
}

export interface TextHit {
  rootId: number;
  path: string;
  line: number;
  symbol: string | null;
  kind: string | null;
  score: number;
}

/** `seek` for a text (not an identifier): one hit per ranked file. */
export function seekText(db: Database, query: string, limit: number): TextHit[] {
  const q = analyseQuery(query);
  if (q.empty) return [];
  const roots = rootPaths(db);
  return rankFiles(db, q, { limit }).map((f) => {
    const best = f.matched[0];
    return best
      ? { rootId: f.rootId, path: f.path, line: best.line, symbol: best.name, kind: best.kind, score: round(f.score) }
      : { rootId: f.rootId, path: f.path, line: textLine(roots, f, q), symbol: null, kind: null, score: round(f.score) };
  });
}

/**
 * True for a text to rank by file (three words or more); an identifier or a pair of words
 * keeps `seek`'s exact-symbol-first order.
 */
export function isTextQuery(query: string): boolean {
  return query.trim().split(/\s+/).length >= 3;
}
