/**
 * A repository's layout as its build tools read it, from the manifests the pool kept on the
 * code map's rows (src/ingest/manifest.ts): one table per ecosystem.
 *
 *   packages     every package.json with a name → its folder and entry points (npm, yarn and
 *                pnpm workspaces alike: a workspace member is a package.json with a name, so
 *                no workspace glob and no node_modules is needed to find one)
 *   tsconfigs    each folder's tsconfig.json (else jsconfig.json, else another tsconfig*.json)
 *                with its `extends` chain merged: baseUrl, paths, customConditions, rootDir/outDir
 *   goModules    go.mod module paths (and their local `replace`s) → folders, longest first
 *   crates       Cargo.toml package (or lib) names, `-` as `_` → the crate's root file's folder
 *   pythonRoots  the folders of pyproject.toml / setup.py / setup.cfg, with their declared
 *                source folders (setuptools, poetry, hatch) and a `src/` layout's `src`
 *
 * Read once per code-map version of the manifests: the key is every manifest's path and hash,
 * so an edit to one (a new path alias, a renamed package) rebuilds it on the next query, and
 * nothing else is read again.
 */
import type { Database } from '../store/index.js';
import type { Manifest } from '../ingest/manifest.js';

export interface PackageEntry {
  dir: string;
  name: string;
  exports?: unknown;
  imports?: unknown;
  main?: string;
  module?: string;
  types?: string;
}

export interface TsConfig {
  dir: string;
  /** Absolute within the repository (root-relative), already joined to the config that set it. */
  baseUrl?: string;
  paths?: Record<string, string[]>;
  /** Where `paths` targets are read from: baseUrl when set, else the folder of the config that set them. */
  pathsBase: string;
  conditions: string[];
  rootDir?: string;
  outDir?: string;
}

export interface Layout {
  key: string;
  packages: Map<string, PackageEntry>;
  packagesByDir: Map<string, PackageEntry>;
  tsconfigs: Map<string, TsConfig>;
  goModules: { module: string; dir: string }[];
  crates: Map<string, { srcDir: string; rootFile?: string }>;
  pythonRoots: string[];
  /** Whether any manifest was seen at all (a repository without one resolves as before). */
  empty: boolean;
}

/** Most steps of a tsconfig `extends` chain followed. */
const MAX_EXTENDS_STEPS = 8;

const dirOf = (p: string) => p.slice(0, Math.max(0, p.lastIndexOf('/')));
const baseOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** `dir` joined with a relative path, `.` and `..` applied. */
export function joinPath(dir: string, rel: string): string {
  const out = dir === '' ? [] : dir.split('/');
  for (const seg of rel.split('/')) {
    if (seg === '..') out.pop();
    else if (seg !== '.' && seg !== '') out.push(seg);
  }
  return out.join('/');
}

const layouts = new WeakMap<Database, Layout>();

/** The layout of the brain's manifests, rebuilt only when one of them changed. */
export function loadLayout(db: Database): Layout {
  const rows = db
    .prepare('SELECT path, hash, manifest FROM files WHERE manifest IS NOT NULL')
    .all<{ path: string; hash: string; manifest: string }>();
  rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  let key = '';
  for (const r of rows) key += `${r.path}\0${r.hash}\n`;
  const known = layouts.get(db);
  if (known && known.key === key) return known;
  const layout = buildLayout(rows.map((r) => ({ path: r.path, manifest: JSON.parse(r.manifest) as Manifest })), key);
  layouts.set(db, layout);
  return layout;
}

