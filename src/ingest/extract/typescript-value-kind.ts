/**
 * What a TypeScript or JavaScript name declared with a value holds (`const f = () => …`,
 * `exports.g = function …`, a class property `h = async (x) => …`), judged from the text after
 * the name. A parenthesised start is ambiguous: `(a, b) => …` is a function, `(x && y)` and
 * `(<div/>)` are not, so a parameter list is followed to its `)` and the arrow looked for there,
 * a bounded way when it runs onto later lines.
 */
import type { SymbolKind } from './types.js';
import { isIdentifierChar } from './typescript-tokens.js';

const ASYNC_PREFIX = /^async\b\s*/;
const ARROW_FROM_NAME = /^[\w$]+\s*=>/;
/**
 * How far past its line an initializer's `(` is followed to its `)`, to tell multi-line arrow
 * parameters from a parenthesised expression (JSX, a condition). Longer parameter lists are rare.
 */
const PARAMS_LOOKAHEAD_CHARS = 2000;

/**
 * What a declared name holds, judged from the text after the name (`: Type = value`) to the end
 * of its line at `lineEnd` in `text`: a function (function expression or arrow), a class
 * expression, or any other value; null for a binding of `require()` or `await import()`, which
 * is an import, not a definition.
 */
export function valueKind(afterName: string, text: string, lineEnd: number): SymbolKind | null {
  let eq = -1;
  for (let i = 0; i < afterName.length; i++) {
    const c = afterName.charCodeAt(i);
    if (c === 61) {
      const next = afterName.charCodeAt(i + 1);
      // `=>` inside a type annotation, or `==`, is not the initializer.
      if (next !== 62 && next !== 61) {
        eq = i;
        break;
      }
      i++;
    } else if (c === 59 || c === 123) break;
  }
  if (eq < 0) return 'const';
  let rhs = afterName.slice(eq + 1).trimStart();
  if (rhs.startsWith('require(') || rhs.startsWith('await import(')) return null;
  rhs = rhs.replace(ASYNC_PREFIX, '');
  if (rhs.startsWith('function')) return 'function';
  if (rhs.startsWith('class') && (rhs.length === 5 || !isIdentifierChar(rhs.charCodeAt(5)))) return 'class';
  if (ARROW_FROM_NAME.test(rhs)) return 'function';
  const c = rhs.charCodeAt(0);
  if (c === 40 || c === 60) {
    const open = rhs.indexOf('(');
    if (open >= 0 && arrowFollowsParams(rhs, open, text, lineEnd)) return 'function';
  }
  return 'const';
}

/** Whether the parameter list opening at `open` is followed by `=>` (after an optional return type). */
function arrowFollowsParams(rhs: string, open: number, text: string, lineEnd: number): boolean {
  let depth = 0;
  let i = open;
  for (; i < rhs.length; i++) {
    const c = rhs.charCodeAt(i);
    if (c === 40) depth++;
    else if (c === 41 && --depth === 0) break;
  }
  let after: string;
  if (i < rhs.length) after = rhs.slice(i + 1);
  else {
    // The list runs onto later lines: follow it to its `)`, a bounded way.
    const limit = Math.min(text.length, lineEnd + PARAMS_LOOKAHEAD_CHARS);
    let j = lineEnd;
    for (; j < limit; j++) {
      const c = text.charCodeAt(j);
      if (c === 40) depth++;
      else if (c === 41 && --depth === 0) break;
    }
    if (j >= limit) return false;
    after = text.slice(j + 1, Math.min(limit, j + 64));
  }
  after = after.trimStart();
  // `(…) =>`, or `(…): ReturnType =>`: a parenthesised expression is never followed by `:`.
  return after.startsWith('=>') || after.charCodeAt(0) === 58;
}
