/**
 * Words for ranking: identifiers split on camelCase, acronyms and snake_case
 * (`parseHTTPConfig` → parse, http, config; `zsh_completions.go` → zsh, completions, go),
 * lower-cased, one-letter pieces dropped, digits kept on the word before them (`base64`).
 * Task text, paths and symbol names all go through this one function, so they meet as equals.
 */

const RUN = /[\p{L}\p{N}_]+/gu;
const CASE_PIECE = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+\p{N}*|\p{Lu}+\p{N}*|\p{N}+|[\p{L}\p{N}]+/gu;

/** Every split word of `text`, in order, repeats kept. */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  for (const run of text.matchAll(RUN)) {
    for (const part of run[0].split('_')) {
      for (const piece of part.matchAll(CASE_PIECE)) {
        const w = piece[0].toLowerCase();
        if (w.length > 1) out.push(w);
      }
    }
  }
  return out;
}

/** The compound identifiers of `text` as the full-text index holds them (lower-cased, `_` kept). */
export function compoundTokens(text: string): string[] {
  const out: string[] = [];
  for (const run of text.matchAll(RUN)) {
    const t = run[0];
    if (/_|\p{Ll}\p{Lu}|\p{L}\p{N}/u.test(t)) out.push(t.toLowerCase());
  }
  return out;
}

/** True when two words name the same thing: equal, or one a prefix of the other past `minPrefix` chars (completion/completions). */
export function sameWord(a: string, b: string, minPrefix: number): boolean {
  if (a === b) return true;
  if (a.length < minPrefix || b.length < minPrefix) return false;
  return a.startsWith(b) || b.startsWith(a);
}

/**
 * Names already split: a brain's definitions repeat the same names across files and queries.
 * Two generations of at most NAME_MEMO_GENERATION names: a name is looked up in the young one,
 * then the old one (and moves up); when the young one is full it becomes the old one and the old
 * one is let go. What queries keep asking for stays; what no query asked for since the last turn
 * goes. Measured at about 340 bytes a name (key, array and words; 100,000 names: 33.5 MB of heap),
 * so the memo holds at most ~1.4 MB. A query splits only the names, in its candidate files, that
 * hold one of its words' first letters (rank-files.ts): far fewer than a generation. Sized so an
 * owner fills it early: in the soak (3000-file brain, new names in every burst) a memo of two
 * 8,192-name generations still gained 4,413 names between its 8th and 24th minute, most of the
 * main thread's live growth there (+2.64 MB).
 */
const NAME_MEMO_GENERATION = 2_048;
/** The most names the memo holds at once. */
export const NAME_MEMO_MAX_ENTRIES = 2 * NAME_MEMO_GENERATION;
let youngNames = new Map<string, string[]>();
let oldNames = new Map<string, string[]>();

/** splitWords of a definition's name, memoised. */
export function wordsOfName(name: string): string[] {
  let words = youngNames.get(name);
  if (words !== undefined) return words;
  words = oldNames.get(name) ?? splitWords(name);
  if (youngNames.size >= NAME_MEMO_GENERATION) {
    oldNames = youngNames;
    youngNames = new Map();
  }
  youngNames.set(name, words);
  return words;
}

/** How many names the memo holds now. */
export function nameMemoEntries(): number {
  return youngNames.size + oldNames.size;
}
