/**
 * TypeScript and JavaScript definitions and imports, without a parser.
 *
 * Extraction runs over every changed file in a burst (1000 files of ~8 KB in ~20 ms on one
 * thread), so it is one pass: each line is tested once with short regexes anchored at its first
 * non-blank character, and one character loop carries what a line cannot know alone: whether it
 * starts inside a block comment or a template literal, and the brace stack that says whether a
 * line sits at the top level, in a namespace, or directly in a class body. Regex literals are
 * told from division by the token before the slash, as parsers do. Nothing is matched across
 * lines and no regex has nested quantifiers, so a 200 KB minified line costs one linear scan.
 *
 * It is a scanner, not a parser: only top-level and namespace declarations and class members
 * are reported, and code it cannot read (JSX text with an apostrophe, a division it takes for a
 * regex) loses at most the rest of that line.
 */
import type { Extraction, ImportRef, SymbolDef, SymbolKind } from './types.js';

const MODE_CODE = 0;
const MODE_BLOCK_COMMENT = 1;
const MODE_TEMPLATE = 2;

const SCOPE_BLOCK = 0;
const SCOPE_CLASS = 1;
const SCOPE_NAMESPACE = 2;
const SCOPE_TEMPLATE_EXPR = 3;

/** Characters the code loop must look at; every other ASCII character is skipped at once. */
const SPECIAL = new Uint8Array(128);
for (const ch of '\'"`/{}();') SPECIAL[ch.charCodeAt(0)] = 1;

/** After these words a slash starts a regex literal, not a division. */
const REGEX_AFTER_WORD = new Set([
  'return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await',
]);

