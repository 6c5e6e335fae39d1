/**
 * Java definitions and imports, without a parser.
 *
 * Types (class, interface, enum, record, @interface) are found at the top level and directly in
 * another type's body, so nested types get their enclosing type as parent. Directly in a type
 * body, a member line is a method when a `(` comes before any `=` and a return type precedes the
 * name; a constructor (no return type, or the type's own name) and an enum constant are not.
 * `static final` fields, and interface fields, are constants. A header split over lines
 * (`public final` / `class A`, `static <T> List<T>` / `of(…)`) is read as one. One character
 * loop carries the comment, text block and brace state; line tests are anchored at the first
 * non-blank character.
 *
 * Exported is `public`; members of an interface or annotation type are public by the language's
 * rule unless marked private.
 */
import type { Extraction, ImportRef, SymbolDef, SymbolKind } from './types.js';

const SCOPE_BLOCK = 0;
const SCOPE_TYPE = 1;

const SPECIAL = new Uint8Array(128);
for (const ch of '/"\'{}();') SPECIAL[ch.charCodeAt(0)] = 1;

const MODIFIERS = new Set([
  'public', 'protected', 'private', 'static', 'final', 'abstract', 'sealed', 'non-sealed', 'strictfp',
  'default', 'synchronized', 'native', 'transient', 'volatile',
]);
/** Words that can stand before a `(` in a statement but are never a method's return type. */
const NOT_A_TYPE = new Set(['return', 'new', 'throw', 'else', 'case', 'yield']);

const IMPORT = /^import\s+(?:static\s+)?([\w.]+\*?)\s*;/;
/** A line that goes on with the header above it (`throws X;` after a method signature). */
const CONTINUATION = /^(?:throws|extends|implements|permits)\b/;
/** How many lines one member header may take before it is given up on. */
const MAX_HEADER_LINES = 5;
/** A header with none of `(`, `=`, `;`, `{`, `}` has more to come on the next line. */
const INCOMPLETE_HEADER = /^[^(=;{}]*$/;
const TYPE_DECL = /^(class|interface|enum|record|@interface)\s+([A-Za-z_$][\w$]*)/;
const TYPE_KIND: Record<string, SymbolKind> = {
  class: 'class',
  record: 'class',
  interface: 'interface',
  '@interface': 'interface',
  enum: 'enum',
};

interface Frame {
  depth: number;
  name: string;
  exported: boolean;
  /** Interface or annotation type: members are public unless marked private. */
  membersPublic: boolean;
  parenDepth: number;
}

export function extractJava(text: string): Extraction {
  const symbols: SymbolDef[] = [];
  const imports: ImportRef[] = [];
  const len = text.length;

  // Inside a block comment or text block the scan resumes at this index.
  let resumeAt = 0;
  let parenDepth = 0;
  const kinds: number[] = [];
  // The parenthesis depth at each open brace, restored when it closes, so a `(` left open by a
  // file saved mid-edit is forgotten at the end of its block.
  const parensAtBrace: number[] = [];
  const frames: Frame[] = [];
  let pending: Frame | undefined;
  // A member header cut across lines (`public final` / `class X`, `static <T> List<T>` /
  // `name(…)`): its first line waits here to be read with the next one.
  let heldText = '';
  let heldLine = 0;
  let heldLines = 0;
  const hold = (header: string) => {
    // Annotations and modifiers may each take a line (`public final native` / `@A` / `@B` /
    // `Object get(…)`), but a header never runs on for long.
    if (heldLines < MAX_HEADER_LINES - 1 && INCOMPLETE_HEADER.test(header)) {
      heldText = header;
      heldLines++;
    }
  };

  let lineNo = 0;
  let pos = len > 0 && text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (pos <= len) {
    lineNo++;
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = len;
    const end = nl > pos && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;

    const top = kinds.length === 0 ? -1 : kinds[kinds.length - 1]!;
    const frame = top === SCOPE_TYPE ? frames[frames.length - 1]! : undefined;
    if (resumeAt <= pos && (top === -1 || (frame !== undefined && parenDepth === frame.parenDepth))) {
      let i = pos;
      while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
      const held = heldLine === lineNo - 1 ? heldText : '';
      if (held === '') heldLines = 0;
      // A comment line between the two halves keeps the first one held.
      heldLine = lineNo;
      heldText = '';
      if (i < end && (held !== '' || startsMember(text.charCodeAt(i)))) {
        const line = stripComments(text.slice(i, end));
        let m: RegExpExecArray | null;
        if (line === '') heldText = held;
        else if (top === -1 && (m = IMPORT.exec(line)) !== null) imports.push({ module: m[1]!, line: lineNo });
        else {
          const header = held === '' ? line : held + ' ' + line;
          // Where this line starts in the header: a name before it is on the held line.
          const lineOffset = header.length - line.length;
          const member = parseMember(header);
          if (member !== undefined && !CONTINUATION.test(member.rest)) {
            const { rest, modifiers } = member;
            const restOffset = header.length - rest.length;
            const lineOf = (index: number) => (restOffset + index >= lineOffset ? lineNo : lineNo - 1);
            const isPublic =
              modifiers.has('public') || (frame !== undefined && frame.membersPublic && !modifiers.has('private'));
            if ((m = TYPE_DECL.exec(rest)) !== null) {
              const kind = m[1]!;
              const name = m[2]!;
              push(symbols, name, TYPE_KIND[kind]!, lineOf(m[0].length - name.length), isPublic, frame?.name);
              const membersPublic = kind === 'interface' || kind === '@interface';
              pending = { depth: 0, name, exported: isPublic, membersPublic, parenDepth };
            } else if (frame !== undefined) {
              let at = methodNameAt(rest, frame.name);
              if (at >= 0) push(symbols, wordAt(rest, at), 'method', lineOf(at), isPublic, frame.name);
              else if ((modifiers.has('static') && modifiers.has('final')) || frame.membersPublic) {
                const fields = fieldNamesAt(rest);
                for (const field of fields) {
                  push(symbols, wordAt(rest, field), 'const', lineOf(field), isPublic, frame.name);
                }
                if (fields.length > 0) at = fields[0]!;
              }
              if (at < 0) hold(header);
            } else hold(header);
          }
        }
      }
    }

    // The character loop: comments, strings, text blocks, char literals, braces.
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
            const close = text.indexOf('*/', k + 2);
            resumeAt = close < 0 ? len : close + 2;
            k = resumeAt;
            continue;
          }
          break;
        }
        case 34:
          if (text.charCodeAt(k + 1) === 34 && text.charCodeAt(k + 2) === 34) {
            const close = text.indexOf('"""', k + 3);
            resumeAt = close < 0 ? len : close + 3;
            k = resumeAt;
            continue;
          }
          k = skipQuoted(text, k, end, c) + 1;
          continue;
        case 39:
          k = skipQuoted(text, k, end, c) + 1;
          continue;
        case 123:
          if (pending !== undefined && parenDepth === pending.parenDepth) {
            kinds.push(SCOPE_TYPE);
            pending.depth = kinds.length;
            frames.push(pending);
            pending = undefined;
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
          if (pending !== undefined && parenDepth === pending.parenDepth) pending = undefined;
          break;
      }
      k++;
    }

    if (nl >= len) break;
    pos = nl + 1;
  }
  return { symbols, imports };
}

