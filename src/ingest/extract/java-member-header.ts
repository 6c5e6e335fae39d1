/**
 * Reading one Java member header (a line, or a header gathered from two or more lines) after
 * its annotations: its modifiers, and where the name of the method or of each field it declares
 * starts. A member is a method when a `(` comes before any `=` and a return type precedes the
 * name; a constructor (no return type, or the type's own name) and an enum constant are not.
 * Positions, not names, are returned, so the caller can tell which line of a gathered header a
 * name sits on.
 */
import { skipQuoted } from './line-lexer.js';

const MODIFIERS = new Set([
  'public', 'protected', 'private', 'static', 'final', 'abstract', 'sealed', 'non-sealed', 'strictfp',
  'default', 'synchronized', 'native', 'transient', 'volatile',
]);
/** Words that can stand before a `(` in a statement but are never a method's return type. */
const NOT_A_TYPE = new Set(['return', 'new', 'throw', 'else', 'case', 'yield']);

/**
 * Splits a member line into its modifiers and the rest, skipping leading annotations
 * (`@Override`, `@SuppressWarnings("x")`). Undefined for a line of annotations only.
 */
export function parseMember(line: string): { modifiers: Set<string>; rest: string } | undefined {
  const modifiers = new Set<string>();
  const n = line.length;
  let i = 0;
  for (;;) {
    while (i < n && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
    if (i >= n) return modifiers.size > 0 ? { modifiers, rest: '' } : undefined;
    const c = line.charCodeAt(i);
    if (c === 64 && !line.startsWith('@interface', i)) {
      i++;
      while (i < n && (isJavaWordChar(line.charCodeAt(i)) || line.charCodeAt(i) === 46)) i++;
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
    while (j < n && (isJavaWordChar(line.charCodeAt(j)) || line.charCodeAt(j) === 45)) j++;
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
export function methodNameAt(rest: string, typeName: string): number {
  const paren = rest.indexOf('(');
  if (paren <= 0) return -1;
  const equals = rest.indexOf('=');
  if (equals >= 0 && equals < paren) return -1;
  let nameEnd = paren;
  while (nameEnd > 0 && (rest.charCodeAt(nameEnd - 1) === 32 || rest.charCodeAt(nameEnd - 1) === 9)) nameEnd--;
  let nameStart = nameEnd;
  while (nameStart > 0 && isJavaWordChar(rest.charCodeAt(nameStart - 1))) nameStart--;
  if (nameStart === nameEnd) return -1;
  const returnType = rest.slice(0, nameStart).trim();
  if (returnType === '' || NOT_A_TYPE.has(returnType) || rest.slice(nameStart, nameEnd) === typeName) return -1;
  const last = returnType.charCodeAt(returnType.length - 1);
  // A return type ends in a name, `>` or `]`; anything else (`.`, an operator) is an expression.
  if (!isJavaWordChar(last) && last !== 62 && last !== 93) return -1;
  return nameStart;
}

/**
 * Where the names of the fields declared by `rest` start (`int X = 1;`, `String[] Y;`,
 * `int A = 1, B = 2;`, `int C, D;`); empty when `rest` declares no field. Commas inside
 * brackets, type arguments and strings do not separate declarators.
 */
export function fieldNamesAt(rest: string): number[] {
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

/** The identifier starting at `at`. */
export function wordAt(text: string, at: number): string {
  let end = at;
  while (end < text.length && isJavaWordChar(text.charCodeAt(end))) end++;
  return text.slice(at, end);
}

/** Whether `head` is a type followed by a blank: it ends in a name, `>` or `]`, then space. */
function endsWithType(head: string): boolean {
  const type = head.trimEnd();
  if (type.length === 0 || type.length === head.length) return false;
  const last = type.charCodeAt(type.length - 1);
  return isJavaWordChar(last) || last === 62 || last === 93;
}

/** Where the identifier ending just before `end` (blanks and `[]` aside) starts, or -1. */
function lastNameBefore(text: string, start: number, end: number): number {
  while (end > start && !isJavaWordChar(text.charCodeAt(end - 1))) {
    const c = text.charCodeAt(end - 1);
    if (c !== 32 && c !== 9 && c !== 91 && c !== 93) return -1;
    end--;
  }
  let at = end;
  while (at > start && isJavaWordChar(text.charCodeAt(at - 1))) at--;
  return at === end ? -1 : at;
}

/** A Java identifier character as the scanner reads them: ASCII letters, digits, `_` and `$`. */
function isJavaWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;
}
