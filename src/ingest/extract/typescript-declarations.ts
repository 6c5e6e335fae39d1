/**
 * The TypeScript and JavaScript line tests: what one line, directly at the top level, in a
 * namespace or in a class body, declares, imports or exports. The scanner (typescript.ts) calls
 * them once per such line, with the line sliced from its first non-blank character; each test is
 * a short regex anchored there, and none runs across lines.
 *
 * An import or export list may run onto later lines (`import {` … `} from 'x'`): it stays open
 * here, and the scanner hands over the lines that follow until it closes. Exports that name a
 * declaration elsewhere are applied once the whole file has been read (typescript-export-names.ts).
 */
import type { ReferenceSink } from './reference-sink.js';
import type { ScopeFrame } from './scope-stack.js';
import { symbolDef } from './symbol-def.js';
import type { Extraction, ImportRef, SymbolDef, SymbolKind } from './types.js';
import { ExportNames } from './typescript-export-names.js';
import type { FunctionExpression } from './typescript-function-expressions.js';
import { valueKind } from './typescript-value-kind.js';

export const SCOPE_CLASS = 1;
export const SCOPE_NAMESPACE = 2;

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
/** What may follow a declared variable's name; `const T extends` in a type parameter list is not one. */
const AFTER_VARIABLE_NAME = /^\s*(?:[!:=;,]|$)/;
/** Words that follow `export default` as a declaration, not as the name of one. */
const DECLARATION_WORDS = new Set(['function', 'class', 'async', 'abstract', 'interface', 'enum', 'const', 'new']);
/** The names an import or re-export clause brings in: each name, or the one before its `as`. */
const CLAUSE_NAME = /([\w$]+)(?:\s+as\s+[\w$]+)?/g;
/** Words of an import clause that name nothing imported. */
const CLAUSE_WORDS = new Set(['import', 'export', 'type', 'typeof', 'from', 'default', 'as']);
const STAR_AS = /\*\s*as\s+[\w$]+/;

/** An open class or namespace body. */
export interface TypeScriptFrame extends ScopeFrame {
  /** The class or namespace name; '' for `declare module 'x'`, whose members get no parent. */
  name: string;
  exported: boolean;
  parenDepth: number;
}

/** Where a class or namespace header is announced, so the scanner can open its body at its brace. */
export interface BodyHeaders {
  expectBody(kind: number, name: string, exported: boolean): void;
}

export class TypeScriptDeclarations {
  readonly #text: string;
  readonly #headers: BodyHeaders;
  readonly #symbols: SymbolDef[] = [];
  readonly #imports: ImportRef[] = [];
  readonly #exportNames = new ExportNames();
  readonly #refs: ReferenceSink;
  /** The brace depth of the line being read: where a definition found on it opens. */
  #depth = 0;
  // A statement whose module string, or whose closing `}`, comes on a later line.
  #pendingImportLine = 0;
  #pendingListLine = 0;
  #pendingListText = '';
  #pendingListCommonJs = false;
  /** The line and name of the last declaration a line test read (kept or folded into an overload). */
  #declaredLine = 0;
  #declaredName = '';
  /** The last definition a line test added. */
  #lineDeclared: SymbolDef | undefined = undefined;

  constructor(text: string, headers: BodyHeaders, refs: ReferenceSink) {
    this.#text = text;
    this.#headers = headers;
    this.#refs = refs;
  }

