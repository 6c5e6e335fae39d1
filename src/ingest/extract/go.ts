/**
 * Go definitions and imports, without a parser.
 *
 * Go declarations that matter to a reader all sit at the top level of a file, so the scanner
 * only needs to know, per line, whether it starts in code (not in a block comment or a raw
 * string), at brace depth 0, and whether it is inside a parenthesised `import (`, `const (`,
 * `var (` or `type (` group. One character loop carries that; the line tests are short regexes
 * anchored at the first non-blank character, so cost is linear in the file.
 *
 * Exported is Go's own rule: the name starts with an upper-case letter. A method's parent is
 * its receiver's base type (`(c *Cache)`, `(l *List[T])` give `Cache`, `List`). Package-level
 * `var`s are reported as `const` (the closest kind the code map has for a named value).
 */
import { isWordChar, skipPast, skipQuoted, stopTable } from './line-lexer.js';
import { GO_KEYWORDS, isNameChar, ReferenceSink } from './reference-sink.js';
import { symbolDef } from './symbol-def.js';
import type { Extraction, ImportRef, SymbolDef, SymbolKind } from './types.js';

const SPECIAL = stopTable('/"\'`{}()');

const GROUP_NONE = 0;
const GROUP_IMPORT = 1;
const GROUP_VALUE = 2;
const GROUP_TYPE = 3;

const METHOD = /^func\s*\(\s*(?:[A-Za-z_]\w*\s+)?\*?\s*([A-Za-z_]\w*)\s*(?:\[[^\]\n]*\])?\s*\)\s*([A-Za-z_]\w*)/;
const FUNC = /^func\s+([A-Za-z_]\w*)/;
const GROUP_START = /^(import|const|var|type)\s*\(/;
const IMPORT = /^import\s+(?:[\w.]+\s+)?"([^"\n]*)"/;
const IMPORT_SPEC = /^(?:[\w.]+\s+)?"([^"\n]*)"/;
const VALUE = /^(?:const|var)\s+/;
const NAMES = /^[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*/;
const TYPE = /^type\s+/;
const NAME = /^[A-Za-z_]\w*/;

export function extractGo(text: string): Extraction {
  const symbols: SymbolDef[] = [];
  const imports: ImportRef[] = [];
  const refs = new ReferenceSink(GO_KEYWORDS);
  const len = text.length;

  // Inside a block comment or raw string the scan resumes at this index.
  let resumeAt = 0;
  let braceDepth = 0;
  let parenDepth = 0;
  // The parenthesis depth at each open brace, restored when it closes, so a `(` left open by a
  // file saved mid-edit is forgotten at the end of its block.
  const parensAtBrace: number[] = [];
  let group = GROUP_NONE;

  let lineNo = 0;
  let pos = len > 0 && text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (pos <= len) {
    lineNo++;
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = len;
    const end = nl > pos && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;

    if (resumeAt <= pos && braceDepth === 0) {
      if (parenDepth === 0) group = GROUP_NONE;
      // Inline rather than line-lexer's skipBlanks, which measured slower here (see line-lexer.ts).
      let i = pos;
      while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
      const first = text.charCodeAt(i);
      if (i < end && first !== 47 && first !== 41) {
        const line = text.slice(i, end);
        const symbolsFrom = symbols.length;
        let m: RegExpExecArray | null;
        if (group !== GROUP_NONE && parenDepth === 1) {
          if (group === GROUP_IMPORT) {
            if ((m = IMPORT_SPEC.exec(line)) !== null) imports.push({ module: m[1]!, line: lineNo });
          } else if (group === GROUP_VALUE) {
            if ((m = NAMES.exec(line)) !== null) pushNames(symbols, m[0], lineNo);
          } else if ((m = NAME.exec(line)) !== null) {
            push(symbols, m[0], typeKind(line.slice(m[0].length)), lineNo, undefined);
          }
        } else if (parenDepth === 0 && first >= 97 && first <= 122) {
          if ((m = METHOD.exec(line)) !== null) push(symbols, m[2]!, 'method', lineNo, m[1]);
          else if ((m = FUNC.exec(line)) !== null) push(symbols, m[1]!, 'function', lineNo, undefined);
          else if ((m = GROUP_START.exec(line)) !== null) {
            const word = m[1]!;
            group = word === 'import' ? GROUP_IMPORT : word === 'type' ? GROUP_TYPE : GROUP_VALUE;
          } else if ((m = IMPORT.exec(line)) !== null) imports.push({ module: m[1]!, line: lineNo });
          else if ((m = VALUE.exec(line)) !== null) {
            const names = NAMES.exec(line.slice(m[0].length));
            if (names !== null) pushNames(symbols, names[0], lineNo);
          } else if ((m = TYPE.exec(line)) !== null) {
            const rest = line.slice(m[0].length);
            const name = NAME.exec(rest);
            if (name !== null) push(symbols, name[0], typeKind(rest.slice(name[0].length)), lineNo, undefined);
          }
        }
        if (symbols.length > symbolsFrom) refs.afterLine(symbols, symbolsFrom, imports, imports.length, line, lineNo, 0, false);
      }
    }

    // The character loop: comments, strings, runes, raw strings, braces and parentheses.
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
        case 39:
          k = skipQuoted(text, k, end, c) + 1;
          continue;
        case 96:
          resumeAt = skipPast(text, '`', k + 1);
          k = resumeAt;
          continue;
        case 123:
          braceDepth++;
          parensAtBrace.push(parenDepth);
          break;
        case 125:
          if (braceDepth > 0) {
            braceDepth--;
            parenDepth = parensAtBrace.pop()!;
          }
          break;
        case 40:
          if (isNameChar(text.charCodeAt(k - 1))) refs.callAt(text, k, lineNo, braceDepth);
          parenDepth++;
          break;
        case 41:
          if (parenDepth > 0) parenDepth--;
          break;
      }
      k++;
    }

    if (nl >= len) break;
    pos = nl + 1;
  }
  return { symbols, imports, references: refs.references };
}

/**
 * The kind of a type declaration from the text after its name: `= T` is an alias, `struct` and
 * `interface` name themselves, anything else is a defined type. Type parameters (`[T any]`) are
 * skipped; an array or slice type (`[]int`, `[4]byte`) is not type parameters.
 */
function typeKind(afterName: string): SymbolKind {
  let rest = afterName.trimStart();
  if (rest.charCodeAt(0) === 91) {
    const close = rest.indexOf(']');
    const params = close < 0 ? '' : rest.slice(1, close);
    if (params.includes(' ') || params.includes(',')) rest = rest.slice(close + 1).trimStart();
  }
  if (rest.startsWith('struct') && !isWordChar(rest.charCodeAt(6))) return 'struct';
  if (rest.startsWith('interface') && !isWordChar(rest.charCodeAt(9))) return 'interface';
  return 'type';
}

function pushNames(symbols: SymbolDef[], list: string, line: number): void {
  for (const part of list.split(',')) {
    const name = part.trim();
    if (name !== '_') push(symbols, name, 'const', line, undefined);
  }
}

function push(symbols: SymbolDef[], name: string, kind: SymbolKind, line: number, parent: string | undefined): void {
  symbols.push(symbolDef(name, kind, line, isExported(name), parent));
}

/** Go's rule: an identifier is exported when its first character is an upper-case letter. */
function isExported(name: string): boolean {
  const c = name.charCodeAt(0);
  if (c < 128) return c >= 65 && c <= 90;
  const first = String.fromCodePoint(name.codePointAt(0)!);
  return first !== first.toLowerCase() && first === first.toUpperCase();
}
