/**
 * The references the line scanners emit, collected in one place. The scanners already stop at
 * every `(` in code (to track brackets), so a call costs one look back from that `(` over the
 * identifier before it; nothing new is added to their character loops. What the look back
 * reads before the name tells the kind: `.` or `::` a member call (whose capitalised qualifier,
 * `Foo.bar(` or `Foo::new(`, is a use of `Foo` too), `new ` a construction, `@` a decorator.
 * Imports, inheritance and the types of a declaration's own line come from the lines the
 * scanners already test (typescript-declarations.ts, rust-items.ts, java-members.ts…).
 *
 * The enclosing definition (`in`) is the innermost definition still open at the reference's
 * brace depth: each definition is registered with the depth its line starts at, and is closed
 * by the first later reference found at that depth or shallower. A definition's own name on its
 * own line (`function f(`, `def f(`) is not a use.
 *
 * Keywords and builtins that can never name a definition of the repository are dropped here, so
 * they cost no storage; a per-file cap bounds what a minified bundle can add.
 */
import type { ImportRef, Reference, ReferenceKind, SymbolDef } from './types.js';

/** References kept per file: a generated or minified file adds no more than this. */
export const MAX_REFERENCES_PER_FILE = 4000;

/**
 * Whether this thread's scans keep references. Only the bench turns it off, to measure what
 * references cost against the same burst without them (bench/references-cost.ts); a pool
 * thread sets it per batch from the task.
 */
let keepReferences = true;
export function setReferencesKept(keep: boolean): void {
  keepReferences = keep;
}

/** Words a scanner's look back must not take for a called name, by language family. */
export const C_FAMILY_KEYWORDS = new Set([
  'if', 'for', 'while', 'switch', 'catch', 'return', 'typeof', 'function', 'await', 'yield', 'import', 'require',
  'super', 'this', 'void', 'delete', 'in', 'of', 'do', 'else', 'case', 'throw', 'new', 'sizeof', 'constructor',
  'assert', 'synchronized', 'fn', 'func', 'try', 'finally', 'instanceof',
  'async', 'static', 'with', 'var', 'let', 'const', 'as', 'is', 'keyof', 'extends', 'implements',
  'Some', 'Ok', 'Err', 'None', 'Box', 'Vec', 'String', 'Object', 'Array', 'Promise', 'Error', 'Map', 'Set', 'JSON',
  'Math', 'Number', 'Boolean', 'Symbol', 'Date', 'RegExp', 'console', 'parseInt', 'parseFloat', 'setTimeout',
  'clearTimeout', 'setInterval', 'clearInterval',
]);
/** Go's builtins and conversions besides the C family's words. */
export const GO_KEYWORDS = new Set([
  ...C_FAMILY_KEYWORDS, 'make', 'len', 'cap', 'append', 'panic', 'recover', 'copy', 'new', 'int', 'int64', 'int32',
  'uint', 'uint64', 'uint32', 'byte', 'rune', 'string', 'float64', 'error', 'bool', 'print', 'println', 'close',
  'go', 'defer', 'select',
]);
export const PYTHON_KEYWORDS = new Set([
  'if', 'elif', 'while', 'for', 'not', 'and', 'or', 'in', 'is', 'return', 'lambda', 'assert', 'del', 'yield', 'with',
  'except', 'print', 'len', 'range', 'isinstance', 'issubclass', 'str', 'int', 'list', 'dict', 'set', 'tuple',
  'super', 'getattr', 'setattr', 'hasattr', 'type', 'min', 'max', 'sorted', 'enumerate', 'zip', 'open', 'repr',
  'float', 'bool', 'any', 'all', 'iter', 'next', 'map', 'filter', 'id', 'hash', 'abs', 'round', 'sum', 'format',
  'vars', 'callable', 'bytes', 'frozenset', 'object', 'self', 'cls', 'await', 'async', 'def', 'class', 'from',
  'import', 'raise', 'else', 'try', 'finally', 'pass', 'None', 'True', 'False', 'Exception', 'ValueError',
  'TypeError', 'KeyError', 'RuntimeError',
]);

