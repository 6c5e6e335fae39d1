/**
 * Rust definitions and imports, without a parser.
 *
 * Items are found by short regexes anchored at each line's first non-blank character
 * (rust-items.ts); one character loop, here, carries what a line cannot know alone. Rust makes
 * that loop a little richer than the C family's: block comments nest, ordinary strings may span
 * lines, raw strings (`r#"…"#`) end only at a quote followed by as many `#`, and a quote may open
 * a char literal (`'"'`) or be a lifetime (`'a`). The brace stack (scope-stack.ts) tells whether
 * a line is at item level (the file or an inline `mod`), or directly in an `impl` or `trait`
 * body, whose `fn`s are methods of the implementing type or trait.
 */
import { isWordChar, skipPast, stopTable } from './line-lexer.js';
import { C_FAMILY_KEYWORDS, isNameChar, ReferenceSink } from './reference-sink.js';
import { RustItems, type RustFrame } from './rust-items.js';
import { ScopeStack } from './scope-stack.js';
import type { Extraction } from './types.js';

const MODE_CODE = 0;
const MODE_COMMENT = 1;
const MODE_STRING = 2;

const SPECIAL = stopTable('/"\'{}();');

export function extractRust(text: string): Extraction {
  const len = text.length;
  const scopes = new ScopeStack<RustFrame>();
  const items = new RustItems(scopes);
  const refs = new ReferenceSink(C_FAMILY_KEYWORDS);
  const { symbols, imports } = items;

  let mode = MODE_CODE;
  let commentDepth = 0;
  // Inside a raw string the scan resumes at this index.
  let resumeAt = 0;

  let lineNo = 0;
  let pos = len > 0 && text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (pos <= len) {
    lineNo++;
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = len;
    const end = nl > pos && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;

    if (mode === MODE_CODE && resumeAt <= pos) {
      const symbolsFrom = symbols.length;
      const importsFrom = imports.length;
      items.readLine(text, pos, end, lineNo);
      if (symbols.length > symbolsFrom || imports.length > importsFrom || text.startsWith('impl', pos)) {
        refs.afterLine(symbols, symbolsFrom, imports, importsFrom, text.slice(pos, end).trim(), lineNo, scopes.kinds.length, true);
      }
    }

    // The character loop: nested comments, multi-line and raw strings, char literals, braces.
    let k = resumeAt > pos ? resumeAt : pos;
    while (k < end) {
      const c = text.charCodeAt(k);
      if (mode === MODE_COMMENT) {
        if (c === 42 && text.charCodeAt(k + 1) === 47) {
          k += 2;
          if (--commentDepth === 0) mode = MODE_CODE;
        } else if (c === 47 && text.charCodeAt(k + 1) === 42) {
          k += 2;
          commentDepth++;
        } else k++;
        continue;
      }
      if (mode === MODE_STRING) {
        if (c === 92) k += 2;
        else {
          if (c === 34) mode = MODE_CODE;
          k++;
        }
        continue;
      }
      if (c >= 128 || SPECIAL[c] === 0) {
        // Most characters change no state: skip them in a tight loop.
        do k++;
        while (k < end && (text.charCodeAt(k) >= 128 || SPECIAL[text.charCodeAt(k)] === 0));
        continue;
      }
      switch (c) {
        case 47: {
          const next = text.charCodeAt(k + 1);
          if (next === 47) {
            k = end;
            continue;
          }
          if (next === 42) {
            mode = MODE_COMMENT;
            commentDepth = 1;
            k += 2;
            continue;
          }
          break;
        }
        case 34: {
          const hashes = rawStringHashes(text, k);
          if (hashes < 0) {
            mode = MODE_STRING;
            break;
          }
          resumeAt = skipPast(text, '"' + '#'.repeat(hashes), k + 1);
          k = resumeAt;
          continue;
        }
        case 39:
          k = skipCharLiteral(text, k, end);
          continue;
        default:
          if (c === 40 && isNameChar(text.charCodeAt(k - 1))) refs.callAt(text, k, lineNo, scopes.kinds.length);
          // `mod x;` has no body: the `;` keeps its header from claiming a later brace.
          scopes.punctuation(c);
      }
      k++;
    }

    if (nl >= len) break;
    pos = nl + 1;
  }
  return { symbols, imports, references: refs.references };
}

/** The `#` count of a raw string whose opening quote is at `quote`, or -1 for an ordinary string. */
function rawStringHashes(text: string, quote: number): number {
  let p = quote - 1;
  while (p >= 0 && text.charCodeAt(p) === 35) p--;
  if (text.charCodeAt(p) !== 114) return -1; // r
  let before = text.charCodeAt(p - 1);
  if (before === 98) before = text.charCodeAt(p - 2); // br"…"
  else if (before === 99) before = text.charCodeAt(p - 2); // cr"…"
  return isWordChar(before) ? -1 : quote - 1 - p;
}

/** Index after a char literal (`'x'`, `'\n'`, `'\u{1F600}'`) at `open`, or after the quote of a lifetime. */
function skipCharLiteral(text: string, open: number, end: number): number {
  const next = text.charCodeAt(open + 1);
  if (next === 92) {
    const close = text.indexOf("'", open + 3);
    return close < 0 || close >= end ? end : close + 1;
  }
  if (text.charCodeAt(open + 2) === 39) return open + 3;
  if (next >= 0xd800 && next <= 0xdbff && text.charCodeAt(open + 3) === 39) return open + 4;
  return open + 1;
}