const HEAD = /^(?:(export)\s+)?(?:(default)\s+)?(?:declare\s+)?(?:abstract\s+)?(?:(async)\s+)?([\w$]+)/;
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
const METHOD =
  /^((?:(?:public|private|protected|static|readonly|abstract|override|async|declare|accessor)\s+)*)(?:[gs]et\s+)?(?:\*\s*)?(#?[\w$]+)\s*[?!]?\s*(?:<[^(\n]*>\s*)?\(/;
const PROPERTY =
  /^((?:(?:public|private|protected|static|readonly|override|declare|accessor)\s+)*)(#?[\w$]+)\s*[?!]?\s*[:=]/;
const PRIVATE_MODIFIER = /\b(?:private|protected)\s/;
const ASYNC_PREFIX = /^async\b\s*/;
const ARROW_FROM_NAME = /^[\w$]+\s*=>/;

export function extractTypeScript(text: string): Extraction {
  const symbols: SymbolDef[] = [];
  const imports: ImportRef[] = [];
  const exportedNames = new Set<string>();
  // Methods that stay unexported even when their class is exported by a later export list.
  const hiddenMethods = new Set<SymbolDef>();
  const len = text.length;

  let mode = MODE_CODE;
  let commentEnd = 0;
  let parenDepth = 0;
  // The brace stack: one kind per open brace; class and namespace braces also get a frame.
  const kinds: number[] = [];
  const frames: { depth: number; name: string; exported: boolean; parenDepth: number }[] = [];
  // A class or namespace header seen, waiting for its opening brace.
  let pendingKind = SCOPE_BLOCK;
  let pendingName = '';
  let pendingExported = false;
  let pendingParen = 0;
  // A statement whose module string comes on a later line.
  let pendingImportLine = 0;
  let pendingListLine = 0;
  let pendingListText = '';
  let pendingListCommonJs = false;

  const addSymbol = (name: string, kind: SymbolKind, line: number, exported: boolean, parent: string | undefined) => {
    const last = symbols[symbols.length - 1];
    // Overload signatures repeat the name; the first line is where a reader starts.
    if (last !== undefined && last.name === name && last.kind === kind && last.parent === parent) return;
    symbols.push(parent === undefined ? { name, kind, line, exported } : { name, kind, line, exported, parent });
  };

  const finishList = (listText: string, line: number) => {
    const from = FROM_MODULE.exec(listText);
    if (from !== null) {
      imports.push({ module: from[2]!, line });
      return;
    }
    const open = listText.indexOf('{');
    const close = listText.indexOf('}', open + 1);
    markListed(listText.slice(open + 1, close < 0 ? listText.length : close), pendingListCommonJs, exportedNames);
  };

  let lineNo = 0;
  let pos = len > 0 && text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (pos <= len) {
    lineNo++;
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = len;
    const end = nl > pos && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;

    if (mode === MODE_CODE) {
      let i = pos;
      while (i < end) {
        const c = text.charCodeAt(i);
        if (c !== 32 && c !== 9 && c !== 12 && c !== 11) break;
        i++;
      }
      if (i < end) {
        if (pendingImportLine !== 0) {
          const line = text.slice(i, end);
          const from = FROM_MODULE.exec(line);
          if (from !== null) {
            imports.push({ module: from[2]!, line: pendingImportLine });
            pendingImportLine = 0;
          } else if (line.includes(';')) {
            pendingImportLine = 0;
          }
        } else if (pendingListLine !== 0) {
          const line = text.slice(i, end);
          pendingListText += ' ' + line;
          if (line.includes('}')) {
            finishList(pendingListText, pendingListLine);
            pendingListLine = 0;
            pendingListText = '';
          }
        }

        const c = text.charCodeAt(i);
        const top = kinds.length === 0 ? -1 : kinds[kinds.length - 1]!;
        const frame = top === SCOPE_CLASS || top === SCOPE_NAMESPACE ? frames[frames.length - 1]! : undefined;
        const frameParen = frame === undefined ? 0 : frame.parenDepth;

        if (parenDepth === frameParen && (top === -1 || top === SCOPE_NAMESPACE) && c >= 97 && c <= 122) {
          // Top level or namespace body: declarations, imports, exports.
          const line = text.slice(i, end);
          const parent = frame?.name;
          if (line.startsWith('import')) {
            const after = line.charCodeAt(6);
            // `import(` and `import.meta` are expressions; the code loop handles `import(`.
            if (after !== 40 && after !== 46 && !IMPORT_EQUALS.test(line)) {
              const found = FROM_MODULE.exec(line) ?? SIDE_EFFECT_IMPORT.exec(line);
              if (found !== null) imports.push({ module: found[2]!, line: lineNo });
              else if (!line.includes(';')) pendingImportLine = lineNo;
            }
          } else if (line.startsWith('export') && EXPORT_BRACE_OR_STAR.test(line)) {
            const from = FROM_MODULE.exec(line);
            if (from !== null) imports.push({ module: from[2]!, line: lineNo });
            else if (line.includes('}')) {
              pendingListCommonJs = false;
              finishList(line, lineNo);
            } else if (!line.includes(';')) {
              pendingListCommonJs = false;
              if (line.includes('{')) {
                pendingListLine = lineNo;
                pendingListText = line;
              } else {
                pendingImportLine = lineNo;
              }
            }
          } else if (line.startsWith('module.') || line.startsWith('exports.')) {
            const property = CJS_EXPORT_PROPERTY.exec(line);
            if (property !== null) {
              const rest = line.slice(property[0].length - 1);
              const value = TRAILING_IDENTIFIER.exec(line.slice(property[0].length));
              if (value !== null) exportedNames.add(value[1]!);
              else if (valueKind(rest) === 'function') addSymbol(property[1]!, 'function', lineNo, true, undefined);
            } else {
              const name = CJS_EXPORT_NAME.exec(line);
              if (name !== null) exportedNames.add(name[1]!);
              else if (CJS_EXPORT_OBJECT.test(line)) {
                pendingListCommonJs = true;
                if (line.includes('}')) finishList(line, lineNo);
                else {
                  pendingListLine = lineNo;
                  pendingListText = line;
                }
              }
            }
          } else {
            const named = EXPORT_DEFAULT_NAME.exec(line) ?? EXPORT_ASSIGN_NAME.exec(line);
            if (named !== null && !DECLARATION_WORDS.has(named[1]!)) exportedNames.add(named[1]!);
            else {
              const head = HEAD.exec(line);
              if (head !== null) {
                const exported = head[1] !== undefined;
                const word = head[4]!;
                const rest = line.slice(head[0].length);
                let m: RegExpExecArray | null;
                switch (word) {
                  case 'function':
                    if ((m = FUNCTION_NAME.exec(rest)) !== null) addSymbol(m[1]!, 'function', lineNo, exported, parent);
                    break;
                  case 'class':
                    m = SPACED_NAME.exec(rest);
                    pendingKind = SCOPE_CLASS;
                    pendingName = 'default';
                    pendingExported = exported;
                    pendingParen = parenDepth;
                    if (m !== null && m[1] !== 'extends' && m[1] !== 'implements') {
                      pendingName = m[1]!;
                      addSymbol(m[1]!, 'class', lineNo, exported, parent);
                    }
                    break;
                  case 'interface':
                    if ((m = SPACED_NAME.exec(rest)) !== null) addSymbol(m[1]!, 'interface', lineNo, exported, parent);
                    break;
                  case 'type':
                    if ((m = TYPE_NAME.exec(rest)) !== null) addSymbol(m[1]!, 'type', lineNo, exported, parent);
                    break;
                  case 'enum':
                    if ((m = SPACED_NAME.exec(rest)) !== null) addSymbol(m[1]!, 'enum', lineNo, exported, parent);
                    break;
                  case 'const':
                  case 'let':
                  case 'var':
                    if (word === 'const' && (m = CONST_ENUM.exec(rest)) !== null) {
                      addSymbol(m[1]!, 'enum', lineNo, exported, parent);
                    } else if ((m = SPACED_NAME.exec(rest)) !== null) {
                      const kind = valueKind(rest.slice(m[0].length));
                      // let/var are state, not definitions, unless they hold a function or class.
                      if (kind !== null && (kind !== 'const' || word === 'const')) {
                        addSymbol(m[1]!, kind, lineNo, exported, parent);
                      }
                      if (kind === 'class') {
                        pendingKind = SCOPE_CLASS;
                        pendingName = m[1]!;
                        pendingExported = exported;
                        pendingParen = parenDepth;
                      }
                    }
                    break;
                  case 'namespace':
                  case 'module':
                    if ((m = NAMESPACE_NAME.exec(rest)) !== null) {
                      addSymbol(m[1]!, 'module', lineNo, exported, parent);
                      pendingKind = SCOPE_NAMESPACE;
                      pendingName = m[1]!;
                      pendingExported = exported;
                      pendingParen = parenDepth;
                    } else if (NAMESPACE_STRING.test(rest)) {
                      // `declare module 'x' {`: its body declares things, but the block has no name of its own.
                      pendingKind = SCOPE_NAMESPACE;
                      pendingName = parent ?? '';
                      pendingExported = false;
                      pendingParen = parenDepth;
                    }
                    break;
                }
              }
            }
          }
        } else if (top === SCOPE_CLASS && parenDepth === frameParen && c !== 64 && c !== 91 && c !== 125) {
          // Directly in a class body: methods, accessors, and properties holding functions.
          const line = text.slice(i, end);
          const method = METHOD.exec(line);
          let name: string | undefined;
          let modifiers = '';
          if (method !== null) {
            name = method[2]!;
            modifiers = method[1]!;
          } else {
            const property = PROPERTY.exec(line);
            if (property !== null && valueKind(line.slice(property[0].length - 1)) === 'function') {
              name = property[2]!;
              modifiers = property[1]!;
            }
          }
          if (name !== undefined && name !== 'constructor') {
            const hidden = name.charCodeAt(0) === 35 || (modifiers.length > 0 && PRIVATE_MODIFIER.test(modifiers));
            addSymbol(name, 'method', lineNo, frame!.exported && !hidden, frame!.name);
            if (hidden) hiddenMethods.add(symbols[symbols.length - 1]!);
          }
        }
      }
    }

    // The code loop: carries comment, string, template and brace state across the line.
    let k = pos;
    while (k < end) {
      if (mode === MODE_BLOCK_COMMENT) {
        if (commentEnd + 2 > end) {
          k = end;
          break;
        }
        k = commentEnd + 2;
        mode = MODE_CODE;
        continue;
      }
      const c = text.charCodeAt(k);
      if (mode === MODE_TEMPLATE) {
        if (c === 92) k += 2;
        else if (c === 96) {
          mode = MODE_CODE;
          k++;
        } else if (c === 36 && text.charCodeAt(k + 1) === 123) {
          kinds.push(SCOPE_TEMPLATE_EXPR);
          mode = MODE_CODE;
          k += 2;
        } else k++;
        continue;
      }
      if (c >= 128 || SPECIAL[c] === 0) {
        k++;
        continue;
      }
      switch (c) {
        case 39: // '
        case 34: // "
          k = skipQuoted(text, k, end, c) + 1;
          continue;
        case 96: // `
          mode = MODE_TEMPLATE;
          break;
        case 47: {
          // /
          const next = text.charCodeAt(k + 1);
          if (next === 47) {
            k = end;
            continue;
          }
          if (next === 42) {
            commentEnd = text.indexOf('*/', k + 2);
            if (commentEnd < 0) commentEnd = len;
            mode = MODE_BLOCK_COMMENT;
            k += 2;
            continue;
          }
          if (slashStartsRegex(text, k, pos)) {
            k = skipRegex(text, k, end) + 1;
            continue;
          }
          break;
        }
        case 123: // {
          if (pendingKind !== SCOPE_BLOCK && parenDepth === pendingParen) {
            kinds.push(pendingKind);
            frames.push({ depth: kinds.length, name: pendingName, exported: pendingExported, parenDepth });
            pendingKind = SCOPE_BLOCK;
          } else kinds.push(SCOPE_BLOCK);
          break;
        case 125: // }
          if (kinds.length > 0) {
            if (frames.length > 0 && frames[frames.length - 1]!.depth === kinds.length) frames.pop();
            if (kinds.pop() === SCOPE_TEMPLATE_EXPR) mode = MODE_TEMPLATE;
          }
          break;
        case 40: {
          // (
          const module = requiredModule(text, k, end);
          if (module !== null) imports.push({ module, line: lineNo });
          parenDepth++;
          break;
        }
        case 41: // )
          if (parenDepth > 0) parenDepth--;
          break;
        case 59: // ;
          // `declare module 'x';` has no body: the header must not claim a later brace.
          if (parenDepth === pendingParen) pendingKind = SCOPE_BLOCK;
          break;
      }
      k++;
    }

    if (nl >= len) break;
    pos = nl + 1;
  }

  if (exportedNames.size > 0) {
    // `export { a }`, `export default A` and CommonJS exports name earlier (or later) declarations.
    const promoted = new Set<string>();
    for (const symbol of symbols) {
      if (!symbol.exported && symbol.parent === undefined && exportedNames.has(symbol.name)) {
        symbol.exported = true;
        if (symbol.kind === 'class') promoted.add(symbol.name);
      }
    }
    for (const symbol of symbols) {
      if (symbol.kind === 'method' && promoted.has(symbol.parent!) && !hiddenMethods.has(symbol)) symbol.exported = true;
    }
  }
  return { symbols, imports };
}

/** Words that follow `export default` as a declaration, not as the name of one. */
const DECLARATION_WORDS = new Set(['function', 'class', 'async', 'abstract', 'interface', 'enum', 'const', 'new']);

/**
 * What a declared name holds, judged from the text after the name (`: Type = value`): a
 * function (function expression or arrow), a class expression, or any other value; null for
 * a binding of `require()` or `await import()`, which is an import, not a definition.
 */
function valueKind(afterName: string): SymbolKind | null {
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
    if (open >= 0 && arrowFollowsParams(rhs, open)) return 'function';
  }
  return 'const';
}

/** Whether the parameter list opening at `open` is followed by `=>` (after an optional return type). */
function arrowFollowsParams(rhs: string, open: number): boolean {
  let depth = 0;
  let i = open;
  for (; i < rhs.length; i++) {
    const c = rhs.charCodeAt(i);
    if (c === 40) depth++;
    else if (c === 41 && --depth === 0) break;
  }
  // Parameters running onto the next line: an arrow function is by far the likelier reading.
  if (i >= rhs.length) return true;
  const after = rhs.slice(i + 1).trimStart();
  if (after.startsWith('=>')) return true;
  if (after.charCodeAt(0) !== 58) return false;
  const arrow = after.indexOf('=>');
  const brace = after.indexOf('{');
  return arrow >= 0 && (brace < 0 || arrow < brace);
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
function requiredModule(text: string, open: number, end: number): string | null {
  const before = text.charCodeAt(open - 1);
  let start: number;
  if (before === 101 && text.startsWith('require', open - 7)) start = open - 7;
  else if (before === 116 && text.startsWith('import', open - 6)) start = open - 6;
  else return null;
  const prior = text.charCodeAt(start - 1);
  if (isIdentifierChar(prior) || prior === 46) return null;
  let i = open + 1;
  while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  const quote = text.charCodeAt(i);
  if (quote !== 39 && quote !== 34 && quote !== 96) return null;
  const close = text.indexOf(String.fromCharCode(quote), i + 1);
  if (close < 0 || close >= end) return null;
  const module = text.slice(i + 1, close);
  // A computed specifier (`'./x/' + name`, `${dir}/y`) names no module we can record.
  if (module.includes('\\') || (quote === 96 && module.includes('${'))) return null;
  let j = close + 1;
  while (j < end && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j++;
  const after = text.charCodeAt(j);
  return after === 41 || after === 44 ? module : null;
}

/** Index of the quote that closes the string opening at `open`, or `end` if the line ends first. */
function skipQuoted(text: string, open: number, end: number, quote: number): number {
  for (let i = open + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (c === quote) return i;
  }
  return end;
}

/** Index of the slash that closes the regex literal opening at `open`, or `end`. */
function skipRegex(text: string, open: number, end: number): number {
  let inClass = false;
  for (let i = open + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (inClass) {
      if (c === 93) inClass = false;
    } else if (c === 91) inClass = true;
    else if (c === 47) return i;
  }
  return end;
}

/** Whether the slash at `at` starts a regex literal, judged by the token before it on its line. */
function slashStartsRegex(text: string, at: number, lineStart: number): boolean {
  const next = text.charCodeAt(at + 1);
  if (next === 62) return false; // `/>` closes a JSX element
  let p = at - 1;
  while (p >= lineStart) {
    const c = text.charCodeAt(p);
    if (c !== 32 && c !== 9) break;
    p--;
  }
  if (p < lineStart) return true;
  const c = text.charCodeAt(p);
  // After a value a slash divides; after `<` it closes a JSX tag (`</div>`).
  if (c === 41 || c === 93 || c === 39 || c === 34 || c === 96 || c === 60) return false;
  if (!isIdentifierChar(c)) return true;
  let s = p;
  while (s > lineStart && isIdentifierChar(text.charCodeAt(s - 1))) s--;
  return p - s < 10 && REGEX_AFTER_WORD.has(text.slice(s, p + 1));
}

function isIdentifierChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36 || c > 127;
}
