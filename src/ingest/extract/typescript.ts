/**
 * TypeScript and JavaScript definitions and imports, without a parser.
 *
 * Extraction runs over every changed file in a burst (the budget is ~20 ms for 1000 files of
 * ~8 KB on one thread), so it is one pass over the characters. The pass stops only at the few
 * characters that change state (quotes, comment and regex slashes, brackets, newlines) and
 * carries what a line cannot know alone: whether it starts inside a block comment, a string or
 * a template literal, and the brace stack that says whether it sits at the top level, in a
 * namespace, or directly in a class body. Only such lines are tested, once, with short regexes
 * anchored at their first non-blank character (typescript-declarations.ts). Regex literals are
 * told from division by the token before the slash, as parsers do (typescript-tokens.ts). No
 * regex runs across lines or has nested quantifiers, so a 200 KB minified line costs one linear
 * scan.
 *
 * It is a scanner, not a parser: top-level and namespace declarations and class and interface
 * members are read from their lines; inside function bodies only functions are reported, each
 * found at its own `(` (typescript-function-expressions.ts). Code it misreads (JSX text with an
 * apostrophe, a division it takes for a regex) loses at most the rest of that line; a bracket
 * left open is forgotten when its block closes.
 */
import { lineEnd, stopTable } from './line-lexer.js';
import { C_FAMILY_KEYWORDS, isNameChar, ReferenceSink } from './reference-sink.js';
import { SCOPE_BLOCK, ScopeStack } from './scope-stack.js';
import type { Extraction } from './types.js';
import {
  SCOPE_CLASS,
  TypeScriptDeclarations,
  type BodyHeaders,
  type TypeScriptFrame,
} from './typescript-declarations.js';
import { functionExpressionAt } from './typescript-function-expressions.js';
import { requiredModule, skipRegex, skipStringLiteral, slashStartsRegex } from './typescript-tokens.js';

const MODE_CODE = 0;
const MODE_BLOCK_COMMENT = 1;
const MODE_TEMPLATE = 2;
/** In a quoted string continued past the line end by a backslash. */
const MODE_STRING = 3;

/** The brace of a template literal's `${`: its `}` returns to the template, not to code. */
const SCOPE_TEMPLATE_EXPR = 3;

/**
 * Characters the code loop stops at (1); every other character is skipped in a tight loop.
 * `>` and `;` matter only while a class or namespace header waits for its body, so they stop
 * the loop only then (SPECIAL_IN_HEADER): otherwise they would be a tenth of all stops. `<`
 * always stops it: `<Foo` is a JSX element or a type argument, a reference either way.
 */
const SPECIAL = stopTable('\n\'"`/{}()<');
const SPECIAL_IN_HEADER = stopTable('\n\'"`/{}()<>;');

export function extractTypeScript(text: string): Extraction {
  return new TypeScriptScanner(text).run();
}

/**
 * One file's scan. The per-line tests and the character loop are separate methods so that the
 * loop, which sees every character, is small enough to be optimized early in a fresh worker. For
 * the same reason the per-line and per-character paths read and bump the brace stack's fields in
 * place rather than through its small methods: work moved into tiny callees delays the callers'
 * tier-up, and the first 1000 files in a fresh worker were measurably slower that way.
 */
class TypeScriptScanner implements BodyHeaders {
  readonly #text: string;
  readonly #declarations: TypeScriptDeclarations;
  readonly #scopes = new ScopeStack<TypeScriptFrame>();
  readonly #refs = new ReferenceSink(C_FAMILY_KEYWORDS);

  #lineNo = 0;
  /** Where the current line starts: a regex literal is told from a division within its line. */
  #lineStart = 0;
  #mode = MODE_CODE;
  #stringQuote = 0;
  #commentEnd = 0;
  // `<…>` depth in a pending header, so `class A<T = {}> {` opens its body at the last brace.
  #pendingAngle = 0;
  /**
   * SPECIAL_IN_HEADER while a header waits for its body, else SPECIAL. Kept here, in step with
   * the stack's pending header, because the code loop picks its table at every stop: reading
   * the stack's field there instead made the whole scan ~5% slower.
   */
  #stops = SPECIAL;

  constructor(text: string) {
    this.#text = text;
    this.#declarations = new TypeScriptDeclarations(text, this, this.#refs);
  }

