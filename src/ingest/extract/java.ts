/**
 * Java definitions and imports, without a parser.
 *
 * Types (class, interface, enum, record, @interface) are found at the top level and directly in
 * another type's body, and methods and constants directly in a type body (java-members.ts). One
 * character loop, here, carries the comment, text block and brace state between lines; the
 * brace stack (scope-stack.ts) says whether a line sits at the top level or directly in a type
 * body, and line tests are anchored at the first non-blank character.
 */
import { JavaMembers, type JavaFrame } from './java-members.js';
import { skipPast, skipQuoted, stopTable } from './line-lexer.js';
import { C_FAMILY_KEYWORDS, isNameChar, ReferenceSink } from './reference-sink.js';
import { ScopeStack } from './scope-stack.js';
import type { Extraction } from './types.js';

const SPECIAL = stopTable('/"\'{}();');

export function extractJava(text: string): Extraction {
  const len = text.length;
  const scopes = new ScopeStack<JavaFrame>();
  const members = new JavaMembers(scopes);
  const refs = new ReferenceSink(C_FAMILY_KEYWORDS);
  const { symbols, imports } = members;

  // Inside a block comment or text block the scan resumes at this index.
  let resumeAt = 0;

  let lineNo = 0;
  let pos = len > 0 && text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (pos <= len) {
    lineNo++;
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = len;
    const end = nl > pos && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;

    if (resumeAt <= pos) {
      const symbolsFrom = symbols.length;
      const importsFrom = imports.length;
      members.readLine(text, pos, end, lineNo);
      if (symbols.length > symbolsFrom || imports.length > importsFrom) {
        refs.afterLine(symbols, symbolsFrom, imports, importsFrom, text.slice(pos, end), lineNo, scopes.kinds.length, true);
      }
    }

    // The character loop: comments, strings, text blocks, char literals, braces.
    let k = resumeAt > pos ? resumeAt : pos;
    while (k < end) {
      // Most characters change no state: skip them in a tight loop.
      let c = text.charCodeAt(k);
      while (c >= 128 || SPECIAL[c] === 0) {
        if (++k >= end) break;
        c = text.charCodeAt(k);
      }
      if (k >= end) break;
      switch (c) {
        case 47: {
          const next = text.charCodeAt(k + 1);
          if (next === 47) {
            k = end;
            continue;
          }
          if (next === 42) {
            resumeAt = skipPast(text, '*/', k + 2);
            k = resumeAt;
            continue;
          }
          break;
        }
        case 34:
          if (text.charCodeAt(k + 1) === 34 && text.charCodeAt(k + 2) === 34) {
            resumeAt = skipPast(text, '"""', k + 3);
            k = resumeAt;
            continue;
          }
          k = skipQuoted(text, k, end, c) + 1;
          continue;
        case 39:
          k = skipQuoted(text, k, end, c) + 1;
          continue;
        default:
          if (c === 40 && isNameChar(text.charCodeAt(k - 1))) refs.callAt(text, k, lineNo, scopes.kinds.length);
          scopes.punctuation(c);
      }
      k++;
    }

    if (nl >= len) break;
    pos = nl + 1;
  }
  return { symbols, imports, references: refs.references };
}
