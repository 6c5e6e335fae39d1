/**
 * Resolves the imports the extractors recorded (the module as written) to files of the code
 * map, so the skeleton can count imports between rooms. Each language's own rule, kept cheap:
 *
 *   TypeScript/JavaScript  `./x.js`, `../y` relative to the file; the extension is dropped on
 *                          both sides (a `.js` specifier finds its `.ts` source), `/index` too;
 *                          bare specifiers as the compiler reads them: tsconfig `paths` and
 *                          `baseUrl`, package `imports`, workspace packages by name with their
 *                          `exports` (typescript-resolution.ts)
 *   Python                 `.x`, `..x.y` relative to the package; `a.b.c` under a project's
 *                          source folders (pyproject.toml's, `src/`), else by path suffix
 *                          (`a/b/c.py`, `a/b/c/__init__.py`, or a namespace package's folder)
 *   Go                     an import path under a go.mod's module path (and its local
 *                          `replace`s) to that folder's files; without a go.mod, by its longest
 *                          folder suffix (two segments at least, so `fmt` never lands on a folder
 *                          that happens to be named fmt)
 *   Rust                   `crate::`, `self::`, `super::` and workspace crates (`name::`, by
 *                          the Cargo.toml's package or lib name, else a folder `name/src/lib.rs`),
 *                          shortening until a module file
 *   Java                   `a.b.C` by path suffix, `a.b.*` by folder suffix
 *   the tree-sitter languages  by the rows of file-import-rules.ts (includes, requires, PSR-4,
 *                          packages and namespaces as far as they map to folders)
 *
 * Anything else (packages, the standard library) resolves to null: it is outside every room.
 */
import { FILE_IMPORT_RULES } from './file-import-rules.js';
import { TypeScriptResolution } from './typescript-resolution.js';
import { buildLayout, joinPath as joinDots, type Layout } from './workspace-layout.js';

const joinPath = (a: string, b: string) => (a === '' ? b : `${a}/${b}`);
const dirOf = (p: string) => p.slice(0, Math.max(0, p.lastIndexOf('/')));

/** The path without its extension and without a trailing `/index`, `/__init__` or `/mod`. */
export function stemOf(p: string): string {
  const slash = p.lastIndexOf('/');
  const dot = p.lastIndexOf('.');
  const bare = dot > slash + 1 && /^[A-Za-z0-9]+$/.test(p.slice(dot + 1)) ? p.slice(0, dot) : p;
  const last = bare.slice(slash + 1);
  return slash >= 0 && (last === 'index' || last === '__init__' || last === 'mod') ? bare.slice(0, slash) : bare;
}

/** `dir` joined with a relative specifier, `..` and `.` applied (posix.join + normalize, without their cost). */
function joinRelative(dir: string, spec: string): string {
  const out = dir === '' ? [] : dir.split('/');
  for (const seg of spec.split('/')) {
    if (seg === '..') out.pop();
    else if (seg !== '.' && seg !== '') out.push(seg);
  }
  return out.join('/');
}

export class ImportResolver {
  #byStem = new Map<string, string>();
  #memo = new Map<string, string | null>();
  #bySuffix: Map<string, string> | undefined;
  #folderSuffix: Map<string, string> | undefined;
  #crates: Map<string, string> | undefined;
  #pathSet: Set<string> | undefined;
  #pathSuffix: Map<string, string> | undefined;
  #dirFirst: Map<string, string> | undefined;
  readonly #paths: readonly string[];
  readonly #layout: Layout;
  readonly #typescript: TypeScriptResolution;

  /**
   * `paths`: every root-relative path of the code map, sorted (the first of a collision wins);
   * `layout`: the repository's manifests (workspace-layout.ts), none by default.
   */
  constructor(paths: readonly string[], layout: Layout = buildLayout([])) {
    this.#paths = paths;
    this.#layout = layout;
    // On a stem shared by several files (`a.component.ts` beside `a.component.html`), the one a
    // compiler would pick: scripts in TypeScript's extension order, then other code, then the
    // templates, styles and data an extension-less import never names; else the first in order.
    const rankOf = new Map<string, number>();
    for (const p of paths) {
      const s = stemOf(p);
      const had = this.#byStem.get(s);
      if (had === undefined) {
        this.#byStem.set(s, p);
        continue;
      }
      const rank = stemRank(p);
      if (rank < (rankOf.get(s) ?? stemRank(had))) {
        this.#byStem.set(s, p);
        rankOf.set(s, rank);
      }
    }
    // A declaration file (`x.d.ts`) answers `./x` when no source of that name is mapped.
    for (const p of paths) {
      if (!/\.d\.[mc]?ts$/.test(p)) continue;
      const s = stemOf(p.replace(/\.d\.([mc]?ts)$/, '.$1'));
      if (!this.#byStem.has(s)) this.#byStem.set(s, p);
    }
    this.#typescript = new TypeScriptResolution(layout, (path) => this.#fileAt(path));
  }

  /** The mapped file a path names with any extension (`.js` or `.d.ts` finds `.ts`), or a folder's index. */
  #fileAt(path: string): string | null {
    let stem = stemOf(path);
    if (stem.endsWith('.d') && /\.d\.[mc]?ts$/.test(path)) stem = stemOf(stem.slice(0, -2));
    return this.#byStem.get(stem) ?? null;
  }

