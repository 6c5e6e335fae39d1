/**
 * Universal Ctags' definitions of a work tree: the yardstick of the symbols eval. Only the kinds
 * the issue counts (functions, classes/structs/enums, methods, modules/traits/interfaces as each
 * language has them) are kept; variables, fields, macros and the like are not definitions a
 * reader looks up by name here.
 */
import { execFileSync, spawnSync } from 'node:child_process';

export interface CtagsTag {
  name: string;
  /** Relative to the work tree, with `/`. */
  path: string;
  line: number;
  kind: string;
  /** Ctags' language name (C, C++, C#, Kotlin, Ruby…). */
  language: string;
  /** The name a definition hit carries (lookupName of `name`). */
  lookup: string;
}

/** Ctags kind names (long form, as `--output-format=json` prints them) that count. */
export const COUNTED_KINDS: ReadonlySet<string> = new Set([
  'function', 'func', 'subroutine', 'method', 'singletonMethod', 'class', 'struct', 'union', 'enum', 'interface',
  'trait', 'protocol', 'module', 'namespace', 'object', 'implementation', 'mixin', 'type', 'record',
]);

/**
 * Ctags languages the eval counts: those Gardener extracts definitions for (by scanner or
 * grammar). Ctags also tags JSON keys, Markdown headings, Makefile targets…, which are not.
 */
export const COUNTED_LANGUAGES: ReadonlySet<string> = new Set([
  'C', 'C++', 'C#', 'ObjectiveC', 'Kotlin', 'Ruby', 'PHP', 'Lua', 'Sh', 'Perl', 'R', 'Elixir', 'Elm', 'OCaml',
  'Haskell', 'EmacsLisp', 'Go', 'Java', 'JavaScript', 'Python', 'Rust', 'TypeScript',
]);

/**
 * Names ctags makes up for things without one (`<lambda>`, `AnonymousFunction1f2e`, `__anon12`, R's `anonFunc…`)
 * or takes from what is no definition (`incdirs=` from a shell assignment).
 */
const MADE_UP_NAME = /^(?:<|__anon|AnonymousFunction|anonFunc[0-9a-f])|=|^[^\p{L}\p{N}_]*$/u;

/**
 * The name a definition hit carries for a ctags name: ctags qualifies some (Lua's `list.add`,
 * `Argument:get`; Perl's `Foo::bar`), spells Objective-C methods as whole selectors
 * (`moveFrom:toPath:`, whose first part is the name), and writes Elm and Haskell types with
 * their parameters (`Article a`). Other languages' names are compared as they are.
 */
export function lookupName(language: string, name: string): string {
  switch (language) {
    case 'Lua':
      return name.split(/[.:]/).pop() || name;
    case 'Perl':
      return name.split('::').pop() || name;
    case 'ObjectiveC':
      return /^\w+:/.test(name) ? name.slice(0, name.indexOf(':')) : name;
    case 'Elm':
    case 'Haskell':
      return name.split(' ', 1)[0]!;
    default:
      return name;
  }
}

/**
 * Tags ctags emits that are no definition in the language's own terms: Elm's `namespace` is an
 * import alias (`import Json.Decode as Decode`), OCaml's line-1 module is the file itself, Rust's
 * `implementation` is an `impl` block of a type defined elsewhere.
 */
function notADefinition(t: { language: string; kind: string; line: number; name: string; path: string }): boolean {
  if (t.language === 'Elm' && t.kind === 'namespace') return true;
  if (t.language === 'Rust' && t.kind === 'implementation') return true;
  if (t.language === 'OCaml' && t.kind === 'module' && t.line === 1) {
    const stem = t.path.slice(t.path.lastIndexOf('/') + 1).replace(/\.mli?$/, '');
    return t.name.toLowerCase() === stem.toLowerCase();
  }
  return false;
}

export class CtagsMissingError extends Error {}

/** Throws CtagsMissingError unless `ctags` on PATH is Universal Ctags with JSON output. */
export function checkCtags(): string {
  const r = spawnSync('ctags', ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0 || !/Universal Ctags/.test(r.stdout)) {
    throw new CtagsMissingError('eval:symbols needs Universal Ctags on PATH (Debian/Ubuntu: apt-get install universal-ctags; macOS: brew install universal-ctags)');
  }
  const list = spawnSync('ctags', ['--list-features'], { encoding: 'utf8' });
  if (!/\bjson\b/.test(list.stdout)) throw new CtagsMissingError('eval:symbols needs a Universal Ctags built with JSON output (the "json" feature)');
  return r.stdout.split('\n', 1)[0]!.trim();
}

/** Every counted definition ctags finds under `dir` (which must be the work tree's root). */
export function ctagsDefinitions(dir: string): CtagsTag[] {
  const out = execFileSync(
    'ctags',
    ['-R', '--output-format=json', '--fields=+nKl', '--exclude=.git', '--exclude=node_modules', '-f', '-', '.'],
    { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const tags: CtagsTag[] = [];
  for (const line of out.split('\n')) {
    if (!line.startsWith('{')) continue;
    const t = JSON.parse(line) as { _type?: string; name?: string; path?: string; line?: number; kind?: string; language?: string };
    if (t._type !== 'tag' || !t.name || !t.path || !t.line || !t.kind || !t.language) continue;
    if (!COUNTED_KINDS.has(t.kind) || !COUNTED_LANGUAGES.has(t.language) || MADE_UP_NAME.test(t.name)) continue;
    const tag = { name: t.name, path: t.path.replace(/^\.\//, ''), line: t.line, kind: t.kind, language: t.language, lookup: lookupName(t.language, t.name) };
    if (!notADefinition(tag)) tags.push(tag);
  }
  return tags;
}
