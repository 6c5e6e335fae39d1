/**
 * The Rust line tests: what one line at item level (the file or an inline `mod`), or directly in
 * an `impl` or `trait` body, declares or imports. The scanner (rust.ts) calls them once per line
 * that starts in code; each test is a short regex anchored at the line's first non-blank
 * character, after its visibility and qualifiers (`pub(crate) async unsafe fn`).
 *
 * Exported is a bare `pub` (`pub(crate)` and friends stay inside the crate). Methods of a trait,
 * and of a trait impl, are as visible as the trait itself, so they count as exported. An `impl`
 * names its self type (`impl<T> Trait for a::B<T>` gives `B`), whose methods its `fn`s are.
 */
import { isWordChar, skipBlanks } from './line-lexer.js';
import { finishUse, stripLineComment } from './rust-use-tree.js';
import { SCOPE_BLOCK, type ScopeFrame, type ScopeStack } from './scope-stack.js';
import { symbolDef } from './symbol-def.js';
import type { ImportRef, SymbolDef, SymbolKind } from './types.js';

const SCOPE_MOD = 1;
const SCOPE_IMPL = 2;
const SCOPE_TRAIT = 3;

const VISIBILITY = /^pub(\s*\([^)\n]*\))?\s+/;
const QUALIFIERS = /^(?:(?:default|async|unsafe|const(?=\s+(?:fn|unsafe|async|extern)\b)|extern(?:\s+"[^"\n]*")?(?=\s+(?:fn|unsafe)\b))\s+)+/;
const ITEM = /^(fn|struct|enum|union|trait|type|const|static|mod|impl|use|extern)\b/;
const NAME = /^\s+(?:mut\s+)?(?:r#)?([A-Za-z_][\w]*)/;
const CONST_NAME = /^\s+([A-Za-z_][\w]*)\s*:/;
const EXTERN_CRATE = /^\s+crate\s+([A-Za-z_][\w]*)/;
const ITEM_KIND: Record<string, SymbolKind> = {
  fn: 'function',
  struct: 'struct',
  union: 'struct',
  enum: 'enum',
  trait: 'trait',
  type: 'type',
  const: 'const',
  static: 'const',
  mod: 'module',
};

/** An open `mod`, `impl` or `trait` body. */
export interface RustFrame extends ScopeFrame {
  name: string;
  exported: boolean;
  /** For an impl: `impl Trait for Type` (its methods are as visible as the trait). */
  traitImpl: boolean;
}

export class RustItems {
  readonly symbols: SymbolDef[] = [];
  readonly imports: ImportRef[] = [];
  readonly #scopes: ScopeStack<RustFrame>;
  // A `use` statement whose `;` is on a later line.
  #useText = '';
  #useLine = 0;

  constructor(scopes: ScopeStack<RustFrame>) {
    this.#scopes = scopes;
  }

  /** The line `lineNo` from `pos` to `end`, which starts in code. */
  readLine(text: string, pos: number, end: number, lineNo: number): void {
    const i = skipBlanks(text, pos, end);
    const first = text.charCodeAt(i);
    const scopes = this.#scopes;
    if (this.#useLine !== 0 && i < end) {
      this.#useText = finishUse(this.#useText + ' ' + stripLineComment(text.slice(i, end)), this.#useLine, this.imports);
      if (this.#useText === '') this.#useLine = 0;
      return;
    }
    if (i >= end || first < 97 || first > 122 || (inBody(scopes.kinds) && !mayImport(first))) return;
    const top = scopes.top();
    const frame = top === SCOPE_BLOCK || top === -1 ? undefined : scopes.innermostFrame();
    let line = text.slice(i, end);
    const visibility = VISIBILITY.exec(line);
    const exported = visibility !== null && visibility[1] === undefined;
    if (visibility !== null) line = line.slice(visibility[0].length);
    const qualifiers = QUALIFIERS.exec(line);
    if (qualifiers !== null) line = line.slice(qualifiers[0].length);
    const item = ITEM.exec(line);
    if (item === null) return;
    const word = item[1]!;
    const rest = line.slice(word.length);
    if (word === 'use') {
      this.#useText = finishUse(stripLineComment(rest), lineNo, this.imports);
      if (this.#useText !== '') this.#useLine = lineNo;
    } else if (word === 'extern') {
      const crate = EXTERN_CRATE.exec(rest);
      if (crate !== null) this.imports.push({ module: crate[1]!, line: lineNo });
    } else if (scopes.parenDepth !== 0) {
      // An argument list left open: no item starts inside one.
    } else if (top === -1 || top === SCOPE_MOD) {
      if (word === 'impl') scopes.expect(SCOPE_IMPL, implFrame(rest));
      else {
        const name = (word === 'const' ? CONST_NAME : NAME).exec(rest);
        if (name !== null && name[1] !== '_') {
          this.symbols.push(symbolDef(name[1]!, ITEM_KIND[word]!, lineNo, exported, frame?.name));
          if (word === 'trait' || word === 'mod') {
            const kind = word === 'trait' ? SCOPE_TRAIT : SCOPE_MOD;
            scopes.expect(kind, { depth: 0, name: name[1]!, exported, traitImpl: false });
          }
        }
      }
    } else if (word === 'fn' && top !== SCOPE_BLOCK) {
      const name = NAME.exec(rest);
      if (name !== null) {
        const visible = top === SCOPE_TRAIT ? frame!.exported : frame!.traitImpl || exported;
        this.symbols.push(symbolDef(name[1]!, 'method', lineNo, visible, frame!.name));
      }
    }
  }
}

function inBody(kinds: number[]): boolean {
  return kinds.length > 0 && kinds[kinds.length - 1] === SCOPE_BLOCK;
}

/** In a function body only `use`, `pub use` and `extern crate` lines can matter. */
function mayImport(first: number): boolean {
  return first === 117 || first === 112 || first === 101;
}

/**
 * The frame of an `impl` from the text after the keyword: its self type's name (the last path
 * segment, without generics or references) and whether it implements a trait.
 */
function implFrame(afterImpl: string): RustFrame {
  let i = 0;
  const n = afterImpl.length;
  while (i < n && afterImpl.charCodeAt(i) === 32) i++;
  if (afterImpl.charCodeAt(i) === 60) i = skipAngles(afterImpl, i);
  // Find ` for ` outside angle brackets; the self type follows it.
  let depth = 0;
  let typeStart = i;
  let traitImpl = false;
  for (let j = i; j < n; j++) {
    const c = afterImpl.charCodeAt(j);
    if (c === 60) depth++;
    else if (c === 62 && afterImpl.charCodeAt(j - 1) !== 45) depth--;
    else if (c === 123) break;
    else if (
      depth === 0 &&
      c === 102 &&
      afterImpl.startsWith('for', j) &&
      !isWordChar(afterImpl.charCodeAt(j - 1)) &&
      !isWordChar(afterImpl.charCodeAt(j + 3))
    ) {
      typeStart = j + 3;
      traitImpl = true;
      break;
    }
  }
  return { depth: 0, name: typeName(afterImpl, typeStart), exported: true, traitImpl };
}

/** The last path segment of the type starting at `from`: `&'a mut a::B<T>` gives `B`. */
function typeName(text: string, from: number): string {
  let i = from;
  const n = text.length;
  let name = '';
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 38 || c === 40 || c === 91) {
      i++;
      continue;
    }
    if (c === 39) {
      // a lifetime: skip it
      i++;
      while (i < n && isWordChar(text.charCodeAt(i))) i++;
      continue;
    }
    if (!isWordChar(c)) break;
    let j = i;
    while (j < n && isWordChar(text.charCodeAt(j))) j++;
    const word = text.slice(i, j);
    i = j;
    if (word === 'mut' || word === 'dyn' || word === 'impl') continue;
    name = word;
    if (text.startsWith('::', i)) i += 2;
    else break;
  }
  return name;
}

/** Index just past the `>` that closes the `<` at `open` (an arrow's `>` does not count). */
function skipAngles(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 60) depth++;
    else if (c === 62 && text.charCodeAt(i - 1) !== 45 && --depth === 0) return i + 1;
  }
  return text.length;
}