  /**
   * The file `module` (imported by `from`, written in `language`) names, or null. Answers that
   * do not depend on the importing file (packages, dotted and Go import paths) are remembered
   * by module: a code map repeats the same few hundred of those tens of thousands of times.
   * Relative specifiers and Rust paths depend on the importer and are resolved each time
   * (a folder join and one map lookup).
   */
  resolve(from: string, language: string | null, spec: string): string | null {
    // A bundler's query (`./a.svg?raw`, `./worker?url`) names the same file.
    const q = spec.indexOf('?');
    const module = q > 0 && isScriptLanguage(language) ? spec.slice(0, q) : spec;
    const rule = language !== null && Object.hasOwn(FILE_IMPORT_RULES, language) ? FILE_IMPORT_RULES[language] : undefined;
    if (rule !== undefined) {
      const target = this.#byRule(from, rule(module));
      return target === from ? null : target;
    }
    const stems = lookupStems(from, language, module);
    if (stems !== null) return this.resolveStems(from, stems);
    if (isScriptLanguage(language)) {
      // A bare specifier depends on the tsconfig that governs the importer (and, for `#x`, its package).
      const dir = dirOf(from);
      const cfg = this.#typescript.governing(dir);
      const key = `ts:${cfg?.dir ?? ''}:${module.startsWith('#') ? dir : ''}:${module}`;
      let target = this.#memo.get(key);
      if (target === undefined) this.#memo.set(key, (target = this.#typescript.resolve(dir, module)));
      return target === from ? null : target;
    }
    const key = language === null ? module : `${language}:${module}`;
    let target = this.#memo.get(key);
    if (target === undefined) this.#memo.set(key, (target = this.#resolveByModule(language, module)));
    return target === from ? null : target;
  }

  /** The first of `stems` (from `lookupStems`) that names a file of the map, other than `from`. */
  resolveStems(from: string, stems: readonly string[]): string | null {
    for (const stem of stems) {
      // A specifier that carries its file's own extension (`./theme.css`, `./App.svelte`) names that file.
      if (EXACT_EXTENSION.test(stem)) {
        this.#pathSet ??= new Set(this.#paths);
        if (this.#pathSet.has(stem)) return stem === from ? null : stem;
        continue;
      }
      const hit = this.#byStem.get(stem);
      if (hit !== undefined) return hit === from ? null : hit;
    }
    return null;
  }

  #resolveByModule(language: string | null, module: string): string | null {
    switch (language) {
      case 'python':
        return this.#python(module.replace(/\./g, '/'));
      case 'go':
        return this.#go(module);
      case 'rust':
        return this.#rustCrate(module);
      case 'java':
        return this.#java(module);
      default:
        return null;
    }
  }

  /** The first candidate of a file-import rule that names a file of the map. */
  #byRule(from: string, c: ReturnType<(typeof FILE_IMPORT_RULES)[string]>): string | null {
    if (c.relative) {
      this.#pathSet ??= new Set(this.#paths);
      for (const rel of c.relative) {
        const p = joinRelative(dirOf(from), rel);
        if (p !== from && this.#pathSet.has(p)) return p;
      }
    }
    for (const key of c.suffix ?? []) {
      const hit = this.#pathSuffixes().get(key.replace(/^\.\//, ''));
      if (hit !== undefined && hit !== from) return hit;
    }
    for (const key of c.folder ?? []) {
      const hit = this.#folders().get(key);
      if (hit !== undefined && hit !== from) return hit;
    }
    return null;
  }

