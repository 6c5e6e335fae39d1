/**
 * A bare TypeScript/JavaScript specifier (`@scope/pkg`, `pkg/sub`, `@/x`, `#internal`) to a file
 * of the repository, in the order the compiler tries them under `moduleResolution: bundler`:
 *
 *   1. the governing tsconfig's `paths` (the longest matching pattern; each target in order),
 *      read from baseUrl or from the config that set them, through its `extends` chain
 *   2. `baseUrl` alone
 *   3. `#…` through the nearest package.json's `imports`
 *   4. a workspace package by name (the longest name that prefixes the specifier): its
 *      `exports` (subpaths, `*` patterns, conditions: the tsconfig's `customConditions` first,
 *      then every other in the map's own order), else `types`, `module`, `main`, else `index`
 *
 * A target the map does not hold (a `dist/` or `build/` output that is not committed) is read
 * back to its source as project references do: the package tsconfig's outDir → rootDir, else
 * the same path under `src/`, else the package's `src/index`. What names no file of the
 * repository stays external (null): a dependency, a builtin.
 */
import type { Layout, PackageEntry, TsConfig } from './workspace-layout.js';
import { joinPath } from './workspace-layout.js';

/** Folders a package's build output usually sits in, read back to `src/` when not mapped. */
const OUTPUT_DIRS = new Set(['dist', 'build', 'lib', 'out', 'esm', 'cjs', 'es', 'types', 'dts', 'legacy', 'modern']);

export class TypeScriptResolution {
  readonly #layout: Layout;
  readonly #fileAt: (path: string) => string | null;
  readonly #governing = new Map<string, TsConfig | null>();
  readonly #nearestPackage = new Map<string, PackageEntry | null>();
  #names: string[] | undefined;

  /** `fileAt`: the mapped file a path names, extension-insensitively (`.js` finds `.ts`), or null. */
  constructor(layout: Layout, fileAt: (path: string) => string | null) {
    this.#layout = layout;
    this.#fileAt = fileAt;
  }

  /** The tsconfig that governs files of `dir` (the nearest one above), or null. */
  governing(dir: string): TsConfig | null {
    let hit = this.#governing.get(dir);
    if (hit !== undefined) return hit;
    hit = this.#layout.tsconfigs.get(dir) ?? (dir === '' ? null : this.governing(dir.slice(0, Math.max(0, dir.lastIndexOf('/')))));
    this.#governing.set(dir, hit);
    return hit;
  }

