/**
 * Python definitions and imports, without a parser.
 *
 * Python's structure is its indentation, so the scanner keeps a stack of the open `class` and
 * `def` blocks with their indent and pops it on each dedent: a `def` whose nearest open block is
 * a class is that class's method; a `def` or `class` inside a `def` is local: reported (a reader
 * looks up a test's helper or a closure by name, and ctags and tree-sitter's tags call it a
 * definition), never exported and without a parent, and a local class's defs are its methods.
 * Only logical line starts count: a line inside a triple-quoted string, inside open brackets, or
 * after a backslash continuation is neither a definition nor a dedent. One character loop carries that
 * state; the line tests are short regexes anchored at the first non-blank character.
 *
 * Python has no export keyword; a name is exported unless it starts with `_` (the convention
 * `from m import *` and linters follow), and a member is exported only if its class is.
 */
import { stopTable } from './line-lexer.js';
import { isNameChar, PYTHON_KEYWORDS, ReferenceSink } from './reference-sink.js';
import { symbolDef } from './symbol-def.js';
import type { Extraction, ImportRef, SymbolDef } from './types.js';

/** Python's tab stops (the tokenizer's rule): a tab advances the indent to the next multiple of 8. */
const TAB_WIDTH = 8;

const BLOCK_CLASS = 0;
const BLOCK_DEF = 1;

const SPECIAL = stopTable('#\'"()[]{}\\');

