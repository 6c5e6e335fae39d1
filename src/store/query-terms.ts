/**
 * The identifier-like terms of a query, as the full-text indexes (code map and notes) are
 * asked for them.
 */

/** Most terms read from one query. */
const MAX_TERMS = 16;

/**
 * Identifier-like terms of the query; punctuation is a separator, but `$` is kept: it is part of
 * a JavaScript name (`$ZodType`, `$inject`), so a hit is confirmed against the name as written.
 * The full-text index's tokenizer drops `$` (it is not a token character), and FTS5 runs that
 * tokenizer on each quoted term too, so `"$ZodType"` matches the indexed token `zodtype`; a
 * term with nothing else than `$` would be an empty phrase and is no term.
 */
export function tokenize(query: string): string[] {
  return [...new Set(query.split(/[^\p{L}\p{N}_$]+/u).filter((t) => HAS_WORD_CHAR.test(t)))].slice(0, MAX_TERMS);
}

const HAS_WORD_CHAR = /[\p{L}\p{N}_]/u;

/** A term as an FTS5 phrase (double quotes doubled). */
export const quoteTerm = (term: string): string => `"${term.replace(/"/g, '""')}"`;
