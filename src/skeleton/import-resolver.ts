/**
 * Resolves the imports the extractors recorded (the module as written) to files of the code
 * map, so the skeleton can count imports between rooms. Each language's own rule, kept cheap:
 *
 *   TypeScript/JavaScript  `./x.js`, `../y` relative to the file; the extension is dropped on
 *                          both sides (a `.js` specifier finds its `.ts` source), `/index` too
 *   Python                 `.x`, `..x.y` relative to the package; `a.b.c` by path suffix
 *                          (`a/b/c.py` or `a/b/c/__init__.py`, wherever the source root is)
 *   Go                     an import path by its longest folder suffix (two segments at least,
 *                          so `fmt` never lands on a folder that happens to be named fmt)
 *   Rust                   `crate::`, `self::`, `super::` and workspace crates (`name::`,
 *                          for a folder `name/src/lib.rs`), shortening until a module file
 *   Java                   `a.b.C` by path suffix, `a.b.*` by folder suffix
 *   the tree-sitter languages  by the rows of file-import-rules.ts (includes, requires, PSR-4,
 *                          packages and namespaces as far as they map to folders)
 *
 * Anything else (packages, the standard library) resolves to null: it is outside every room.
 */
import { FILE_IMPORT_RULES } from './file-import-rules.js';

const joinPath = (a: string, b: string) => (a === '' ? b : `${a}/${b}`);
const dirOf = (p: string) => p.slice(0, Math.max(0, p.lastIndexOf('/')));

/** The path without its extension and without a trailing `/index`, `/__init__` or `/mod`. */
function stemOf(p: string): string {
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
  readonly #paths: readonly string[];

  /** `paths`: every root-relative path of the code map, sorted (the first of a collision wins). */
  constructor(paths: readonly string[]) {
    this.#paths = paths;
    for (const p of paths) {
      const s = stemOf(p);
      if (!this.#byStem.has(s)) this.#byStem.set(s, p);
    }
  }

  /**
   * The file `module` (imported by `from`, written in `language`) names, or null. Answers that
   * do not depend on the importing file (packages, dotted and Go import paths) are remembered
   * by module: a code map repeats the same few hundred of those tens of thousands of times.
   * Relative specifiers and Rust paths depend on the importer and are resolved each time
   * (a folder join and one map lookup).
   */
  resolve(from: string, language: string | null, module: string): string | null {
    const rule = language !== null && Object.hasOwn(FILE_IMPORT_RULES, language) ? FILE_IMPORT_RULES[language] : undefined;
    if (rule !== undefined) {
      const target = this.#byRule(from, rule(module));
      return target === from ? null : target;
    }
    const stems = lookupStems(from, language, module);
    if (stems !== null) return this.resolveStems(from, stems);
    const key = language === null ? module : `${language}:${module}`;
    let target = this.#memo.get(key);
    if (target === undefined) this.#memo.set(key, (target = this.#resolveByModule(language, module)));
    return target === from ? null : target;
  }

  /** The first of `stems` (from `lookupStems`) that names a file of the map, other than `from`. */
  resolveStems(from: string, stems: readonly string[]): string | null {
    for (const stem of stems) {
      const hit = this.#byStem.get(stem);
      if (hit !== undefined) return hit === from ? null : hit;
    }
    return null;
  }

  #resolveByModule(language: string | null, module: string): string | null {
    switch (language) {
      case 'python':
        return this.#suffix(module.replace(/\./g, '/'));
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

  #go(module: string): string | null {
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
    const crate = this.#crateRoots().get(parts.shift()!);
    if (!crate) return null;
    for (let k = parts.length; k >= 1; k--) {
      const hit = this.#byStem.get(stemOf(joinPath(crate, parts.slice(0, k).join('/'))));
      if (hit) return hit;
    }
    return this.#byStem.get(stemOf(joinPath(crate, 'lib'))) ?? null;
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
    return stems;
  }
  if (language === 'go' || language === 'java' || (language !== null && Object.hasOwn(FILE_IMPORT_RULES, language))) return null;
  return module.charCodeAt(0) === 46 /* . */ ? [stemOf(joinRelative(dirOf(from), module))] : null;
}