const DEF = /^(?:async\s+)?def\s+([A-Za-z_\u00C0-\uFFFF][\w\u00C0-\uFFFF]*)/;
const CLASS = /^class\s+([A-Za-z_\u00C0-\uFFFF][\w\u00C0-\uFFFF]*)/;
const IMPORT = /^import\s+([^#;\n]+)/;
// One class for dots and name characters: `\.*[\w.]*` would backtrack quadratically on a run of dots.
const FROM_IMPORT = /^from\s+([\w.]+)\s+import\b/;
/** Module-level constants by convention: UPPER_CASE names, optionally annotated. */
const CONSTANT = /^([A-Z_][A-Z0-9_]*)\s*(?::[^=\n]*)?=(?!=)/;
const TYPE_ALIAS = /^type\s+([A-Za-z_]\w*)\s*(?:\[[^\]\n]*\])?\s*=/;
const HAS_LETTER = /[A-Z]/;
/** The names a `from m import a, b as c` brings in (a parenthesised list's first line only). */
const FROM_NAMES = /\bimport\s+\(?([^#;\n]*)/;
const IMPORTED_NAME = /([A-Za-z_][\w]*)(?:\s+as\s+\w+)?/g;
/** A class's bases: `class A(b.Base, Mixin, metaclass=M):`, each by its last segment. */
const BASES = /^class\s+\w+\s*\(([^)\n]*)/;
const BASE_NAME = /([A-Za-z_]\w*)\s*(?=[,)=]|$)/g;
const DECORATOR = /^@\s*(?:[\w]+\s*\.\s*)*([A-Za-z_]\w*)/;

interface Block {
  indent: number;
  kind: number;
  name: string;
  exported: boolean;
}

export function extractPython(text: string): Extraction {
  const symbols: SymbolDef[] = [];
  const imports: ImportRef[] = [];
  const blocks: Block[] = [];
  const refs = new ReferenceSink(PYTHON_KEYWORDS);
  const len = text.length;
  // The indent of the current logical line: a reference deeper than a definition's is inside it.
  let lineIndent = 0;

  // 0, or the quote character of the triple-quoted string the scan is inside.
  let tripleQuote = 0;
  let tripleEnd = 0;
  // 0, or the quote character of a one-line string continued by a backslash at the line's end.
  let lineQuote = 0;
  let bracketDepth = 0;
  let continued = false;

  let lineNo = 0;
  let pos = len > 0 && text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (pos <= len) {
    lineNo++;
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = len;
    const end = nl > pos && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;

    if (tripleQuote === 0 && lineQuote === 0 && (bracketDepth > 0 || continued) && startsDefinition(text, pos, end)) {
      // `def` and `class` are statements and never appear inside brackets: the bracket was left
      // open (a file saved mid-edit), and forgetting it here keeps the rest of the file readable.
      bracketDepth = 0;
      continued = false;
    }
    if (tripleQuote === 0 && lineQuote === 0 && bracketDepth === 0 && !continued) {
      let indent = 0;
      let i = pos;
      for (; i < end; i++) {
        const c = text.charCodeAt(i);
        if (c === 32) indent++;
        else if (c === 9) indent = (Math.floor(indent / TAB_WIDTH) + 1) * TAB_WIDTH;
        else if (c !== 12) break;
      }
      const first = text.charCodeAt(i);
      if (i < end && first !== 35) {
        lineIndent = indent;
        while (blocks.length > 0 && blocks[blocks.length - 1]!.indent >= indent) blocks.pop();
        const top = blocks[blocks.length - 1];
        const symbolsFrom = symbols.length;
        if (first === 64) {
          const m = DECORATOR.exec(text.slice(i, end));
          if (m !== null) refs.add(m[1]!, lineNo, 'decorator', indent);
        }
        // Only lines whose first letter can begin a definition or an import are sliced and
        // tested, each with the one pattern its first letter allows.
        const candidate =
          first === 97 || first === 99 || first === 100 || first === 102 || first === 105 ||
          (top === undefined && ((first >= 65 && first <= 90) || first === 95 || first === 116));
        if (candidate) {
          const line = text.slice(i, end);
          let m: RegExpExecArray | null;
          if (first === 100 || first === 97) {
            // def, async def
            if ((m = DEF.exec(line)) !== null) {
              const name = m[1]!;
              if (top === undefined) {
                push(symbols, name, 'function', lineNo, isPublic(name), undefined);
                blocks.push({ indent, kind: BLOCK_DEF, name, exported: isPublic(name) });
              } else if (top.kind === BLOCK_CLASS) {
                const exported = top.exported && isPublic(name);
                push(symbols, name, 'method', lineNo, exported, top.name);
                blocks.push({ indent, kind: BLOCK_DEF, name, exported });
              } else {
                push(symbols, name, 'function', lineNo, false, undefined);
                blocks.push({ indent, kind: BLOCK_DEF, name, exported: false });
              }
            }
          } else if (first === 99) {
            if ((m = CLASS.exec(line)) !== null) {
              const name = m[1]!;
              if (top === undefined || top.kind === BLOCK_CLASS) {
                const exported = (top === undefined || top.exported) && isPublic(name);
                push(symbols, name, 'class', lineNo, exported, top?.name);
                blocks.push({ indent, kind: BLOCK_CLASS, name, exported });
              } else {
                push(symbols, name, 'class', lineNo, false, undefined);
                blocks.push({ indent, kind: BLOCK_CLASS, name, exported: false });
              }
            }
          } else if (first === 102) {
            if ((m = FROM_IMPORT.exec(line)) !== null) {
              imports.push({ module: m[1]!, line: lineNo });
              const names = FROM_NAMES.exec(line.slice(m[0].length - 6));
              if (names !== null) {
                IMPORTED_NAME.lastIndex = 0;
                for (let n = IMPORTED_NAME.exec(names[1]!); n !== null; n = IMPORTED_NAME.exec(names[1]!)) refs.add(n[1]!, lineNo, 'other', 0);
              }
            }
          } else if (first === 105) {
            if ((m = IMPORT.exec(line)) !== null) {
              for (const part of m[1]!.split(',')) {
                const module = part.trim().split(/\s/, 1)[0]!;
                if (module.length > 0 && module !== '\\') imports.push({ module, line: lineNo });
              }
            }
          } else if (first === 116) {
            if ((m = TYPE_ALIAS.exec(line)) !== null) push(symbols, m[1]!, 'type', lineNo, isPublic(m[1]!), undefined);
          } else if ((m = CONSTANT.exec(line)) !== null && HAS_LETTER.test(m[1]!)) {
            push(symbols, m[1]!, 'const', lineNo, isPublic(m[1]!), undefined);
          }
          if (symbols.length > symbolsFrom) {
            const def = symbols[symbols.length - 1]!;
            refs.defined(def.name, indent, lineNo);
            if (def.kind === 'class') {
              const bases = BASES.exec(line);
              if (bases !== null) {
                BASE_NAME.lastIndex = 0;
                for (let b = BASE_NAME.exec(bases[1]!); b !== null; b = BASE_NAME.exec(bases[1]!)) refs.add(b[1]!, lineNo, 'inherit', indent);
              }
            } else if (def.kind === 'function' || def.kind === 'method') refs.typesIn(line, lineNo, 'type', indent, def.name);
          }
        }
      }
    }

    // The character loop: strings, comments, brackets and continuations.
    continued = false;
    let k = pos;
    if (lineQuote !== 0) {
      const quote = lineQuote;
      lineQuote = 0;
      k = skipQuoted(text, k - 1, end, quote);
      if (k < 0) {
        lineQuote = quote;
        k = end;
      } else k++;
    }
    while (k < end) {
      if (tripleQuote !== 0) {
        if (tripleEnd + 3 > end) {
          k = end;
          break;
        }
        k = tripleEnd + 3;
        tripleQuote = 0;
        continue;
      }
      // Most characters change no state: skip them in a tight loop.
      let c = text.charCodeAt(k);
      while (c >= 128 || SPECIAL[c] === 0) {
        if (++k >= end) break;
        c = text.charCodeAt(k);
      }
      if (k >= end) break;
      if (c === 35) break; // a comment runs to the end of the line
      if (c === 39 || c === 34) {
        if (text.charCodeAt(k + 1) === c && text.charCodeAt(k + 2) === c) {
          const quote = c === 34 ? '"""' : "'''";
          tripleEnd = text.indexOf(quote, k + 3);
          if (tripleEnd < 0) tripleEnd = len;
          tripleQuote = c;
          k += 3;
          continue;
        }
        const close = skipQuoted(text, k, end, c);
        if (close < 0) {
          lineQuote = c;
          break;
        }
        k = close + 1;
        continue;
      }
      if (c === 92) {
        if (k + 1 >= end) continued = true;
        k += 2;
        continue;
      }
      if (c === 40 && isNameChar(text.charCodeAt(k - 1))) refs.callAt(text, k, lineNo, lineIndent);
      if (c === 40 || c === 91 || c === 123) bracketDepth++;
      else if (bracketDepth > 0) bracketDepth--;
      k++;
    }

    if (nl >= len) break;
    pos = nl + 1;
  }
  return { symbols, imports, references: refs.references };
}

const DEFINITION_START = /^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+[A-Za-z_\u00C0-\uFFFF]/;

/** Whether the line from `start` to `end` begins a `def` or `class` (checked only inside brackets). */
function startsDefinition(text: string, start: number, end: number): boolean {
  const c = text.charCodeAt(start);
  // Most continuation lines start with neither; skip the slice for them.
  if (c !== 32 && c !== 9 && c !== 97 && c !== 99 && c !== 100) return false;
  return DEFINITION_START.test(text.slice(start, Math.min(end, start + 200)));
}

function isPublic(name: string): boolean {
  return name.charCodeAt(0) !== 95;
}

function push(
  symbols: SymbolDef[],
  name: string,
  kind: SymbolDef['kind'],
  line: number,
  exported: boolean,
  parent: string | undefined,
): void {
  symbols.push(symbolDef(name, kind, line, exported, parent));
}

/**
 * Index of the quote closing the string opened at `open`; `end` when the line ends first (an
 * unterminated string), or -1 when a backslash at the line's end continues it on the next line.
 */
function skipQuoted(text: string, open: number, end: number, quote: number): number {
  for (let i = open + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) {
      if (i + 1 >= end) return -1;
      i++;
    } else if (c === quote) return i;
  }
  return end;
}