/** Words before a name that make its `(` a definition, not a call. */
const DECLARING = new Set(['function', 'def', 'fn', 'func', 'class', 'struct', 'interface', 'get', 'set', 'async']);

interface OpenDefinition {
  name: string;
  depth: number;
  line: number;
}

export class ReferenceSink {
  readonly references: Reference[] = [];
  readonly #skip: ReadonlySet<string>;
  readonly #open: OpenDefinition[] = [];
  readonly #limit = keepReferences ? MAX_REFERENCES_PER_FILE : 0;

  constructor(skip: ReadonlySet<string>) {
    this.#skip = skip;
  }

  /** A definition whose line `line` starts at brace (or indent) depth `depth`. */
  defined(name: string, depth: number, line: number): void {
    const open = this.#open;
    while (open.length > 0 && open[open.length - 1]!.depth >= depth) open.pop();
    open.push({ name, depth, line });
  }

  /** The name of the definition enclosing a reference at `depth` on `line`, closing those it has left. */
  enclosing(depth: number, line: number): string | undefined {
    const open = this.#open;
    while (open.length > 0) {
      const top = open[open.length - 1]!;
      if (top.line === line || depth > top.depth) return top.name;
      open.pop();
    }
    return undefined;
  }

  /** Records `name` used as `kind` on `line`, unless it is a keyword or the definition on that line. */
  add(name: string, line: number, kind: ReferenceKind, depth: number): void {
    const refs = this.references;
    if (refs.length >= this.#limit || this.#skip.has(name)) return;
    const within = this.enclosing(depth, line);
    const open = this.#open;
    if (within === name && open[open.length - 1]!.line === line) return;
    // One name once per line: a line's type read first gives way to the call or `new` on it.
    for (let i = refs.length - 1; i >= 0 && refs[i]!.line === line; i--) {
      const prior = refs[i]!;
      if (prior.name !== name) continue;
      if (prior.kind === 'type' && kind !== 'type') prior.kind = kind;
      return;
    }
    refs.push(within === undefined ? { name, line, kind } : { name, line, kind, in: within });
  }

  /**
   * The `(` at `open` in code: the identifier right before it (no blank between, so `if (` never
   * reads) is a call, a member call, a construction or a decorator. Returns where that
   * identifier starts (`open` when there is none), for a scanner that reads more from it.
   */
  callAt(text: string, open: number, line: number, depth: number): number {
    let s = open;
    while (s > 0 && isNameChar(text.charCodeAt(s - 1))) s--;
    if (s === open || this.#limit === 0) return s;
    const first = text.charCodeAt(s);
    if (first >= 48 && first <= 57) return s;
    const name = text.slice(s, open);
    const before = text.charCodeAt(s - 1);
    if (before === 46) {
      if (text.charCodeAt(s - 2) === 46) return s; // a spread `...f(`
      this.add(name, line, 'member', depth);
      this.#qualifier(text, s - 1, line, depth);
    } else if (before === 58 && text.charCodeAt(s - 2) === 58) {
      this.add(name, line, 'member', depth);
      this.#qualifier(text, s - 2, line, depth);
    } else if (before === 64) this.add(name, line, 'decorator', depth);
    else if (before === 32 && s >= 2 && isNameChar(text.charCodeAt(s - 2))) {
      let w = s - 1;
      while (w > 0 && isNameChar(text.charCodeAt(w - 1))) w--;
      const word = text.slice(w, s - 1);
      if (word === 'new') this.add(name, line, 'new', depth);
      else if (!DECLARING.has(word)) this.add(name, line, 'call', depth);
    } else this.add(name, line, 'call', depth);
    return s;
  }

  /**
   * The capitalised identifier starting at `at`, right after a `<`: a type argument when a name
   * or `.` comes before the `<` (`Array<Foo>`), else a JSX element (`<Foo …>`) or a comparison.
   */
  tagAt(text: string, at: number, line: number, depth: number): void {
    if (this.#limit === 0) return;
    let e = at + 1;
    while (isNameChar(text.charCodeAt(e))) e++;
    const before = text.charCodeAt(at - 2);
    this.add(text.slice(at, e), line, isNameChar(before) || before === 46 ? 'type' : 'other', depth);
  }

  /** Every capitalised identifier of `code` (a declaration's own line) as `kind`, but `except`. */
  typesIn(code: string, line: number, kind: ReferenceKind, depth: number, except: string | undefined): void {
    if (this.#limit === 0) return;
    // A capitalised identifier not preceded by `.` or a word character (`[\w$]`, ASCII as in a
    // regex): read by hand, as a regex's match arrays were a tenth of a scan's garbage.
    const n = code.length;
    for (let i = 0; i < n; i++) {
      const c = code.charCodeAt(i);
      if (c < 65 || c > 90) continue;
      if (i > 0) {
        const before = code.charCodeAt(i - 1);
        if (before === 46 || isWordChar(before)) continue;
      }
      let e = i + 1;
      while (e < n && isWordChar(code.charCodeAt(e))) e++;
      const name = code.slice(i, e);
      if (name !== except) this.add(name, line, kind, depth);
      i = e;
    }
  }

  /**
   * After a scanner's line test: registers the definitions it found (from index `symbolsFrom`),
   * reads the types its declaration line names (`extends`/`implements`/`impl … for` make them
   * inheritance), and, when `importNames`, records the last segment of each new import
   * (`java.util.List`, `crate::a::Foo`) as a use of that name.
   */
  afterLine(
    symbols: readonly SymbolDef[], symbolsFrom: number, imports: readonly ImportRef[], importsFrom: number,
    code: string, line: number, depth: number, importNames: boolean,
  ): void {
    for (let i = symbolsFrom; i < symbols.length; i++) this.defined(symbols[i]!.name, depth, symbols[i]!.line);
    if (importNames) {
      for (let i = importsFrom; i < imports.length; i++) {
        const module = imports[i]!.module;
        const name = lastSegment(module);
        if (name !== null && name !== 'self' && name !== 'super') this.add(name, imports[i]!.line, 'other', 0);
      }
    }
    if (symbols.length > symbolsFrom || code.startsWith('impl')) this.lineTypes(code, line, depth, symbols.length > symbolsFrom ? symbols[symbols.length - 1]!.name : undefined);
  }

  /** The types a declaration line names; those after `extends`, `implements` or before `impl`'s `for` are inherited. */
  lineTypes(code: string, line: number, depth: number, own: string | undefined): void {
    const implFor = code.startsWith('impl') ? code.indexOf(' for ') : -1;
    const heritage = implFor >= 0 ? -1 : code.search(HERITAGE);
    if (implFor >= 0) {
      this.typesIn(code.slice(0, implFor), line, 'inherit', depth, own);
      this.typesIn(code.slice(implFor), line, 'type', depth, own);
    } else if (heritage < 0) {
      this.typesIn(code, line, 'type', depth, own);
    } else {
      this.typesIn(code.slice(0, heritage), line, 'type', depth, own);
      this.typesIn(code.slice(heritage), line, 'inherit', depth, own);
    }
  }

  /** The capitalised identifier ending just before `end` (a `.` or `::`), a use of a type or namespace. */
  #qualifier(text: string, end: number, line: number, depth: number): void {
    let s = end;
    while (s > 0 && isNameChar(text.charCodeAt(s - 1))) s--;
    const c = text.charCodeAt(s);
    if (s === end || c < 65 || c > 90) return;
    const before = text.charCodeAt(s - 1);
    if (before === 46 || (before === 58 && text.charCodeAt(s - 2) === 58)) return;
    this.add(text.slice(s, end), line, 'other', depth);
  }
}

const HERITAGE = /\b(?:extends|implements)\b/;

/** `[\w$]` of a regex without the `u` flag: ASCII letters, digits, `_` and `$`. */
function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;
}

/** The last segment of a module path (`java.util.List`: `List`): the trailing `[\w$]` run from its first non-digit; null when none. */
function lastSegment(module: string): string | null {
  const end = module.length;
  let start = end;
  while (start > 0 && isWordChar(module.charCodeAt(start - 1))) start--;
  while (start < end && module.charCodeAt(start) >= 48 && module.charCodeAt(start) <= 57) start++;
  return start === end ? null : module.slice(start);
}

/** An identifier character in every scanned language (`$` is JavaScript's; harmless elsewhere). */
export function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36 || c > 127;
}