  /** Whole-path suffixes at folder boundaries (extension kept) → the first such file. */
  #pathSuffixes(): Map<string, string> {
    if (!this.#pathSuffix) {
      this.#pathSuffix = new Map();
      for (const path of this.#paths) {
        let at = -1;
        do {
          const k = path.slice(at + 1);
          if (!this.#pathSuffix.has(k)) this.#pathSuffix.set(k, path);
          at = path.indexOf('/', at + 1);
        } while (at >= 0);
      }
    }
    return this.#pathSuffix;
  }

  /** Under a project's source folders (the longest first), else by path suffix; a namespace package by its folder. */
  #python(path: string): string | null {
    for (const root of this.#layout.pythonRoots) {
      const hit = this.#byStem.get(stemOf(joinPath(root, path))) ?? this.#dirs().get(joinPath(root, path));
      if (hit !== undefined) return hit;
    }
    return this.#suffix(path);
  }

  /** Each folder → its first file (a Go package, a namespace package). */
  #dirs(): Map<string, string> {
    if (!this.#dirFirst) {
      this.#dirFirst = new Map();
      for (const path of this.#paths) {
        const dir = dirOf(path);
        const had = this.#dirFirst.get(dir);
        // A Go package stands for its non-test source first.
        if (had === undefined || (had.endsWith('_test.go') && !path.endsWith('_test.go'))) this.#dirFirst.set(dir, path);
      }
    }
    return this.#dirFirst;
  }

  #go(module: string): string | null {
    if (this.#layout.goModules.length > 0) {
      for (const { module: mod, dir } of this.#layout.goModules) {
        if (module !== mod && !(module.startsWith(mod) && module.charCodeAt(mod.length) === 47)) continue;
        return this.#dirs().get(joinDots(dir, module.slice(mod.length + 1))) ?? null;
      }
      // The repository declares its modules: an import path under none of them is a dependency's.
      return null;
    }
    const segments = module.split('/');
    const folders = this.#folders();
    for (let k = segments.length; k >= 2; k--) {
      const hit = folders.get(segments.slice(-k).join('/'));
      if (hit) return hit;
    }
    return null;
  }

  /** `name::a::b` for a workspace crate `name` (a folder `…/name/src/lib.rs`). */
  #rustCrate(module: string): string | null {
    const parts = module.split('::');
    const head = parts.shift()!;
    const declared = this.#layout.crates.get(head);
    const crate = declared?.srcDir ?? this.#crateRoots().get(head);
    if (!crate) return null;
    for (let k = parts.length; k >= 1; k--) {
      const hit = this.#byStem.get(stemOf(joinPath(crate, parts.slice(0, k).join('/'))));
      if (hit) return hit;
    }
    return (declared?.rootFile !== undefined ? this.#byStem.get(stemOf(declared.rootFile)) : undefined) ?? this.#byStem.get(stemOf(joinPath(crate, 'lib'))) ?? null;
  }

  #java(module: string): string | null {
    if (module.endsWith('.*')) return this.#folders().get(module.slice(0, -2).replace(/\./g, '/')) ?? null;
    const parts = module.split('.');
    // `import static a.b.C.member`: shorten until a class file.
    for (let k = parts.length; k >= 2; k--) {
      const hit = this.#suffix(parts.slice(0, k).join('/'));
      if (hit) return hit;
    }
    return null;
  }

  /** A file whose stem ends with `key` at a folder boundary. */
  #suffix(key: string): string | null {
    if (!this.#bySuffix) {
      this.#bySuffix = new Map();
      for (const [stem, path] of this.#byStem) {
        let at = -1;
        do {
          const k = stem.slice(at + 1);
          if (!this.#bySuffix.has(k)) this.#bySuffix.set(k, path);
          at = stem.indexOf('/', at + 1);
        } while (at >= 0);
      }
    }
    return this.#bySuffix.get(key) ?? null;
  }

  /** Folder suffixes → the folder's first file. */
  #folders(): Map<string, string> {
    if (!this.#folderSuffix) {
      this.#folderSuffix = new Map();
      for (const path of this.#paths) {
        const dir = dirOf(path);
        if (dir === '') continue;
        let at = -1;
        do {
          const k = dir.slice(at + 1);
          if (!this.#folderSuffix.has(k)) this.#folderSuffix.set(k, path);
          at = dir.indexOf('/', at + 1);
        } while (at >= 0);
      }
    }
    return this.#folderSuffix;
  }

  /** Workspace crates: `name` (with `-` as `_`) → its `src` folder, for every `…/name/src/lib.rs`. */
  #crateRoots(): Map<string, string> {
    if (!this.#crates) {
      this.#crates = new Map();
      for (const path of this.#paths) {
        const m = /(?:^|\/)([^/]+)\/src\/lib\.rs$/.exec(path);
        if (m) this.#crates.set(m[1]!.replace(/-/g, '_'), path.slice(0, -'/lib.rs'.length));
      }
    }
    return this.#crates;
  }
}