export function buildLayout(manifests: { path: string; manifest: Manifest }[], key = ''): Layout {
  const packages = new Map<string, PackageEntry>();
  const packagesByDir = new Map<string, PackageEntry>();
  const rawTs = new Map<string, Extract<Manifest, { kind: 'tsconfig' }>>();
  const goModules: { module: string; dir: string }[] = [];
  const crates = new Map<string, { srcDir: string; rootFile?: string }>();
  const pythonRoots = new Set<string>();
  // Shallowest first: where two package.json files share a name, the one nearer the top (the
  // workspace's, not a fixture's or an example's copy) keeps it.
  const ordered = [...manifests].sort((a, b) => a.path.split('/').length - b.path.split('/').length || (a.path < b.path ? -1 : 1));
  for (const { path, manifest: m } of ordered) {
    const dir = dirOf(path);
    switch (m.kind) {
      case 'package': {
        const entry: PackageEntry = { dir, name: m.name ?? '', exports: m.exports, imports: m.imports, main: m.main, module: m.module, types: m.types };
        packagesByDir.set(dir, entry);
        if (m.name && !packages.has(m.name)) packages.set(m.name, entry);
        break;
      }
      case 'tsconfig':
        rawTs.set(path, m);
        break;
      case 'go-module':
        goModules.push({ module: m.module, dir });
        for (const [mod, rel] of Object.entries(m.replace ?? {})) goModules.push({ module: mod, dir: joinPath(dir, rel) });
        break;
      case 'go-work':
        break;
      case 'crate': {
        const name = (m.libName ?? m.name)?.replace(/-/g, '_');
        if (name === undefined || crates.has(name)) break;
        const rootFile = joinPath(dir, m.libPath ?? 'src/lib.rs');
        crates.set(name, { srcDir: dirOf(rootFile), rootFile });
        break;
      }
      case 'python-project':
        pythonRoots.add(dir);
        pythonRoots.add(joinPath(dir, 'src'));
        for (const s of m.sourceDirs ?? []) pythonRoots.add(joinPath(dir, s));
        break;
    }
  }
  goModules.sort((a, b) => b.module.length - a.module.length);
  return {
    key,
    packages,
    packagesByDir,
    tsconfigs: mergeTsconfigs(rawTs, packages),
    goModules,
    crates,
    pythonRoots: [...pythonRoots].sort((a, b) => b.length - a.length),
    empty: manifests.length === 0,
  };
}

/** Each folder's governing tsconfig, its `extends` chain merged as the compiler merges it. */
function mergeTsconfigs(raw: Map<string, Extract<Manifest, { kind: 'tsconfig' }>>, packages: Map<string, PackageEntry>): Map<string, TsConfig> {
  const merged = new Map<string, TsConfig>();
  const resolveExtends = (from: string, spec: string): string | undefined => {
    const withJson = (p: string) => (raw.has(p) ? p : raw.has(`${p}.json`) ? `${p}.json` : raw.has(`${p}/tsconfig.json`) ? `${p}/tsconfig.json` : undefined);
    if (spec.startsWith('.')) return withJson(joinPath(dirOf(from), spec));
    // A package's config (`@repo/tsconfig/base.json`): a workspace package, else outside the repository.
    let best: PackageEntry | undefined;
    for (const [name, p] of packages) if ((spec === name || spec.startsWith(name + '/')) && (!best || name.length > best.name.length)) best = p;
    if (!best) return undefined;
    return withJson(joinPath(best.dir, spec.slice(best.name.length).replace(/^\//, '') || 'tsconfig.json'));
  };
  const configOf = (path: string, depth: number): TsConfig => {
    const m = raw.get(path)!;
    const dir = dirOf(path);
    let base: TsConfig = { dir, pathsBase: dir, conditions: [] };
    if (depth < MAX_EXTENDS_STEPS) {
      for (const ext of m.extends ?? []) {
        const target = resolveExtends(path, ext);
        if (target !== undefined && target !== path) base = { ...configOf(target, depth + 1), dir };
      }
    }
    const out: TsConfig = { ...base, dir };
    if (m.baseUrl !== undefined) out.baseUrl = joinPath(dir, m.baseUrl);
    if (m.paths !== undefined) {
      out.paths = m.paths;
      out.pathsBase = m.baseUrl !== undefined ? out.baseUrl! : dir;
    } else if (m.baseUrl !== undefined && base.paths === undefined) out.pathsBase = out.baseUrl!;
    if (m.conditions !== undefined) out.conditions = m.conditions;
    if (m.rootDir !== undefined) out.rootDir = joinPath(dir, m.rootDir);
    if (m.outDir !== undefined) out.outDir = joinPath(dir, m.outDir);
    return out;
  };
  // tsconfig.json governs its folder; else jsconfig.json; else the first other tsconfig*.json.
  const rank = (p: string) => (baseOf(p) === 'tsconfig.json' ? 0 : baseOf(p) === 'jsconfig.json' ? 1 : 2);
  const chosen = new Map<string, string>();
  for (const path of [...raw.keys()].sort()) {
    const dir = dirOf(path);
    const have = chosen.get(dir);
    if (have === undefined || rank(path) < rank(have)) chosen.set(dir, path);
  }
  for (const [dir, path] of chosen) merged.set(dir, configOf(path, 0));
  return merged;
}
