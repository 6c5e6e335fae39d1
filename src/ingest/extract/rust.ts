/**
 * Rust definitions and imports, without a parser.
 *
 * Items are found by short regexes anchored at each line's first non-blank character; one
 * character loop carries what a line cannot know alone. Rust makes that loop a little richer
 * than the C family's: block comments nest, ordinary strings may span lines, raw strings
 * (`r#"…"#`) end only at a quote followed by as many `#`, and a quote may open a char literal
 * (`'"'`) or be a lifetime (`'a`). The brace stack tells whether a line is at item level (the
 * file or an inline `mod`), or directly in an `impl` or `trait` body, whose `fn`s are methods of
 * the implementing type or trait.
 *
 * Exported is a bare `pub` (`pub(crate)` and friends stay inside the crate). Methods of a trait,
 * and of a trait impl, are as visible as the trait itself, so they count as exported. A `use`
 * tree becomes one import per leaf path (`use a::{b, c::d}` gives `a::b` and `a::c::d`).
 */
import type { Extraction, ImportRef, SymbolDef, SymbolKind } from './types.js';

const MODE_CODE = 0;
const MODE_COMMENT = 1;
const MODE_STRING = 2;

const SCOPE_BLOCK = 0;
const SCOPE_MOD = 1;
const SCOPE_IMPL = 2;
const SCOPE_TRAIT = 3;

/** A `use` statement longer than this is not a real one; it is dropped rather than parsed. */
const USE_STATEMENT_MAX_CHARS = 16_384;

const SPECIAL = new Uint8Array(128);
for (const ch of '/"\'{}();') SPECIAL[ch.charCodeAt(0)] = 1;

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

interface Frame {
  depth: number;
  name: string;
  exported: boolean;
  /** For an impl: `impl Trait for Type` (its methods are as visible as the trait). */
  traitImpl: boolean;
}

export function extractRust(text: string): Extraction {
  const symbols: SymbolDef[] = [];
  const imports: ImportRef[] = [];
  const len = text.length;

  let mode = MODE_CODE;
  let commentDepth = 0;
  // Inside a raw string the scan resumes at this index.
  let resumeAt = 0;
  let parenDepth = 0;
  const kinds: number[] = [];
  // The parenthesis depth at each open brace, restored when it closes, so a `(` left open by a
  // file saved mid-edit is forgotten at the end of its block.
  const parensAtBrace: number[] = [];
  const frames: Frame[] = [];
  let pendingKind = SCOPE_BLOCK;
  let pendingFrame: Frame | undefined;
  let pendingParen = 0;
  // A `use` statement whose `;` is on a later line.
  let useText = '';
  let useLine = 0;

  let lineNo = 0;
  let pos = len > 0 && text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (pos <= len) {
    lineNo++;
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = len;
    const end = nl > pos && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;

    if (mode === MODE_CODE && resumeAt <= pos) {
      let i = pos;
      while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
      const first = text.charCodeAt(i);
      if (useLine !== 0 && i < end) {
        useText += ' ' + stripLineComment(text.slice(i, end));
        useText = finishUse(useText, useLine, imports);
        if (useText === '') useLine = 0;
      } else if (i < end && first >= 97 && first <= 122 && (!inBody(kinds) || mayImport(first))) {
        const top = kinds.length === 0 ? -1 : kinds[kinds.length - 1]!;
        const frame = top === SCOPE_BLOCK || top === -1 ? undefined : frames[frames.length - 1]!;
        let line = text.slice(i, end);
        const visibility = VISIBILITY.exec(line);
        const exported = visibility !== null && visibility[1] === undefined;
        if (visibility !== null) line = line.slice(visibility[0].length);
        const qualifiers = QUALIFIERS.exec(line);
        if (qualifiers !== null) line = line.slice(qualifiers[0].length);
        const item = ITEM.exec(line);
        if (item !== null) {
          const word = item[1]!;
          const rest = line.slice(word.length);
          if (word === 'use') {
            useText = finishUse(stripLineComment(rest), lineNo, imports);
            if (useText !== '') useLine = lineNo;
          } else if (word === 'extern') {
            const crate = EXTERN_CRATE.exec(rest);
            if (crate !== null) imports.push({ module: crate[1]!, line: lineNo });
          } else if (parenDepth !== 0) {
            // An argument list left open: no item starts inside one.
          } else if (top === -1 || top === SCOPE_MOD) {
            if (word === 'impl') {
              pendingKind = SCOPE_IMPL;
              pendingFrame = implFrame(rest);
              pendingParen = parenDepth;
            } else {
              const name = (word === 'const' ? CONST_NAME : NAME).exec(rest);
              if (name !== null && name[1] !== '_') {
                push(symbols, name[1]!, ITEM_KIND[word]!, lineNo, exported, frame?.name);
                if (word === 'trait' || word === 'mod') {
                  pendingKind = word === 'trait' ? SCOPE_TRAIT : SCOPE_MOD;
                  pendingFrame = { depth: 0, name: name[1]!, exported, traitImpl: false };
                  pendingParen = parenDepth;
                }
              }
            }
          } else if (word === 'fn' && top !== SCOPE_BLOCK) {
            const name = NAME.exec(rest);
            if (name !== null) {
              const visible = top === SCOPE_TRAIT ? frame!.exported : frame!.traitImpl || exported;
              push(symbols, name[1]!, 'method', lineNo, visible, frame!.name);
            }
          }
        }
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
          const close = text.indexOf('"' + '#'.repeat(hashes), k + 1);
          resumeAt = close < 0 ? len : close + 1 + hashes;
          k = resumeAt;
          continue;
        }
        case 39:
          k = skipCharLiteral(text, k, end);
          continue;
        case 123:
          if (pendingKind !== SCOPE_BLOCK && parenDepth === pendingParen) {
            kinds.push(pendingKind);
            pendingFrame!.depth = kinds.length;
            frames.push(pendingFrame!);
            pendingKind = SCOPE_BLOCK;
          } else kinds.push(SCOPE_BLOCK);
          parensAtBrace.push(parenDepth);
          break;
        case 125:
          if (kinds.length > 0) {
            if (frames.length > 0 && frames[frames.length - 1]!.depth === kinds.length) frames.pop();
            kinds.pop();
            parenDepth = parensAtBrace.pop()!;
          }
          break;
        case 40:
          parenDepth++;
          break;
        case 41:
          if (parenDepth > 0) parenDepth--;
          break;
        case 59:
          // `mod x;` has no body: the header must not claim a later brace.
          if (parenDepth === pendingParen) pendingKind = SCOPE_BLOCK;
          break;
      }
      k++;
    }

    if (nl >= len) break;
    pos = nl + 1;
  }
  return { symbols, imports };
}

