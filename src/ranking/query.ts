/**
 * A task or search text, read whole, as ranking terms: its split words without stop words,
 * plus the compound identifiers it names (`parseConfig`, `zsh_completions`) as the full-text
 * index holds them. A long text keeps its most repeated terms (first seen first on ties), so a
 * 100 KB issue costs the same query as a paragraph.
 */
import { STOP_WORDS } from './stop-words.js';
import { compoundTokens, splitWords } from './words.js';
import { BLOCK_WORD_WEIGHT, MAX_QUERY_TERMS, TITLE_WORD_WEIGHT } from './weights.js';
import { cluesOfClean, FENCED_BLOCK, looksLikeIssue, withoutNoise, type IssueClues } from './issue-clues.js';

export interface RankQuery {
  /** Split words, lower-cased, no stop words, most repeated first, at most MAX_QUERY_TERMS. */
  words: string[];
  /** Compound identifiers named in the text, lower-cased. */
  compounds: string[];
  /** Why the query is empty, when it is. */
  empty: string | null;
  /** What an issue-like text (several lines, or code in it) names: paths, quoted names, its title. */
  clues?: IssueClues;
}

/** The longest text read, in characters: past this a task is a dump, not a task (100 KB is read whole). */
export const MAX_QUERY_CHARS = 200_000;

export function analyseQuery(text: string): RankQuery {
  const whole = text.length > MAX_QUERY_CHARS ? text.slice(0, MAX_QUERY_CHARS) : text;
  const issue = looksLikeIssue(whole);
  const body = issue ? withoutNoise(whole) : whole;
  const counts = new Map<string, number>();
  let seen = 0;
  const count = (part: string, weight: number) => {
    for (const w of splitWords(part)) {
      seen++;
      if (STOP_WORDS.has(w) || /^\d{1,2}$/.test(w)) continue;
      counts.set(w, (counts.get(w) ?? 0) + weight);
    }
  };
  if (issue) {
    // An issue's words count by where they stand: its title says what it is about, a pasted
    // log or program says it at length (issue-clues.ts reads the rest of what a block holds).
    const titleEnd = body.indexOf('\n', body.search(/\S/));
    count(titleEnd < 0 ? body : body.slice(0, titleEnd), TITLE_WORD_WEIGHT);
    if (titleEnd >= 0) {
      const rest = body.slice(titleEnd).replace(FENCED_BLOCK, (_all, code: string) => {
        count(code, BLOCK_WORD_WEIGHT);
        return '\n';
      });
      count(rest, 1);
    }
  } else count(body, 1);
  const first = new Map([...counts.keys()].map((w, i) => [w, i]));
  const words = [...counts.keys()].sort((a, b) => counts.get(b)! - counts.get(a)! || first.get(a)! - first.get(b)!).slice(0, MAX_QUERY_TERMS);
  const compounds = [...new Set(compoundTokens(body))].filter((c) => !STOP_WORDS.has(c)).slice(0, MAX_QUERY_TERMS);
  let empty: string | null = null;
  if (words.length === 0 && compounds.length === 0) {
    empty = seen === 0
      ? 'the text has no letters or digits to search for'
      : 'every word of the text is a stop word (like "add", "fix", "the"): name the code, the behaviour or the file';
  }
  return { words, compounds, empty, ...(issue && empty === null ? { clues: cluesOfClean(body) } : {}) };
}
