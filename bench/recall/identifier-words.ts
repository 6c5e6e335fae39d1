/**
 * Words of code text with identifiers split: `parseHTTPConfig` → parse, http, config;
 * `zsh_completions.go` → zsh, completions, go. Lower-cased; one-letter pieces dropped (they
 * carry no meaning a task can name). The BM25 baseline of the recall eval reads files and
 * tasks through this one function, so both sides of the match see the same words.
 */

/** A run of letters and digits (any script); everything else separates. */
const RUN = /[\p{L}\p{N}]+/gu;
/** Case boundaries inside a run: `fooBar`, `HTTPServer` (→ HTTP, Server), `v2Api` (→ v2, api): digits stay on the word before them. */
const CASE_PIECE = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+\p{N}*|\p{Lu}+\p{N}*|\p{N}+|[\p{L}\p{N}]+/gu;

export function identifierWords(text: string): string[] {
  const out: string[] = [];
  for (const run of text.matchAll(RUN)) {
    for (const piece of run[0].matchAll(CASE_PIECE)) {
      const w = piece[0].toLowerCase();
      if (w.length > 1) out.push(w);
    }
  }
  return out;
}
