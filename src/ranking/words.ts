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

/** Names already split: a brain's definitions repeat the same names across files and queries. */
const nameWords = new Map<string, string[]>();
/** Names kept split at most; past this the memo starts over (a few MB at most). */
const NAME_MEMO_ENTRIES = 100_000;

/** splitWords of a definition's name, memoised. */
export function wordsOfName(name: string): string[] {
  let words = nameWords.get(name);
  if (words === undefined) {
    if (nameWords.size >= NAME_MEMO_ENTRIES) nameWords.clear();
    nameWords.set(name, (words = splitWords(name)));
  }
  return words;
}
