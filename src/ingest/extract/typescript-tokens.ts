/**
 * The JavaScript tokens the TypeScript scanner must step over or read whole without a parser:
 * string literals (which a backslash may continue onto the next line), regex literals (told from
 * a division by the token before the slash, as parsers do) and the module string of a
 * `require('x')` or `import('x')` call. None of them looks past its own line except a string's
 * backslash continuation, so a misread costs at most the rest of that line.
 */

/** After these words a slash starts a regex literal, not a division. */
const REGEX_AFTER_WORD = new Set([
  'return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await',
]);

/**
 * Index of the quote that closes the string opening at `open`; of the `\n` (or the text's end)
 * where an unterminated string stops; or, when a backslash continues the string on the next
 * line, minus the index of that next line's start.
 */
export function skipStringLiteral(text: string, open: number, quote: number): number {
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
export function skipRegex(text: string, open: number): number {
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
export function slashStartsRegex(text: string, at: number, lineStart: number): boolean {
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

/** The module named by `require('x')` or `import('x')` whose `(` is at `open`, or null. */
export function requiredModule(text: string, open: number): string | null {
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

/** A JavaScript identifier character: ASCII letters, digits, `_`, `$`, and any non-ASCII one. */
export function isIdentifierChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36 || c > 127;
}
