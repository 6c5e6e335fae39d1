/**
 * Functions the TypeScript scanner's line tests cannot see: those defined inside a function body
 * or a call's arguments, at any depth. The grammar authors' tags (tree-sitter-javascript's
 * `tags.scm`) and ctags both call these definitions:
 *
 *   function helper() {}                  (a declaration inside a function or a test callback)
 *   router.use(function mounted(req) {})  (a named function expression: `mounted`)
 *   res.status = function status(code) {} (its own name; the same as the property's here)
 *   exports.compile = function (val) {}   (an anonymous one takes the name it is assigned to)
 *   View.prototype.render = function () {}  (a method `render` of `View`)
 *   var app = function (req, res) {}      (and `x = function`, `{ show: function () {} }`)
 *
 * The scanner already stops at every `(` in code, so each is one look back from that `(`, over
 * a name and the word `function` before it (and, for an anonymous one, over `=` or `:` to the
 * name it is given), by character codes, allocating only for a hit. Arrow functions are not
 * read here: whether `(` starts one is known only at its `)`.
 */
import type { SymbolKind } from './types.js';
import { isNameChar } from './reference-sink.js';

export interface FunctionExpression {
  name: string;
  kind: SymbolKind;
  /** The class a `X.prototype.m = function` method belongs to. */
  parent: string | undefined;
}

const FUNCTION = 'function';

/**
 * The function whose parameter list opens at the `(` at `open`, if that `(` opens one. `start`
 * is where the identifier right before the `(` starts (the scanner has read it), or `open`.
 */
export function functionExpressionAt(text: string, start: number, open: number): FunctionExpression | null {
  let e = open;
  let s = start;
  if (s === e) {
    while (e > 0 && text.charCodeAt(e - 1) === 32) e--;
    s = e;
    while (s > 0 && isNameChar(text.charCodeAt(s - 1))) s--;
    if (s === e) return null;
  }
  if (e - s === 8 && isWord(text, s, e, FUNCTION)) return assignedName(text, s);
  // `function name(`, `function* name(`, `function *name(`: one blank at most on each side of
  // the `*`, so a call at an indented line's start costs a look at two characters, not the indent.
  let w = s;
  if (text.charCodeAt(w - 1) === 32) w--;
  if (text.charCodeAt(w - 1) === 42) {
    w--;
    if (text.charCodeAt(w - 1) === 32) w--;
  } else if (w === s) return null;
  if (text.charCodeAt(w - 1) !== 110 || w < 8 || !isWord(text, w - 8, w, FUNCTION)) return null;
  const first = text.charCodeAt(s);
  if (first >= 48 && first <= 57) return null;
  return { name: text.slice(s, e), kind: 'function', parent: undefined };
}

/** Whether `text[start, end)` is `word` with no name character before it. */
function isWord(text: string, start: number, end: number, word: string): boolean {
  if (start > 0 && isNameChar(text.charCodeAt(start - 1))) return false;
  for (let i = 0; i < word.length; i++) if (text.charCodeAt(start + i) !== word.charCodeAt(i)) return false;
  return end - start === word.length;
}

/**
 * The name an anonymous `function` starting at `fn` is given: the target of `=` before it (the
 * last property of `a.b.c =`, a variable) or the key of `:` in an object literal.
 */
function assignedName(text: string, fn: number): FunctionExpression | null {
  let i = skipBlanksBack(text, fn);
  if (i >= 5 && isWord(text, i - 5, i, 'async')) i = skipBlanksBack(text, i - 5);
  if (i === 0) return null;
  const op = text.charCodeAt(i - 1);
  if (op !== 61 && op !== 58) return null;
  if (op === 61) {
    // Not `==`, `!=`, `<=`, `>=`, `+=`…: only a plain assignment names what it assigns.
    const c = text.charCodeAt(i - 2);
    if (c !== 32 && !isNameChar(c)) return null;
  }
  const e = skipBlanksBack(text, i - 1);
  let s = e;
  while (s > 0 && isNameChar(text.charCodeAt(s - 1))) s--;
  if (s === e) return null;
  const first = text.charCodeAt(s);
  if (first >= 48 && first <= 57) return null;
  const name = text.slice(s, e);
  const before = s > 0 ? text.charCodeAt(s - 1) : 10;
  if (op === 58) {
    // A key: after `{`, `,` or at a line's start; not the `:` of `a ? b : function`.
    const b = skipBlanksBack(text, s);
    const c = b > 0 ? text.charCodeAt(b - 1) : 10;
    return c === 123 || c === 44 || c === 10 ? { name, kind: 'function', parent: undefined } : null;
  }
  if (before === 46 && s >= 11 && text.charCodeAt(s - 2) === 101 && text.startsWith('.prototype', s - 11)) {
    let p = s - 11;
    const pe = p;
    while (p > 0 && isNameChar(text.charCodeAt(p - 1))) p--;
    if (p < pe) return { name, kind: 'method', parent: text.slice(p, pe) };
  }
  return { name, kind: 'function', parent: undefined };
}

/** Where the blanks (line ends included) ending at `at` start. */
function skipBlanksBack(text: string, at: number): number {
  let i = at;
  while (i > 0) {
    const c = text.charCodeAt(i - 1);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
    i--;
  }
  return i;
}
