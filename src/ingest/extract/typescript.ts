/**
 * TypeScript and JavaScript definitions and imports, without a parser.
 *
 * Extraction runs over every changed file in a burst (the budget is ~20 ms for 1000 files of
 * ~8 KB on one thread), so it is one pass over the characters. The pass stops only at the few
 * characters that change state (quotes, comment and regex slashes, brackets, newlines) and
 * carries what a line cannot know alone: whether it starts inside a block comment, a string or
 * a template literal, and the brace stack that says whether it sits at the top level, in a
 * namespace, or directly in a class body. Only such lines are tested, once, with short regexes
 * anchored at their first non-blank character. Regex literals are told from division by the
 * token before the slash, as parsers do. No regex runs across lines or has nested quantifiers,
 * so a 200 KB minified line costs one linear scan.
 *
 * It is a scanner, not a parser: only top-level and namespace declarations and class members
 * are reported, and code it misreads (JSX text with an apostrophe, a division it takes for a
 * regex) loses at most the rest of that line; a bracket left open is forgotten when its block
 * closes.
 */
import type { Extraction, ImportRef, SymbolDef, SymbolKind } from './types.js';

const MODE_CODE = 0;
const MODE_BLOCK_COMMENT = 1;
const MODE_TEMPLATE = 2;
/** In a quoted string continued past the line end by a backslash. */
const MODE_STRING = 3;

const SCOPE_BLOCK = 0;
const SCOPE_CLASS = 1;
const SCOPE_NAMESPACE = 2;
const SCOPE_TEMPLATE_EXPR = 3;

/**
 * Characters the code loop stops at (1); every other character is skipped in a tight loop.
 * `<`, `>` and `;` matter only while a class or namespace header waits for its body, so they
 * stop the loop only then (SPECIAL_IN_HEADER): otherwise they would be a tenth of all stops.
 */
const SPECIAL = new Uint8Array(128);
for (const ch of '\n\'"`/{}()') SPECIAL[ch.charCodeAt(0)] = 1;
const SPECIAL_IN_HEADER = SPECIAL.slice();
for (const ch of '<>;') SPECIAL_IN_HEADER[ch.charCodeAt(0)] = 1;

/** After these words a slash starts a regex literal, not a division. */
const REGEX_AFTER_WORD = new Set([
  'return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await',
]);