function inBody(kinds: number[]): boolean {
  return kinds.length > 0 && kinds[kinds.length - 1] === SCOPE_BLOCK;
}

/** In a function body only `use`, `pub use` and `extern crate` lines can matter. */
function mayImport(first: number): boolean {
  return first === 117 || first === 112 || first === 101;
}

function push(
  symbols: SymbolDef[],
  name: string,
  kind: SymbolKind,
  line: number,
  exported: boolean,
  parent: string | undefined,
): void {
  symbols.push(parent === undefined ? { name, kind, line, exported } : { name, kind, line, exported, parent });
}

/**
 * The frame of an `impl` from the text after the keyword: its self type's name (the last path
 * segment, without generics or references) and whether it implements a trait.
 */
function implFrame(afterImpl: string): Frame {
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

/**
 * Records the imports of a `use` tree (the text after `use`) once its `;` has been seen, and
 * returns ''; returns the text unchanged while the statement is still open.
 */
function finishUse(tree: string, line: number, imports: ImportRef[]): string {
  const semicolon = tree.indexOf(';');
  if (semicolon < 0) return tree.length > USE_STATEMENT_MAX_CHARS ? '' : tree;
  if (semicolon > USE_STATEMENT_MAX_CHARS) return '';
  for (const module of useLeaves(tree.slice(0, semicolon))) imports.push({ module, line });
  return '';
}

/** The leaf paths of a use tree, in source order, without recursion (trees can be nested deep). */
function useLeaves(tree: string): string[] {
  const leaves: string[] = [];
  const prefixes: string[] = [''];
  let path = '';
  let skipAlias = false;
  const emit = () => {
    if (path === '') return;
    const prefix = prefixes[prefixes.length - 1]!;
    const last = path.lastIndexOf('::');
    const tail = last < 0 ? path : path.slice(last + 2);
    let full = path;
    if (tail === 'self' || tail === '*') full = last < 0 ? '' : path.slice(0, last);
    full = prefix === '' ? full : full === '' ? prefix : prefix + '::' + full;
    if (full !== '') leaves.push(full);
    path = '';
  };
  const n = tree.length;
  let i = 0;
  while (i < n) {
    const c = tree.charCodeAt(i);
    if (isWordChar(c) || c === 42) {
      let j = i + 1;
      if (c !== 42) while (j < n && isWordChar(tree.charCodeAt(j))) j++;
      const word = tree.slice(i, j);
      i = j;
      if (skipAlias) skipAlias = false;
      else if (word === 'as') skipAlias = true;
      else path = path === '' ? word : path + '::' + word;
      continue;
    }
    if (c === 123) {
      const prefix = prefixes[prefixes.length - 1]!;
      prefixes.push(prefix === '' ? path : path === '' ? prefix : prefix + '::' + path);
      path = '';
    } else if (c === 44) emit();
    else if (c === 125) {
      emit();
      if (prefixes.length > 1) prefixes.pop();
    } else if (c === 114 && tree.charCodeAt(i + 1) === 35) i++; // r#ident
    i++;
  }
  emit();
  return leaves;
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

function stripLineComment(line: string): string {
  const at = line.indexOf('//');
  return at < 0 ? line : line.slice(0, at);
}

function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}