/** The order a compiler tries a stem's extensions in: scripts (TypeScript's order), other code, then what no extension-less import names. */
const SCRIPT_ORDER = ['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs'];
const NOT_IMPORTED_BARE = /\.(?:html?|css|scss|sass|less|json|jsonc|md|mdx|txt|svg|png|jpe?g|gif|webp|ya?ml|xml|snap|map|lock|toml|ini|cfg|csv)$/i;
function stemRank(path: string): number {
  const ext = path.slice(path.lastIndexOf('.') + 1);
  const script = SCRIPT_ORDER.indexOf(ext);
  if (script >= 0) return script;
  return NOT_IMPORTED_BARE.test(path) ? 100 : 50;
}

/** A specifier's extension that names its file as written, never a script of the same stem (lookupStems lists such a path whole). */
const EXACT_EXTENSION = /\.(?:json|vue|svelte|css|scss)$/;

/** Extensions a script specifier may carry that name the file's own kind (dropped to find a `.ts` source). */
const SCRIPT_EXTENSION = /\.(?:[mc]?[jt]sx?|json|vue|svelte|css|scss)$/;

/** Languages whose bare specifiers resolve as TypeScript's do (the script blocks of Vue and Svelte files too). */
function isScriptLanguage(language: string | null): boolean {
  return language === 'typescript' || language === 'javascript' || language === 'vue' || language === 'svelte';
}

/**
 * For an import found by looking up stems that depend only on the importer's own path
 * (relative specifiers in any language, Python's `.x`, Rust's `crate::`, `self::`, `super::`),
 * the stems to try, in order; null for an import resolved by its module alone. A caller that
 * keeps these per file version re-resolves such an import with map lookups only.
 */
export function lookupStems(from: string, language: string | null, module: string): string[] | null {
  if (language === 'python') {
    if (module.charCodeAt(0) !== 46 /* . */) return null;
    const dots = /^\.*/.exec(module)![0].length;
    const rest = module.slice(dots).replace(/\./g, '/');
    let base = dirOf(from);
    for (let i = 1; i < dots; i++) base = dirOf(base);
    return [stemOf(rest ? joinPath(base, rest) : base)];
  }
  if (language === 'rust') {
    const parts = module.split('::');
    const head = parts.shift()!;
    const moduleDir = /(?:^|\/)(?:mod|lib|main)\.rs$/.test(from) ? dirOf(from) : stemOf(from);
    let base: string;
    if (head === 'crate') {
      const at = from.lastIndexOf('src/');
      base = at < 0 ? dirOf(from) : from.slice(0, at + 3);
    } else if (head === 'self') base = moduleDir;
    else if (head === 'super') {
      base = dirOf(moduleDir);
      while (parts[0] === 'super') {
        parts.shift();
        base = dirOf(base);
      }
    } else return null;
    const stems: string[] = [];
    for (let k = parts.length; k >= 1; k--) stems.push(stemOf(joinPath(base, parts.slice(0, k).join('/'))));
    // An item of the module itself (`self::Kind`, `super::*` naming the parent's items): the
    // module's own file, `mod.rs`, `lib.rs` or `main.rs` of its folder, or `<folder>.rs`.
    if (head === 'self') stems.push(stemOf(from));
    else if (head !== 'crate' || parts.length > 0) stems.push(base, joinPath(base, 'lib'), joinPath(base, 'main'));
    return stems;
  }
  if (language === 'go' || language === 'java' || (language !== null && Object.hasOwn(FILE_IMPORT_RULES, language))) return null;
  if (module.charCodeAt(0) !== 46 /* . */) return null;
  const q = module.indexOf('?');
  const joined = joinRelative(dirOf(from), q > 0 ? module.slice(0, q) : module);
  // `./a.component` names `a.component.ts`: a dot that starts no script extension is part of the name.
  const exact = SCRIPT_EXTENSION.test(joined) ? stemOf(joined) : stemOf(`${joined}.ts`);
  const loose = stemOf(joined);
  const stems = exact === loose ? [exact] : [exact, loose];
  // `./theme.css`, `./App.svelte`: that file first, then (a `.d.ts` beside it, a build step's output) its stem.
  return EXACT_EXTENSION.test(joined) ? [joined, ...stems] : stems;
}