// `export /*#__PURE__*/ function` (bundler annotations) is still an export.
const HEAD = /^(?:(export)\s+(?:\/\*[^*\n]*\*\/\s*)?)?(?:(default)\s+)?(?:declare\s+)?(?:abstract\s+)?(?:(async)\s+)?([\w$]+)/;
const FUNCTION_NAME = /^\s*\*?\s*([\w$]+)/;
const SPACED_NAME = /^\s+([\w$]+)/;
const TYPE_NAME = /^\s+([\w$]+)\s*[<=]/;
const CONST_ENUM = /^\s+enum\s+([\w$]+)/;
const NAMESPACE_NAME = /^\s+([\w$.]+)/;
const NAMESPACE_STRING = /^\s+['"]/;
const FROM_MODULE = /\bfrom\s*(['"])([^'"\n]*)\1/;
const SIDE_EFFECT_IMPORT = /^import\s*(['"])([^'"\n]*)\1/;
const IMPORT_EQUALS = /^import\s+(?:type\s+)?[\w$]+\s*=/;
const EXPORT_BRACE_OR_STAR = /^export\s+(?:type\s+)?([{*])/;
const EXPORT_DEFAULT_NAME = /^export\s+default\s+([\w$]+)\s*;?\s*$/;
const EXPORT_ASSIGN_NAME = /^export\s*=\s*([\w$]+)/;
const CJS_EXPORT_PROPERTY = /^(?:module\.)?exports\.([\w$]+)\s*=/;
const CJS_EXPORT_NAME = /^module\.exports\s*=\s*([\w$]+)\s*;?\s*$/;
const CJS_EXPORT_OBJECT = /^module\.exports\s*=\s*\{/;
const TRAILING_IDENTIFIER = /^\s*([\w$]+)\s*;?\s*$/;
// In a class body a method's name is followed by `(`, by `<…>(`, or by a `<` ending the line (type
// parameters on the next lines). A bare `Name<…>,` is a type argument of a multi-line signature.
const METHOD =
  /^((?:(?:public|private|protected|static|readonly|abstract|override|async|declare|accessor)\s+)*)(?:[gs]et\s+)?(?:\*\s*)?(#?[\w$]+)\s*[?!]?\s*(?:\(|<(?:[^\n]*>\s*\(|\s*$))/;
const PROPERTY =
  /^((?:(?:public|private|protected|static|readonly|override|declare|accessor)\s+)*)(#?[\w$]+)\s*[?!]?\s*[:=]/;
const PRIVATE_MODIFIER = /\b(?:private|protected)\s/;
const ASYNC_PREFIX = /^async\b\s*/;
const ARROW_FROM_NAME = /^[\w$]+\s*=>/;
/**
 * How far past its line an initializer's `(` is followed to its `)`, to tell multi-line arrow
 * parameters from a parenthesised expression (JSX, a condition). Longer parameter lists are rare.
 */
const PARAMS_LOOKAHEAD_CHARS = 2000;
/** What may follow a declared variable's name; `const T extends` in a type parameter list is not one. */
const AFTER_VARIABLE_NAME = /^\s*(?:[!:=;,]|$)/;

export function extractTypeScript(text: string): Extraction {
  return new TypeScriptScanner(text).run();
}

interface Frame {
  /** The brace stack's length once this frame's brace is open. */
  depth: number;
  /** The class or namespace name; '' for `declare module 'x'`, whose members get no parent. */
  name: string;
  exported: boolean;
  parenDepth: number;
}

/**
 * One file's scan. The per-line tests and the character loop are separate methods so that the
 * loop, which sees every character, is small enough to be optimized early in a fresh worker.
 */
class TypeScriptScanner {
  readonly #text: string;
  readonly #symbols: SymbolDef[] = [];
  readonly #imports: ImportRef[] = [];
  readonly #exportedNames = new Set<string>();
  // Methods that stay unexported even when their class is exported by a later export list.
  readonly #hiddenMethods = new Set<SymbolDef>();

  #lineNo = 0;
  /** Where the current line starts: a regex literal is told from a division within its line. */
  #lineStart = 0;
  #mode = MODE_CODE;
  #stringQuote = 0;
  #commentEnd = 0;
  #parenDepth = 0;
  // The brace stack: one kind per open brace; class and namespace braces also get a frame.
  readonly #kinds: number[] = [];
  // The parenthesis depth at each open brace, restored when it closes: a `(` left open by a
  // file saved mid-edit, or by a misread regex, is forgotten at the end of its block.
  readonly #parensAtBrace: number[] = [];
  readonly #frames: Frame[] = [];
  // A class or namespace header seen, waiting for its opening brace.
  #pendingKind = SCOPE_BLOCK;
  #pendingName = '';
  #pendingExported = false;
  #pendingParen = 0;
  // `<…>` depth in a pending header, so `class A<T = {}> {` opens its body at the last brace.
  #pendingAngle = 0;
  // A statement whose module string, or whose closing `}`, comes on a later line.
  #pendingImportLine = 0;
  #pendingListLine = 0;
  #pendingListText = '';
  #pendingListCommonJs = false;

  constructor(text: string) {
    this.#text = text;
  }

  /**
   * One pass over the text. The newline is one of the characters the loop stops at, so lines
   * are found by the same scan that tracks state, and a line's end is looked up only for the
   * few lines that are tested (those directly at the top level, in a namespace or a class body).
   */
  run(): Extraction {
    const text = this.#text;
    const len = text.length;
    let k = this.#startLine(len > 0 && text.charCodeAt(0) === 0xfeff ? 1 : 0);
    while (k < len) {
      const mode = this.#mode;
      if (mode === MODE_CODE) {
        // Most characters change no state: skip them in a tight loop. It never reads past the
        // end: an out-of-range read (NaN) would turn the table lookup generic, and slow, for good.
        const stops = this.#pendingKind === SCOPE_BLOCK ? SPECIAL : SPECIAL_IN_HEADER;
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
          this.#kinds.push(SCOPE_TEMPLATE_EXPR);
          this.#parensAtBrace.push(this.#parenDepth);
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
        const close = skipQuoted(text, k - 1, this.#stringQuote);
        if (close < 0) k = this.#startLine(-close);
        else {
          this.#mode = MODE_CODE;
          k = text.charCodeAt(close) === 10 ? close : close + 1;
        }
      }
    }
    this.#applyExportLists();
    return { symbols: this.#symbols, imports: this.#imports };
  }

  /** Starts the line at `pos`: counts it, tests it if it starts in code, and returns where scanning resumes. */
  #startLine(pos: number): number {
    this.#lineNo++;
    this.#lineStart = pos;
    if (this.#mode !== MODE_CODE) return pos;
    const kinds = this.#kinds;
    const top = kinds.length === 0 ? -1 : kinds[kinds.length - 1]!;
    // Most lines are inside a function or an object: nothing to test, unless a statement is open.
    const untested = top === SCOPE_BLOCK || top === SCOPE_TEMPLATE_EXPR;
    if (untested && this.#pendingImportLine === 0 && this.#pendingListLine === 0) return pos;
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
    if (this.#pendingImportLine !== 0) this.#continueImport(text.slice(i, lineEnd(text, i)));
    else if (this.#pendingListLine !== 0) this.#continueList(text.slice(i, lineEnd(text, i)));
    if (untested) return i;
    const frame = top === -1 ? undefined : this.#frames[this.#frames.length - 1]!;
    if (this.#parenDepth !== (frame === undefined ? 0 : frame.parenDepth)) return i;
    if (top === SCOPE_CLASS) {
      if (c !== 64 && c !== 91 && c !== 125 && c !== 47) {
        const end = lineEnd(text, i);
        this.#classMember(text.slice(i, end), end, frame!);
      }
    } else if (c >= 97 && c <= 122) {
      const end = lineEnd(text, i);
      this.#declaration(text.slice(i, end), end, frame?.name || undefined);
    }
    return i;
  }

  /** A line at the top level or in a namespace body: declarations, imports, exports. */
  #declaration(line: string, end: number, parent: string | undefined): void {
    const lineNo = this.#lineNo;
    if (line.startsWith('import')) {
      const after = line.charCodeAt(6);
      // `import(` and `import.meta` are expressions; the character loop handles `import(`.
      if (after !== 40 && after !== 46 && !IMPORT_EQUALS.test(line)) {
        const found = FROM_MODULE.exec(line) ?? SIDE_EFFECT_IMPORT.exec(line);
        if (found !== null) this.#imports.push({ module: found[2]!, line: lineNo });
        else if (!line.includes(';')) this.#pendingImportLine = lineNo;
      }
      return;
    }
    if (line.startsWith('export') && EXPORT_BRACE_OR_STAR.test(line)) {
      const from = FROM_MODULE.exec(line);
      this.#pendingListCommonJs = false;
      if (from !== null) this.#imports.push({ module: from[2]!, line: lineNo });
      else if (line.includes('}')) this.#finishList(line, lineNo);
      else if (!line.includes(';')) {
        if (line.includes('{')) this.#startList(line, lineNo);
        else this.#pendingImportLine = lineNo;
      }
      return;
    }
    if (line.startsWith('module.') || line.startsWith('exports.')) {
      this.#commonJsExport(line, end);
      return;
    }
    if (line.startsWith('export')) {
      const named = EXPORT_DEFAULT_NAME.exec(line) ?? EXPORT_ASSIGN_NAME.exec(line);
      if (named !== null && !DECLARATION_WORDS.has(named[1]!)) {
        this.#exportedNames.add(named[1]!);
        return;
      }
    }
    const head = HEAD.exec(line);
    if (head === null) return;
    const exported = head[1] !== undefined;
    const word = head[4]!;
    const rest = line.slice(head[0].length);
    let m: RegExpExecArray | null;
    switch (word) {
      case 'function':
        if ((m = FUNCTION_NAME.exec(rest)) !== null) this.#add(m[1]!, 'function', exported, parent);
        break;
      case 'class':
        m = SPACED_NAME.exec(rest);
        if (m !== null && m[1] !== 'extends' && m[1] !== 'implements') {
          this.#add(m[1]!, 'class', exported, parent);
          this.#expectBody(SCOPE_CLASS, m[1]!, exported);
        } else this.#expectBody(SCOPE_CLASS, 'default', exported);
        break;
      case 'interface':
        if ((m = SPACED_NAME.exec(rest)) !== null) this.#add(m[1]!, 'interface', exported, parent);
        break;
      case 'type':
        if ((m = TYPE_NAME.exec(rest)) !== null) this.#add(m[1]!, 'type', exported, parent);
        break;
      case 'enum':
        if ((m = SPACED_NAME.exec(rest)) !== null) this.#add(m[1]!, 'enum', exported, parent);
        break;
      case 'const':
      case 'let':
      case 'var':
        if (word === 'const' && (m = CONST_ENUM.exec(rest)) !== null) {
          this.#add(m[1]!, 'enum', exported, parent);
        } else if ((m = SPACED_NAME.exec(rest)) !== null && AFTER_VARIABLE_NAME.test(rest.slice(m[0].length))) {
          const kind = valueKind(rest.slice(m[0].length), this.#text, end);
          // let/var are state, not definitions, unless they hold a function or class.
          if (kind !== null && (kind !== 'const' || word === 'const')) this.#add(m[1]!, kind, exported, parent);
          if (kind === 'class') this.#expectBody(SCOPE_CLASS, m[1]!, exported);
        }
        break;
      case 'namespace':
      case 'module':
        if ((m = NAMESPACE_NAME.exec(rest)) !== null) {
          this.#add(m[1]!, 'module', exported, parent);
          this.#expectBody(SCOPE_NAMESPACE, m[1]!, exported);
        } else if (NAMESPACE_STRING.test(rest)) {
          // `declare module 'x' {`: its body declares things, but the block has no name of its own.
          this.#expectBody(SCOPE_NAMESPACE, parent ?? '', false);
        }
        break;
    }
  }

  /** A line directly in a class body: methods, accessors, and properties holding functions. */
  #classMember(line: string, end: number, frame: Frame): void {
    const method = METHOD.exec(line);
    let name: string | undefined;
    let modifiers = '';
    if (method !== null) {
      name = method[2]!;
      modifiers = method[1]!;
    } else {
      const property = PROPERTY.exec(line);
      if (property !== null && valueKind(line.slice(property[0].length - 1), this.#text, end) === 'function') {
        name = property[2]!;
        modifiers = property[1]!;
      }
    }
    if (name === undefined || name === 'constructor') return;
    const hidden = name.charCodeAt(0) === 35 || (modifiers.length > 0 && PRIVATE_MODIFIER.test(modifiers));
    const symbol = this.#add(name, 'method', frame.exported && !hidden, frame.name);
    if (hidden) this.#hiddenMethods.add(symbol);
  }

  #commonJsExport(line: string, end: number): void {
    const property = CJS_EXPORT_PROPERTY.exec(line);
    if (property !== null) {
      const value = TRAILING_IDENTIFIER.exec(line.slice(property[0].length));
      if (value !== null) this.#exportedNames.add(value[1]!);
      else if (valueKind(line.slice(property[0].length - 1), this.#text, end) === 'function') {
        this.#add(property[1]!, 'function', true, undefined);
      }
      return;
    }
    const name = CJS_EXPORT_NAME.exec(line);
    if (name !== null) this.#exportedNames.add(name[1]!);
    else if (CJS_EXPORT_OBJECT.test(line)) {
      this.#pendingListCommonJs = true;
      if (line.includes('}')) this.#finishList(line, this.#lineNo);
      else this.#startList(line, this.#lineNo);
    }
  }

  #continueImport(line: string): void {
    const from = FROM_MODULE.exec(line);
    if (from !== null) {
      this.#imports.push({ module: from[2]!, line: this.#pendingImportLine });
      this.#pendingImportLine = 0;
    } else if (line.includes(';')) this.#pendingImportLine = 0;
  }

  #startList(line: string, lineNo: number): void {
    this.#pendingListLine = lineNo;
    this.#pendingListText = line;
  }

  #continueList(line: string): void {
    this.#pendingListText += ' ' + line;
    if (!line.includes('}')) return;
    this.#finishList(this.#pendingListText, this.#pendingListLine);
    this.#pendingListLine = 0;
    this.#pendingListText = '';
  }

  /** An export list (`export { a, b as c }`) or CommonJS export object is complete. */
  #finishList(listText: string, line: number): void {
    const from = FROM_MODULE.exec(listText);
    if (from !== null) {
      this.#imports.push({ module: from[2]!, line });
      return;
    }
    const open = listText.indexOf('{');
    const close = listText.indexOf('}', open + 1);
    const list = listText.slice(open + 1, close < 0 ? listText.length : close);
    markListed(list, this.#pendingListCommonJs, this.#exportedNames);
  }

  #add(name: string, kind: SymbolKind, exported: boolean, parent: string | undefined): SymbolDef {
    const symbols = this.#symbols;
    const last = symbols[symbols.length - 1];
    // Overload signatures repeat the name; the first line is where a reader starts.
    if (last !== undefined && last.name === name && last.kind === kind && last.parent === parent) return last;
    const line = this.#lineNo;
    const symbol: SymbolDef =
      parent === undefined ? { name, kind, line, exported } : { name, kind, line, exported, parent };
    symbols.push(symbol);
    return symbol;
  }

  /** A class or namespace header: its body is the next `{` at the same parenthesis depth. */
  #expectBody(kind: number, name: string, exported: boolean): void {
    this.#pendingKind = kind;
    this.#pendingName = name;
    this.#pendingExported = exported;
    this.#pendingParen = this.#parenDepth;
    this.#pendingAngle = 0;
  }

  /** `export { a }`, `export default A` and CommonJS exports name earlier (or later) declarations. */
  #applyExportLists(): void {
    if (this.#exportedNames.size === 0) return;
    const promoted = new Set<string>();
    for (const symbol of this.#symbols) {
      if (!symbol.exported && symbol.parent === undefined && this.#exportedNames.has(symbol.name)) {
        symbol.exported = true;
        if (symbol.kind === 'class') promoted.add(symbol.name);
      }
    }
    for (const symbol of this.#symbols) {
      if (symbol.kind === 'method' && promoted.has(symbol.parent!) && !this.#hiddenMethods.has(symbol)) {
        symbol.exported = true;
      }
    }
  }

  /** Handles the state-changing character `c` at `k` in code; returns where scanning resumes. */
  #special(c: number, k: number): number {
    const text = this.#text;
    switch (c) {
      case 10: // \n
        return this.#startLine(k + 1);
      case 39: // '
      case 34: {
        // "
        const close = skipQuoted(text, k, c);
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
      case 60: // <
        if (this.#pendingKind !== SCOPE_BLOCK) this.#pendingAngle++;
        return k + 1;
      case 62: // >
        if (this.#pendingKind !== SCOPE_BLOCK && this.#pendingAngle > 0 && text.charCodeAt(k - 1) !== 61) {
          this.#pendingAngle--;
        }
        return k + 1;
      case 123: // {
        this.#openBrace();
        return k + 1;
      case 125: // }
        if (this.#closeBrace() === SCOPE_TEMPLATE_EXPR) this.#mode = MODE_TEMPLATE;
        return k + 1;
      case 40: {
        // (
        const before = text.charCodeAt(k - 1);
        if (before === 101 || before === 116) {
          const module = requiredModule(text, k);
          if (module !== null) this.#imports.push({ module, line: this.#lineNo });
        }
        this.#parenDepth++;
        return k + 1;
      }
      case 41: // )
        if (this.#parenDepth > 0) this.#parenDepth--;
        return k + 1;
      default: // ;
        // `declare module 'x';` has no body: the header must not claim a later brace.
        if (this.#parenDepth === this.#pendingParen) this.#pendingKind = SCOPE_BLOCK;
        return k + 1;
    }
  }

  #openBrace(): void {
    const kinds = this.#kinds;
    if (this.#pendingKind !== SCOPE_BLOCK && this.#parenDepth === this.#pendingParen && this.#pendingAngle === 0) {
      kinds.push(this.#pendingKind);
      this.#frames.push({
        depth: kinds.length,
        name: this.#pendingName,
        exported: this.#pendingExported,
        parenDepth: this.#parenDepth,
      });
      this.#pendingKind = SCOPE_BLOCK;
    } else kinds.push(SCOPE_BLOCK);
    this.#parensAtBrace.push(this.#parenDepth);
  }

  /** Closes the innermost brace and returns its kind (-1 for a stray `}`). */
  #closeBrace(): number {
    const kinds = this.#kinds;
    if (kinds.length === 0) return -1;
    const frames = this.#frames;
    if (frames.length > 0 && frames[frames.length - 1]!.depth === kinds.length) frames.pop();
    this.#parenDepth = this.#parensAtBrace.pop()!;
    return kinds.pop()!;
  }
}

/** Words that follow `export default` as a declaration, not as the name of one. */
const DECLARATION_WORDS = new Set(['function', 'class', 'async', 'abstract', 'interface', 'enum', 'const', 'new']);

/**
 * What a declared name holds, judged from the text after the name (`: Type = value`) to the end
 * of its line at `lineEnd` in `text`: a function (function expression or arrow), a class
 * expression, or any other value; null for a binding of `require()` or `await import()`, which
 * is an import, not a definition.
 */
function valueKind(afterName: string, text: string, lineEnd: number): SymbolKind | null {
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

/** Marks the local names of an export list (`a, b as c, type D`) or CommonJS object (`a, b: c`). */
function markListed(list: string, commonJs: boolean, into: Set<string>): void {
  for (const part of list.split(',')) {
    let item = part.trim();
    if (item.length === 0) continue;
    if (commonJs) {
      const colon = item.indexOf(':');
      if (colon >= 0) item = item.slice(colon + 1).trim();
    } else if (item.startsWith('type ')) item = item.slice(5).trim();
    let end = 0;
    while (end < item.length && isIdentifierChar(item.charCodeAt(end))) end++;
    if (end > 0) into.add(item.slice(0, end));
  }
}

/** The module named by `require('x')` or `import('x')` whose `(` is at `open`, or null. */
function requiredModule(text: string, open: number): string | null {
  const before = text.charCodeAt(open - 1);
  let start: number;
  if (before === 101 && text.startsWith('require', open - 7)) start = open - 7;
  else if (before === 116 && text.startsWith('import', open - 6)) start = open - 6;
  else return null;
  const prior = text.charCodeAt(start - 1);
  if (isIdentifierChar(prior) || prior === 46) return null;
  let i = open + 1;
  while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
  const quote = text.charCodeAt(i);
  if (quote !== 39 && quote !== 34 && quote !== 96) return null;
  let close = i + 1;
  for (;;) {
    const c = text.charCodeAt(close);
    // A computed specifier (an escape, a `${…}`) names no module we can record.
    if (c === quote) break;
    if (c === 10 || c === 92 || c !== c || (c === 36 && quote === 96)) return null;
    close++;
  }
  let j = close + 1;
  while (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9) j++;
  const after = text.charCodeAt(j);
  // `'./x/' + name` is computed too: only a whole argument is a module.
  return after === 41 || after === 44 ? text.slice(i + 1, close) : null;
}

/** Index of the `\n` ending the line that contains `from`, less a `\r` before it. */
function lineEnd(text: string, from: number): number {
  let nl = text.indexOf('\n', from);
  if (nl < 0) nl = text.length;
  return nl > from && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
}

/**
 * Index of the quote that closes the string opening at `open`; of the `\n` (or the text's end)
 * where an unterminated string stops; or, when a backslash continues the string on the next
 * line, minus the index of that next line's start.
 */
function skipQuoted(text: string, open: number, quote: number): number {
  const len = text.length;
  for (let i = open + 1; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c === quote || c === 10) return i;
    if (c === 92) {
      const next = text.charCodeAt(i + 1);
      if (next === 10) return -(i + 2);
      if (next === 13 && text.charCodeAt(i + 2) === 10) return -(i + 3);
      i++;
    }
  }
  return len;
}

/** Index of the slash that closes the regex literal opening at `open`, or of the line's end. */
function skipRegex(text: string, open: number): number {
  const len = text.length;
  let inClass = false;
  for (let i = open + 1; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) return i;
    if (c === 92) {
      if (text.charCodeAt(i + 1) !== 10) i++;
    } else if (inClass) {
      if (c === 93) inClass = false;
    } else if (c === 91) inClass = true;
    else if (c === 47) return i;
  }
  return len;
}

/** Whether the slash at `at` starts a regex literal, judged by the token before it on its line. */
function slashStartsRegex(text: string, at: number, lineStart: number): boolean {
  let p = at - 1;
  while (p >= lineStart) {
    const c = text.charCodeAt(p);
    if (c !== 32 && c !== 9) break;
    p--;
  }
  if (p < lineStart) return true;
  const c = text.charCodeAt(p);
  // After a value a slash divides; after `<` it closes a JSX tag (`</div>`), and after `}` a
  // `/>` closes a JSX element (`<A b={c} />`) where a regex would be `/>/` after an operator.
  if (c === 41 || c === 93 || c === 39 || c === 34 || c === 96 || c === 60) return false;
  if (c === 125 && text.charCodeAt(at + 1) === 62) return false;
  if (!isIdentifierChar(c)) return true;
  let s = p;
  while (s > lineStart && isIdentifierChar(text.charCodeAt(s - 1))) s--;
  return p - s < 10 && REGEX_AFTER_WORD.has(text.slice(s, p + 1));
}

function isIdentifierChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36 || c > 127;
}