  #packageOf(dir: string): PackageEntry | null {
    let hit = this.#nearestPackage.get(dir);
    if (hit !== undefined) return hit;
    hit = this.#layout.packagesByDir.get(dir) ?? (dir === '' ? null : this.#packageOf(dir.slice(0, Math.max(0, dir.lastIndexOf('/')))));
    this.#nearestPackage.set(dir, hit);
    return hit;
  }

  /** The file `spec`, imported from a file of `fromDir`, names; null when it names none of the repository. */
  resolve(fromDir: string, spec: string): string | null {
    const cfg = this.governing(fromDir);
    if (cfg?.paths) {
      const hit = this.#byPaths(cfg, spec);
      if (hit !== null) return hit;
    }
    if (cfg?.baseUrl !== undefined) {
      const hit = this.#fileAt(joinPath(cfg.baseUrl, spec));
      if (hit !== null) return hit;
    }
    if (spec.startsWith('#')) {
      const pkg = this.#packageOf(fromDir);
      if (pkg?.imports !== undefined) return this.#targets(pkg, entryTargets(pkg.imports, spec, cfg?.conditions ?? [], true));
      return null;
    }
    const pkg = this.#packageNamed(spec);
    if (pkg === null) return null;
    const sub = spec.length === pkg.name.length ? '.' : `.${spec.slice(pkg.name.length)}`;
    const conditions = cfg?.conditions ?? [];
    if (pkg.exports !== undefined && pkg.exports !== null) {
      const hit = this.#targets(pkg, entryTargets(pkg.exports, sub, conditions, false));
      if (hit !== null) return hit;
    } else if (sub === '.') {
      const hit = this.#targets(pkg, [pkg.types, pkg.module, pkg.main, './index'].filter((t): t is string => t !== undefined));
      if (hit !== null) return hit;
    } else {
      const hit = this.#targets(pkg, [sub]);
      if (hit !== null) return hit;
    }
    // A workspace package whose entry names nothing mapped: its source's own index.
    return sub === '.' ? this.#fileAt(joinPath(pkg.dir, 'src/index')) ?? this.#fileAt(joinPath(pkg.dir, 'index')) : null;
  }

  #packageNamed(spec: string): PackageEntry | null {
    this.#names ??= [...this.#layout.packages.keys()].sort((a, b) => b.length - a.length);
    for (const name of this.#names) {
      if (spec === name || (spec.startsWith(name) && spec.charCodeAt(name.length) === 47 /* / */)) return this.#layout.packages.get(name)!;
    }
    return null;
  }

  #byPaths(cfg: TsConfig, spec: string): string | null {
    let best: { key: string; star: string } | undefined;
    for (const key of Object.keys(cfg.paths!)) {
      const star = key.indexOf('*');
      if (star < 0) {
        if (key === spec) {
          best = { key, star: '' };
          break;
        }
        continue;
      }
      const prefix = key.slice(0, star);
      const suffix = key.slice(star + 1);
      if (spec.length >= prefix.length + suffix.length && spec.startsWith(prefix) && spec.endsWith(suffix)) {
        if (!best || prefix.length > best.key.indexOf('*')) best = { key, star: spec.slice(prefix.length, spec.length - suffix.length) };
      }
    }
    if (!best) return null;
    for (const target of cfg.paths![best.key] ?? []) {
      const hit = this.#fileAt(joinPath(cfg.pathsBase, target.replace('*', best.star)));
      if (hit !== null) return hit;
    }
    return null;
  }

  /** The first of a package's targets (`./src/index.ts`, `./dist/x.js`) that names a mapped file, or its source. */
  #targets(pkg: PackageEntry, targets: string[]): string | null {
    for (const t of targets) {
      if (!t.startsWith('.') && !t.startsWith('/')) {
        // A bare target (in `imports`) may name another package: resolve it as one.
        const other = this.#packageNamed(t);
        if (other !== null && other !== pkg) return this.resolve(other.dir, t);
      }
      const path = joinPath(pkg.dir, t);
      const hit = this.#fileAt(path);
      if (hit !== null) return hit;
    }
    for (const t of targets) {
      const hit = this.#sourceOf(pkg, joinPath(pkg.dir, t));
      if (hit !== null) return hit;
    }
    return null;
  }

  /** A build output's source: outDir → rootDir of the package's tsconfig, else the same path under `src/`. */
  #sourceOf(pkg: PackageEntry, path: string): string | null {
    const cfg = this.#layout.tsconfigs.get(pkg.dir);
    if (cfg?.outDir !== undefined && (path === cfg.outDir || path.startsWith(cfg.outDir + '/'))) {
      const hit = this.#fileAt(joinPath(cfg.rootDir ?? joinPath(pkg.dir, 'src'), path.slice(cfg.outDir.length + 1)));
      if (hit !== null) return hit;
    }
    const rel = pkg.dir === '' ? path : path.slice(pkg.dir.length + 1);
    const segments = rel.split('/');
    for (let k = 1; k < segments.length && OUTPUT_DIRS.has(segments[k - 1]!); k++) {
      const hit = this.#fileAt(joinPath(pkg.dir, ['src', ...segments.slice(k)].join('/')));
      if (hit !== null) return hit;
    }
    return null;
  }
}

/**
 * The targets an `exports` (or `imports`) map gives a subpath, best first: the exact key, else
 * the `*` pattern with the longest prefix; within conditions, the custom ones first, then the
 * rest in the map's order (every condition's target is a candidate: the first that names a
 * mapped file wins, so a `types` target that points at unbuilt output gives way to `source`).
 */
export function entryTargets(map: unknown, sub: string, conditions: readonly string[], isImports: boolean): string[] {
  let table: Record<string, unknown>;
  if (typeof map === 'string' || Array.isArray(map)) table = { '.': map };
  else if (map !== null && typeof map === 'object') {
    const keys = Object.keys(map);
    table = !isImports && keys.length > 0 && !keys.some((k) => k.startsWith('.')) ? { '.': map } : (map as Record<string, unknown>);
  } else return [];
  let value: unknown;
  let star: string | undefined;
  if (Object.hasOwn(table, sub)) value = table[sub];
  else {
    let bestPrefix = -1;
    for (const key of Object.keys(table)) {
      const at = key.indexOf('*');
      if (at < 0) continue;
      const prefix = key.slice(0, at);
      const suffix = key.slice(at + 1);
      if (sub.startsWith(prefix) && sub.endsWith(suffix) && sub.length >= prefix.length + suffix.length && prefix.length > bestPrefix) {
        bestPrefix = prefix.length;
        value = table[key];
        star = sub.slice(prefix.length, sub.length - suffix.length);
      }
    }
  }
  const out: string[] = [];
  collectTargets(value, conditions, out, 0);
  return star === undefined ? out : out.map((t) => t.split('*').join(star));
}

function collectTargets(value: unknown, conditions: readonly string[], out: string[], depth: number): void {
  if (depth > 6 || value === null || value === undefined) return;
  if (typeof value === 'string') {
    if (!out.includes(value)) out.push(value);
  } else if (Array.isArray(value)) {
    for (const v of value) collectTargets(v, conditions, out, depth + 1);
  } else if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    for (const [k, v] of entries) if (conditions.includes(k)) collectTargets(v, conditions, out, depth + 1);
    for (const [k, v] of entries) if (!conditions.includes(k)) collectTargets(v, conditions, out, depth + 1);
  }
}
