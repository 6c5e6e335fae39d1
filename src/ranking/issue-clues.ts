/**
 * An issue report read as an engineer reads one (issue 52): not a bag of words but a title, the
 * paths its tracebacks and prose name, and the identifiers it quotes from code. Each becomes a
 * ranked list of its own in rank-files.ts:
 *
 *   paths   `src/a/b.ts:12`, `File ".../pkg/mod.py", line 3`, `at com.x.Y.z(Y.java:40)`,
 *           `form_mapping.go`: a mapped file whose path ends with one is where the reporter
 *           was looking
 *   names   identifiers in code spans and blocks, compound or dotted identifiers in prose
 *           (`QuerySet.filter` gives both names), called names (`mapForm()`): a file that
 *           *defines* several of them is where they live, not one that merely uses them
 *   title   the first line: the report's own summary, its words ranked on their own
 *
 * Noise an issue template carries (links, images, HTML comments, ticked checklists) is dropped
 * before anything is read. Pure text work: no store, no clock.
 */

export interface IssueClues {
  /** Paths the text names (without line numbers), most cited first. */
  paths: string[];
  /** Identifiers the text names in code, as written, most cited first. */
  names: string[];
  /** The first non-empty line, markdown marks removed. */
  title: string;
  /**
   * Runs of words the text quotes that a program prints (error and log lines, quoted strings):
   * a message is written once in the code that raises it, so an exact phrase finds that file.
   */
  messages: string[];
}

/** Most clues of each kind kept (the most cited): a 100 KB log cannot make a thousand queries. */
export const MAX_PATH_CLUES = 12;
export const MAX_NAME_CLUES = 60;
export const MAX_MESSAGE_CLUES = 12;
/** Fewest words a quoted message needs to be searched as a phrase. */
export const MESSAGE_MIN_WORDS = 4;

/** File extensions of code a path clue may end with (a path to a log or an image is no clue). */
const CODE_EXT = 'c|cc|cpp|cxx|h|hh|hpp|hxx|cs|go|java|kt|kts|scala|rs|py|pyi|rb|rake|php|js|jsx|mjs|cjs|ts|tsx|mts|cts|vue|svelte|swift|m|mm|lua|ex|exs|erl|dart|zig|ml|mli|elm|sol|sh|bash|zsh|pl|pm|r|jl|hs|clj|groovy|gradle|ps1';
const PATH_RE = new RegExp(String.raw`(?:[A-Za-z]:)?[\w@.+~-]*(?:[\\/][\w@.+~-]+)*\.(?:${CODE_EXT})\b`, 'g');
/** A Java/Kotlin/Scala stack frame: `at com.x.Y.z(Y.java:40)` names the package path of Y. */
const FRAME_RE = /\bat ((?:[a-z_][\w$]*\.)+)([A-Z][\w$]*)(?:\$[\w$]+)*\.[\w$<>]+\(([\w$]+)\.(java|kt|scala|groovy):\d+\)/g;

/** Words that are code syntax or too common to name anything, in any of the languages. */
const NOT_NAMES = new Set([
  'true', 'false', 'null', 'nil', 'none', 'undefined', 'self', 'this', 'super', 'return', 'function', 'func', 'const', 'let', 'var', 'def', 'class',
  'import', 'from', 'export', 'default', 'public', 'private', 'protected', 'static', 'final', 'void', 'new', 'delete', 'typeof', 'instanceof',
  'async', 'await', 'yield', 'else', 'elif', 'for', 'while', 'break', 'continue', 'switch', 'case', 'try', 'catch', 'finally', 'throw', 'throws',
  'raise', 'except', 'with', 'pass', 'lambda', 'end', 'begin', 'module', 'require', 'include', 'package', 'struct', 'enum', 'impl', 'trait',
  'pub', 'mut', 'use', 'crate', 'match', 'interface', 'type', 'extends', 'implements', 'echo', 'print', 'println', 'printf', 'console', 'log',
  'string', 'int', 'bool', 'boolean', 'float', 'double', 'char', 'byte', 'long', 'short', 'object', 'array', 'list', 'dict', 'map', 'err', 'error',
  'main', 'test', 'foo', 'bar', 'baz', 'the', 'and', 'not', 'but', 'are', 'was', 'has', 'have', 'this', 'that', 'then', 'when', 'what', 'http', 'https', 'www', 'com',
]);

/** Links, images, HTML comments and tags, ticked checklists: what a template adds and no code holds. */
export function withoutNoise(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\]\((?:https?:)?\/\/[^)]*\)/g, ']')
    .replace(/\bhttps?:\/\/\S+/g, ' ')
    .replace(/^\s*[-*] \[[ xX]\].*$/gm, ' ')
    .replace(/<\/?[a-zA-Z][^>\n]*>/g, ' ');
}

function bump(counts: Map<string, number>, key: string, by = 1): void {
  counts.set(key, (counts.get(key) ?? 0) + by);
}

const mostCited = (counts: Map<string, number>, max: number) =>
  [...counts.entries()].map(([k, n], i) => ({ k, n, i })).sort((a, b) => b.n - a.n || a.i - b.i).slice(0, max).map((e) => e.k);