  /** The names an import or re-export clause (`{ a, b as c }`, `D, * as ns`) brings from its module. */
  #clauseNames(clause: string, line: number): void {
    // `* as ns` binds a local name only; what the file uses of it is read at each `ns.x(`.
    const names = clause.includes('*') ? clause.replace(STAR_AS, '') : clause;
    CLAUSE_NAME.lastIndex = 0;
    for (let m = CLAUSE_NAME.exec(names); m !== null; m = CLAUSE_NAME.exec(names)) {
      if (!CLAUSE_WORDS.has(m[1]!)) this.#refs.add(m[1]!, line, 'other', 0);
    }
  }

  /** Whether an import or export list is still open, so the next line goes on with it. */
  hasOpenStatement(): boolean {
    return this.#pendingImportLine !== 0 || this.#pendingListLine !== 0;
  }

  /** The next line of an open import or export list, from its first non-blank character. */
  continueStatement(line: string, lineNo: number): void {
    if (this.#pendingImportLine !== 0) this.#continueImport(line, lineNo);
    else if (this.#pendingListLine !== 0) this.#continueList(line);
  }

  /** A `require('x')` or `import('x')` call, which can sit anywhere. */
  addImport(module: string, line: number): void {
    this.#imports.push({ module, line });
  }

  /** A line at the top level or in a namespace body: declarations, imports, exports. */
  declaration(line: string, lineNo: number, end: number, parent: string | undefined, depth: number): void {
    this.#depth = depth;
    if (line.startsWith('import')) {
      const after = line.charCodeAt(6);
      // `import(` and `import.meta` are expressions; the character loop handles `import(`.
      if (after !== 40 && after !== 46 && !IMPORT_EQUALS.test(line)) {
        const found = FROM_MODULE.exec(line) ?? SIDE_EFFECT_IMPORT.exec(line);
        if (found !== null) {
          this.#imports.push({ module: found[2]!, line: lineNo });
          if (found.index > 6) this.#clauseNames(line.slice(6, found.index), lineNo);
        } else if (!line.includes(';')) {
          this.#pendingImportLine = lineNo;
          this.#clauseNames(line.slice(6), lineNo);
        }
      }
      return;
    }
    if (line.startsWith('export') && EXPORT_BRACE_OR_STAR.test(line)) {
      const from = FROM_MODULE.exec(line);
      this.#pendingListCommonJs = false;
      if (from !== null) {
        this.#imports.push({ module: from[2]!, line: lineNo });
        // `export * from`: the file passes on every name of the module; `*` marks it a barrel.
        if (line.charCodeAt(EXPORT_BRACE_OR_STAR.exec(line)![0].length - 1) === 42) this.#refs.add('*', lineNo, 'other', 0);
        else this.#clauseNames(line.slice(6, from.index), lineNo);
      } else if (line.includes('}')) this.#finishList(line, lineNo);
      else if (!line.includes(';')) {
        if (line.includes('{')) this.#startList(line, lineNo);
        else this.#pendingImportLine = lineNo;
      }
      return;
    }
    if (line.startsWith('module.') || line.startsWith('exports.')) {
      this.#commonJsExport(line, lineNo, end);
      return;
    }
    if (line.startsWith('export')) {
      const named = EXPORT_DEFAULT_NAME.exec(line) ?? EXPORT_ASSIGN_NAME.exec(line);
      if (named !== null && !DECLARATION_WORDS.has(named[1]!)) {
        this.#exportNames.add(named[1]!);
        return;
      }
    }
    const head = HEAD.exec(line);
    if (head === null) return;
    const exported = head[1] !== undefined;
    const word = head[4]!;
    const rest = line.slice(head[0].length);
    const before = this.#symbols.length;
    this.#declared(word, rest, lineNo, end, exported, parent);
    if (this.#symbols.length > before || word === 'class') {
      this.#refs.lineTypes(rest, lineNo, depth, this.#symbols.length > before ? this.#symbols[this.#symbols.length - 1]!.name : undefined);
    }
  }

  #declared(word: string, rest: string, lineNo: number, end: number, exported: boolean, parent: string | undefined): void {
    let m: RegExpExecArray | null;
    switch (word) {
      case 'function':
        if ((m = FUNCTION_NAME.exec(rest)) !== null) this.#add(m[1]!, 'function', lineNo, exported, parent);
        break;
      case 'class':
        m = SPACED_NAME.exec(rest);
        if (m !== null && m[1] !== 'extends' && m[1] !== 'implements') {
          this.#add(m[1]!, 'class', lineNo, exported, parent);
          this.#headers.expectBody(SCOPE_CLASS, m[1]!, exported);
        } else this.#headers.expectBody(SCOPE_CLASS, 'default', exported);
        break;
      case 'interface':
        // Its body is read as a class body: a method signature is a method (tree-sitter's tags agree).
        if ((m = SPACED_NAME.exec(rest)) !== null) {
          this.#add(m[1]!, 'interface', lineNo, exported, parent);
          this.#headers.expectBody(SCOPE_CLASS, m[1]!, exported);
        }
        break;
      case 'type':
        if ((m = TYPE_NAME.exec(rest)) !== null) this.#add(m[1]!, 'type', lineNo, exported, parent);
        break;
      case 'enum':
        if ((m = SPACED_NAME.exec(rest)) !== null) this.#add(m[1]!, 'enum', lineNo, exported, parent);
        break;
      case 'const':
      case 'let':
      case 'var':
        if (word === 'const' && (m = CONST_ENUM.exec(rest)) !== null) {
          this.#add(m[1]!, 'enum', lineNo, exported, parent);
        } else if ((m = SPACED_NAME.exec(rest)) !== null && AFTER_VARIABLE_NAME.test(rest.slice(m[0].length))) {
          const kind = valueKind(rest.slice(m[0].length), this.#text, end);
          // let/var are state, not definitions, unless they hold a function or class.
          if (kind !== null && (kind !== 'const' || word === 'const')) this.#add(m[1]!, kind, lineNo, exported, parent);
          if (kind === 'class') this.#headers.expectBody(SCOPE_CLASS, m[1]!, exported);
        }
        break;
      case 'namespace':
      case 'module':
        if ((m = NAMESPACE_NAME.exec(rest)) !== null) {
          this.#add(m[1]!, 'module', lineNo, exported, parent);
          this.#headers.expectBody(SCOPE_NAMESPACE, m[1]!, exported);
        } else if (NAMESPACE_STRING.test(rest)) {
          // `declare module 'x' {`: its body declares things, but the block has no name of its own.
          this.#headers.expectBody(SCOPE_NAMESPACE, parent ?? '', false);
        }
        break;
    }
  }

  /** A line directly in a class body: methods, accessors, and properties holding functions. */
  classMember(line: string, lineNo: number, end: number, frame: TypeScriptFrame, depth: number): void {
    this.#depth = depth;
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
    if (name === undefined) {
      if (PROPERTY.test(line)) this.#refs.typesIn(line, lineNo, 'type', depth, undefined);
      return;
    }
    if (name !== 'constructor') {
      const hidden = name.charCodeAt(0) === 35 || (modifiers.length > 0 && PRIVATE_MODIFIER.test(modifiers));
      const symbol = this.#add(name, 'method', lineNo, frame.exported && !hidden, frame.name);
      if (hidden) this.#exportNames.hide(symbol);
    }
    this.#refs.typesIn(line, lineNo, 'type', depth, name);
  }

  /**
   * A function found at its `(` (typescript-function-expressions.ts) at brace depth `depth`,
   * unless this line's test already declared it (`export function f(` at the top level). It is
   * local: never exported, and no export list of the file names it.
   */
  functionExpression(fn: FunctionExpression, lineNo: number, depth: number): void {
    if (this.#declaredLine === lineNo && this.#declaredName === fn.name) return;
    const symbols = this.#symbols;
    const symbol = symbolDef(fn.name, fn.kind, lineNo, false, fn.parent);
    symbols.push(symbol);
    this.#refs.defined(fn.name, depth, lineNo);
    if (fn.parent === undefined) this.#exportNames.hide(symbol);
  }

  /** The file's definitions and imports, once `export { a }`, `export default A` and CommonJS exports have named theirs. */
  finish(): Extraction {
    this.#exportNames.applyTo(this.#symbols);
    return { symbols: this.#symbols, imports: this.#imports };
  }

  #commonJsExport(line: string, lineNo: number, end: number): void {
    const property = CJS_EXPORT_PROPERTY.exec(line);
    if (property !== null) {
      const value = TRAILING_IDENTIFIER.exec(line.slice(property[0].length));
      if (value !== null) this.#exportNames.add(value[1]!);
      else if (valueKind(line.slice(property[0].length - 1), this.#text, end) === 'function') {
        this.#add(property[1]!, 'function', lineNo, true, undefined);
      }
      return;
    }
    const name = CJS_EXPORT_NAME.exec(line);
    if (name !== null) this.#exportNames.add(name[1]!);
    else if (CJS_EXPORT_OBJECT.test(line)) {
      this.#pendingListCommonJs = true;
      if (line.includes('}')) this.#finishList(line, lineNo);
      else this.#startList(line, lineNo);
    }
  }

  #continueImport(line: string, lineNo: number): void {
    const from = FROM_MODULE.exec(line);
    this.#clauseNames(from === null ? line : line.slice(0, from.index), lineNo);
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
      this.#clauseNames(listText.slice(6, from.index), line);
      return;
    }
    const open = listText.indexOf('{');
    const close = listText.indexOf('}', open + 1);
    const list = listText.slice(open + 1, close < 0 ? listText.length : close);
    this.#exportNames.addList(list, this.#pendingListCommonJs);
  }

  #add(name: string, kind: SymbolKind, line: number, exported: boolean, parent: string | undefined): SymbolDef {
    this.#declaredLine = line;
    this.#declaredName = name;
    const symbols = this.#symbols;
    const last = symbols[symbols.length - 1];
    // Overload signatures repeat the name; the first line is where a reader starts. A local
    // function of the same name before this one is no overload of it.
    if (last !== undefined && last === this.#lineDeclared && last.name === name && last.kind === kind && last.parent === parent) return last;
    const symbol = symbolDef(name, kind, line, exported, parent);
    symbols.push(symbol);
    this.#lineDeclared = symbol;
    this.#refs.defined(name, this.#depth, line);
    return symbol;
  }
}