/**
 * Splits a member line into its modifiers and the rest, skipping leading annotations
 * (`@Override`, `@SuppressWarnings("x")`). Undefined for a line of annotations only.
 */
function parseMember(line: string): { modifiers: Set<string>; rest: string } | undefined {
  const modifiers = new Set<string>();
  const n = line.length;
  let i = 0;
  for (;;) {
    while (i < n && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
    if (i >= n) return modifiers.size > 0 ? { modifiers, rest: '' } : undefined;
    const c = line.charCodeAt(i);
    if (c === 64 && !line.startsWith('@interface', i)) {
      i++;
      while (i < n && (isWordChar(line.charCodeAt(i)) || line.charCodeAt(i) === 46)) i++;
      if (line.charCodeAt(i) === 40) {
        let depth = 0;
        for (; i < n; i++) {
          const d = line.charCodeAt(i);
          if (d === 40) depth++;
          else if (d === 41 && --depth === 0) break;
        }
        i++;
      }
      continue;
    }
    let j = i;
    while (j < n && (isWordChar(line.charCodeAt(j)) || line.charCodeAt(j) === 45)) j++;
    const word = line.slice(i, j);
    if (!MODIFIERS.has(word)) return { modifiers, rest: line.slice(i) };
    modifiers.add(word);
    i = j;
  }
}

/**
 * Where the name of the method declared by `rest` (after modifiers) starts, or -1 for fields,
 * constructors and enum constants.
 */
function methodNameAt(rest: string, typeName: string): number {
  const paren = rest.indexOf('(');
  if (paren <= 0) return -1;
  const equals = rest.indexOf('=');
  if (equals >= 0 && equals < paren) return -1;
  let nameEnd = paren;
  while (nameEnd > 0 && (rest.charCodeAt(nameEnd - 1) === 32 || rest.charCodeAt(nameEnd - 1) === 9)) nameEnd--;
  let nameStart = nameEnd;
  while (nameStart > 0 && isWordChar(rest.charCodeAt(nameStart - 1))) nameStart--;
  if (nameStart === nameEnd) return -1;
  const returnType = rest.slice(0, nameStart).trim();
  if (returnType === '' || NOT_A_TYPE.has(returnType) || rest.slice(nameStart, nameEnd) === typeName) return -1;
  const last = returnType.charCodeAt(returnType.length - 1);
  // A return type ends in a name, `>` or `]`; anything else (`.`, an operator) is an expression.
  if (!isWordChar(last) && last !== 62 && last !== 93) return -1;
  return nameStart;
}

/**
 * Where the names of the fields declared by `rest` start (`int X = 1;`, `String[] Y;`,
 * `int A = 1, B = 2;`, `int C, D;`); empty when `rest` declares no field. Commas inside
 * brackets, type arguments and strings do not separate declarators.
 */
function fieldNamesAt(rest: string): number[] {
  const names: number[] = [];
  let depth = 0;
  let declaratorStart = 0;
  let inInitializer = false;
  for (let i = 0; i < rest.length; i++) {
    const c = rest.charCodeAt(i);
    if (c === 34 || c === 39) {
      i = skipQuoted(rest, i, rest.length, c);
      continue;
    }
    if (c === 40 || c === 91 || c === 123 || c === 60) depth++;
    else if (c === 41 || c === 93 || c === 125 || (c === 62 && rest.charCodeAt(i - 1) !== 45)) {
      if (depth > 0) depth--;
    } else if (depth === 0 && (c === 61 || c === 44 || c === 59)) {
      if (!inInitializer) {
        const at = lastNameBefore(rest, declaratorStart, i);
        // The first declarator needs a type before its name (`a.B,` in a `permits` list has none).
        if (at < 0 || (names.length === 0 && !endsWithType(rest.slice(0, at)))) return names;
        names.push(at);
      }
      if (c === 59) break;
      inInitializer = c === 61;
      if (c === 44) declaratorStart = i + 1;
    }
  }
  return names;
}

/** Whether `head` is a type followed by a blank: it ends in a name, `>` or `]`, then space. */
function endsWithType(head: string): boolean {
  const type = head.trimEnd();
  if (type.length === 0 || type.length === head.length) return false;
  const last = type.charCodeAt(type.length - 1);
  return isWordChar(last) || last === 62 || last === 93;
}

/** Where the identifier ending just before `end` (blanks and `[]` aside) starts, or -1. */
function lastNameBefore(text: string, start: number, end: number): number {
  while (end > start && !isWordChar(text.charCodeAt(end - 1))) {
    const c = text.charCodeAt(end - 1);
    if (c !== 32 && c !== 9 && c !== 91 && c !== 93) return -1;
    end--;
  }
  let at = end;
  while (at > start && isWordChar(text.charCodeAt(at - 1))) at--;
  return at === end ? -1 : at;
}

/** The identifier starting at `at`. */
function wordAt(text: string, at: number): string {
  let end = at;
  while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
  return text.slice(at, end);
}

/** Whether a line starting with `c` can begin a declaration (a letter, `_`, `$`, `@`, `<`, or `/*`). */
function startsMember(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 64 || c === 95 || c === 36 || c === 60 || c === 47;
}

/**
 * The line without a leading block comment that closes on it (`/* package *\/ class A`) and
 * without a trailing line comment (`private // why`). A `//` counts only after a blank, so
 * `"http://x"` in an initializer stays.
 */
function stripComments(line: string): string {
  if (line.startsWith('//')) return '';
  if (line.startsWith('/*')) {
    const close = line.indexOf('*/', 2);
    if (close < 0) return '';
    line = line.slice(close + 2).trimStart();
  }
  const comment = line.indexOf(' //');
  return comment < 0 ? line : line.slice(0, comment).trimEnd();
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

function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;
}

/** Index of the quote closing the string or char literal opened at `open`, or `end`. */
function skipQuoted(text: string, open: number, end: number, quote: number): number {
  for (let i = open + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (c === quote) return i;
  }
  return end;
}