/** An identifier worth looking up as a definition: 3+ characters, a letter first, not syntax. */
function isName(token: string): boolean {
  return token.length >= 3 && /^[A-Za-z_$][\w$]*$/.test(token) && !/^_+$/.test(token) && !NOT_NAMES.has(token.toLowerCase());
}

/** Looks like code when written in prose: camelCase, PascalCase with a second capital, snake_case, or SCREAMING_CASE. */
function isCodeShaped(token: string): boolean {
  return /[a-z][A-Z]/.test(token) || /^[A-Z][a-z0-9]+[A-Z]/.test(token) || /[a-zA-Z0-9]_[a-zA-Z0-9]/.test(token);
}

/** A fenced code block (its body in group 1; an unclosed fence runs to the end). */
export const FENCED_BLOCK = /```[^\n]*\n([\s\S]*?)(?:```|$)/g;

export function issueClues(text: string): IssueClues {
  return cluesOfClean(withoutNoise(text));
}

/** issueClues of a text withoutNoise has already cleaned (analyseQuery cleans it once for both). */
export function cluesOfClean(clean: string): IssueClues {
  const title = (clean.split('\n').find((l) => l.trim().length > 0) ?? '').replace(/^[#>*\s-]+/, '').replace(/\[[^\]]*\]:?\s*/, '').trim();

  const paths = new Map<string, number>();
  for (const m of clean.matchAll(FRAME_RE)) bump(paths, `${m[1]!.replace(/\./g, '/')}${m[3]}.${m[4]}`, 2);
  for (const m of clean.matchAll(PATH_RE)) {
    let p = m[0].replace(/\\/g, '/').replace(/^[A-Za-z]:/, '');
    // A package manager's copy names the package's own path after its version folder.
    p = p.replace(/^.*\/(?:site-packages|dist-packages|node_modules|vendor|gems)\/(?:[^/]+-\d[^/]*\/)?/, '').replace(/^.*\/pkg\/mod\/[^@]*@[^/]+\//, '');
    p = p.replace(/^(?:\.\.?\/)+/, '').replace(/^\/+/, '');
    const base = p.slice(p.lastIndexOf('/') + 1);
    // `a.b.c.py` prose (a dotted module) and version strings are not paths.
    if (!p.includes('/') && !/^[\w-]+\.\w+$/.test(base)) continue;
    if (/^\d/.test(base)) continue;
    bump(paths, p);
  }

  const names = new Map<string, number>();
  const fromCode = (code: string, weight: number) => {
    for (const m of code.matchAll(/[A-Za-z_$][\w$]*/g)) if (isName(m[0])) bump(names, m[0], weight);
  };
  // Fenced blocks first (the reporter's code, logs and traces), then inline spans, then prose.
  let rest = clean.replace(FENCED_BLOCK, (_all, code: string) => {
    fromCode(code, 1);
    return '\n';
  });
  rest = rest.replace(/`([^`\n]+)`/g, (_all, code: string) => {
    fromCode(code, 2);
    return ' ';
  });
  for (const m of rest.matchAll(/[A-Za-z_$][\w$]*(?:(?:\.|::|#|->)[A-Za-z_$][\w$]*)*(\(\))?/g)) {
    const parts = m[0].replace(/\(\)$/, '').split(/\.|::|#|->/);
    const dotted = parts.length > 1;
    for (const part of parts) {
      if (!isName(part)) continue;
      if (dotted || m[1] || isCodeShaped(part)) bump(names, part, 2);
    }
  }
  for (const p of paths.keys()) names.delete(p);
  return { paths: mostCited(paths, MAX_PATH_CLUES), names: mostCited(names, MAX_NAME_CLUES), title, messages: messagesOf(clean) };
}

/** Lines of code blocks and spans that read as messages, and strings quoted anywhere, of at least MESSAGE_MIN_WORDS words. */
function messagesOf(clean: string): string[] {
  const found = new Map<string, number>();
  const take = (s: string) => {
    const t = s.replace(/\s+/g, ' ').trim();
    if (words(t) >= MESSAGE_MIN_WORDS) bump(found, t);
  };
  // A message line, in a block or quoted in prose: from an error, warning or panic on.
  for (const line of clean.split('\n')) {
    const msg = /(?:error|exception|warning|panic(?:ked)?|fatal|failed|invalid|cannot|can't|unable)\b[^\n]*/i.exec(line);
    if (msg) take(msg[0]);
  }
  for (const m of clean.matchAll(/`([^`\n]+)`/g)) take(m[1]!);
  for (const m of clean.matchAll(/"([^"\n]{12,200})"|'([^'\n]{12,200})'/g)) take(m[1] ?? m[2]!);
  return mostCited(found, MAX_MESSAGE_CLUES);
}

const words = (s: string) => (s.match(/[A-Za-z]{2,}/g) ?? []).length;

/** True when a text reads as an issue report, not a one-line task: several lines, or code in it. */
export function looksLikeIssue(text: string): boolean {
  return text.includes('\n') || text.includes('`');
}
