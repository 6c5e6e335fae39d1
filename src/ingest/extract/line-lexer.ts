/**
 * Character-level pieces the line scanners share: where a line ends, the table of characters a
 * scan must stop at, and how to skip blanks and a C-family string, comment or raw literal. Each
 * scanner keeps its own character loop, because what a quote or a slash means differs by language
 * (a Rust lifetime, a Java text block, a JavaScript regex); only the pieces whose meaning is the
 * same everywhere live here, so there is one copy of each.
 *
 * All of them work on char codes and indices, never on slices, so the loops that call them stay
 * allocation-free on the characters they skip.
 *
 * Not everything shared is here on purpose. Each scanner keeps its byte-order-mark check inline:
 * moving that one read of `text` into a helper made the Go scan 5–7% slower (1000 files of 8 KB,
 * Node 20), and `skipBlanks` did the same to it, so go.ts skips its blanks inline too.
 */

/** Index of the `\n` ending the line that contains `from`, less a `\r` before it. */
export function lineEnd(text: string, from: number): number {
  let nl = text.indexOf('\n', from);
  if (nl < 0) nl = text.length;
  return nl > from && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
}

/**
 * A lookup table over ASCII with 1 at each of `chars`: the characters that change a scanner's
 * state. Every other character is skipped in a tight loop that only reads this table.
 */
export function stopTable(chars: string): Uint8Array {
  const table = new Uint8Array(128);
  for (const ch of chars) table[ch.charCodeAt(0)] = 1;
  return table;
}

/** Index of the first character at or after `from` that is neither a space nor a tab, or `end`. */
export function skipBlanks(text: string, from: number, end: number): number {
  let i = from;
  while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  return i;
}

/**
 * Index of the quote closing the string or char literal opened at `open`, or `end` when the line
 * ends first. A backslash escapes the character after it.
 */
export function skipQuoted(text: string, open: number, end: number, quote: number): number {
  for (let i = open + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (c === quote) return i;
  }
  return end;
}

/**
 * Index just past the first `closer` at or after `from`, or the text's end when it never comes:
 * where scanning resumes after a block comment, a text block or a raw string, which may span lines.
 */
export function skipPast(text: string, closer: string, from: number): number {
  const close = text.indexOf(closer, from);
  return close < 0 ? text.length : close + closer.length;
}

/** An ASCII identifier character (letter, digit, `_`), as Rust and Go spell names. */
export function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}