  /**
   * One pass over the text. The newline is one of the characters the loop stops at, so lines
   * are found by the same scan that tracks state, and a line's end is looked up only for the
   * few lines that are tested (those directly at the top level, in a namespace or a class body).
   */
  run(): Extraction {
    const text = this.#text;
    const len = text.length;
    const scopes = this.#scopes;
    let k = this.#startLine(len > 0 && text.charCodeAt(0) === 0xfeff ? 1 : 0);
    while (k < len) {
      const mode = this.#mode;
      if (mode === MODE_CODE) {
        // Most characters change no state: skip them in a tight loop. It never reads past the
        // end: an out-of-range read (NaN) would turn the table lookup generic, and slow, for good.
        const stops = this.#stops;
        let c = 0;
        for (; k < len; k++) {
          c = text.charCodeAt(k);
          if (c < 128 && stops[c] === 1) break;
        }
        if (k >= len) break;
        k = this.#special(c, k);
      } else if (mode === MODE_TEMPLATE) {
        let c = 0;
        for (; k < len; k++) {
          c = text.charCodeAt(k);
          if (c === 92 || c === 96 || c === 36 || c === 10) break;
        }
        if (k >= len) break;
        if (c === 10) k = this.#startLine(k + 1);
        else if (c === 92) k += text.charCodeAt(k + 1) === 10 ? 1 : 2;
        else if (c === 96) {
          this.#mode = MODE_CODE;
          k++;
        } else if (text.charCodeAt(k + 1) === 123) {
          scopes.openUnnamed(SCOPE_TEMPLATE_EXPR);
          this.#mode = MODE_CODE;
          k += 2;
        } else k++;
      } else if (mode === MODE_BLOCK_COMMENT) {
        // Jump to the comment's end, counting the lines it spans; none of them is tested.
        const close = this.#commentEnd;
        for (let nl = text.indexOf('\n', k); nl >= 0 && nl < close; nl = text.indexOf('\n', nl + 1)) {
          this.#lineNo++;
          this.#lineStart = nl + 1;
        }
        this.#mode = MODE_CODE;
        k = close + 2;
      } else {
        const close = skipStringLiteral(text, k - 1, this.#stringQuote);
        if (close < 0) k = this.#startLine(-close);
        else {
          this.#mode = MODE_CODE;
          k = text.charCodeAt(close) === 10 ? close : close + 1;
        }
      }
    }
    const extraction = this.#declarations.finish();
    extraction.references = this.#refs.references;
    return extraction;
  }

  /** A class or namespace header: its body is the next `{` at the same parenthesis depth. */
  expectBody(kind: number, name: string, exported: boolean): void {
    const scopes = this.#scopes;
    scopes.expect(kind, { depth: 0, name, exported, parenDepth: scopes.parenDepth });
    this.#pendingAngle = 0;
    this.#stops = SPECIAL_IN_HEADER;
  }

  /** Starts the line at `pos`: counts it, tests it if it starts in code, and returns where scanning resumes. */
  #startLine(pos: number): number {
    this.#lineNo++;
    this.#lineStart = pos;
    if (this.#mode !== MODE_CODE) return pos;
    const scopes = this.#scopes;
    const kinds = scopes.kinds;
    const top = kinds.length === 0 ? -1 : kinds[kinds.length - 1]!;
    const declarations = this.#declarations;
    // Most lines are inside a function or an object: nothing to test, unless a statement is open.
    const untested = top === SCOPE_BLOCK || top === SCOPE_TEMPLATE_EXPR;
    const statementOpen = declarations.hasOpenStatement();
    if (untested && !statementOpen) return pos;
    const text = this.#text;
    const len = text.length;
    let i = pos;
    // Indentation cannot change any state, so the character loop starts after it too.
    let c = 0;
    for (; i < len; i++) {
      c = text.charCodeAt(i);
      if (c !== 32 && c !== 9 && c !== 12 && c !== 11) break;
    }
    if (i >= len || c === 10 || c === 13) return i;
    if (statementOpen) declarations.continueStatement(text.slice(i, lineEnd(text, i)), this.#lineNo);
    if (untested) return i;
    const frame = top === -1 ? undefined : scopes.frames[scopes.frames.length - 1]!;
    if (scopes.parenDepth !== (frame === undefined ? 0 : frame.parenDepth)) return i;
    const depth = kinds.length;
    if (top === SCOPE_CLASS) {
      if (c !== 64 && c !== 91 && c !== 125 && c !== 47) {
        const end = lineEnd(text, i);
        declarations.classMember(text.slice(i, end), this.#lineNo, end, frame!, depth);
      }
    } else if (c >= 97 && c <= 122) {
      const end = lineEnd(text, i);
      declarations.declaration(text.slice(i, end), this.#lineNo, end, frame?.name || undefined, depth);
    }
    return i;
  }

  /** Handles the state-changing character `c` at `k` in code; returns where scanning resumes. */
  #special(c: number, k: number): number {
    const text = this.#text;
    const scopes = this.#scopes;
    switch (c) {
      case 10: // \n
        return this.#startLine(k + 1);
      case 39: // '
      case 34: {
        // "
        const close = skipStringLiteral(text, k, c);
        if (close < 0) {
          this.#mode = MODE_STRING;
          this.#stringQuote = c;
          return this.#startLine(-close);
        }
        // An unterminated string ends at its line's end.
        return text.charCodeAt(close) === c ? close + 1 : close;
      }
      case 96: // `
        this.#mode = MODE_TEMPLATE;
        return k + 1;
      case 47: {
        // /
        const next = text.charCodeAt(k + 1);
        if (next === 47) {
          const nl = text.indexOf('\n', k + 2);
          return nl < 0 ? text.length : nl;
        }
        if (next === 42) {
          const close = text.indexOf('*/', k + 2);
          this.#commentEnd = close < 0 ? text.length : close;
          this.#mode = MODE_BLOCK_COMMENT;
          return k + 2;
        }
        if (slashStartsRegex(text, k, this.#lineStart)) {
          const close = skipRegex(text, k);
          return text.charCodeAt(close) === 47 ? close + 1 : close;
        }
        return k + 1;
      }
      case 60: {
        // <
        if (scopes.pendingKind !== SCOPE_BLOCK) this.#pendingAngle++;
        // `<Foo` is a JSX element or a type argument (`Map<string, Foo>` names only its first).
        const next = text.charCodeAt(k + 1);
        if (next >= 65 && next <= 90) this.#refs.tagAt(text, k + 1, this.#lineNo, scopes.kinds.length);
        return k + 1;
      }
      case 62: // >
        if (scopes.pendingKind !== SCOPE_BLOCK && this.#pendingAngle > 0 && text.charCodeAt(k - 1) !== 61) {
          this.#pendingAngle--;
        }
        return k + 1;
      case 123: // {
        // `class A<T = {}> {`: a brace inside the header's type parameters is not its body.
        if (this.#pendingAngle === 0) {
          scopes.openBrace();
          if (scopes.pendingKind === SCOPE_BLOCK) this.#stops = SPECIAL;
        } else scopes.openUnnamed(SCOPE_BLOCK);
        return k + 1;
      case 125: // }
        if (scopes.closeBrace() === SCOPE_TEMPLATE_EXPR) this.#mode = MODE_TEMPLATE;
        return k + 1;
      case 40: {
        // (
        const before = text.charCodeAt(k - 1);
        if (before === 101 || before === 116) {
          const module = requiredModule(text, k);
          if (module !== null) this.#declarations.addImport(module, this.#lineNo);
        }
        // A function's own `(`: `function f(`, `function* f(`, `function(`, `function (`. Only a
        // name with a blank or `*` before it, or the word `function` itself, can be one.
        let fn = null;
        if (isNameChar(before)) {
          const s = this.#refs.callAt(text, k, this.#lineNo, scopes.kinds.length);
          const c = text.charCodeAt(s - 1);
          if (c === 32 || c === 42 || k - s === 8) fn = functionExpressionAt(text, s, k);
        } else if (before === 32) fn = functionExpressionAt(text, k, k);
        if (fn !== null) this.#declarations.functionExpression(fn, this.#lineNo, scopes.kinds.length);
        scopes.parenDepth++;
        return k + 1;
      }
      case 41: // )
        if (scopes.parenDepth > 0) scopes.parenDepth--;
        return k + 1;
      default: // ;
        // `declare module 'x';` has no body: the header must not claim a later brace.
        scopes.endStatement();
        if (scopes.pendingKind === SCOPE_BLOCK) this.#stops = SPECIAL;
        return k + 1;
    }
  }
}
