/**
 * The facts of a build manifest that say how imports name files (src/resolve/ reads them):
 * a package.json's name and entry points, a tsconfig's paths, a go.mod's module path, a
 * Cargo.toml's crate, a Python project's source folders. Read on the pool thread with the
 * file's text, like definitions, and kept on the file's row (`files.manifest`), so resolution
 * never reads a file on the main thread and follows a manifest's edit on the next tick.
 *
 * Only what resolution uses is kept, bounded: a manifest that does not parse keeps nothing
 * (its imports resolve as if it were absent), never an error.
 */
import { parse as parseToml } from 'smol-toml';

export type Manifest =
  | { kind: 'package'; name?: string; exports?: unknown; imports?: unknown; main?: string; module?: string; types?: string }
  | { kind: 'tsconfig'; extends?: string[]; baseUrl?: string; paths?: Record<string, string[]>; conditions?: string[]; rootDir?: string; outDir?: string }
  | { kind: 'go-module'; module: string; replace?: Record<string, string> }
  | { kind: 'go-work'; use: string[] }
  | { kind: 'crate'; name?: string; libName?: string; libPath?: string }
  | { kind: 'python-project'; sourceDirs?: string[] };

/** Most bytes of a manifest's facts kept (an `exports` map of thousands of subpaths is cut). */
export const MAX_MANIFEST_JSON_BYTES = 64 * 1024;

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** Whether a file of this name may be a manifest (one string test per file of a burst). */
export function isManifestPath(path: string): boolean {
  const b = baseName(path);
  return b === 'package.json' || b === 'go.mod' || b === 'go.work' || b === 'Cargo.toml' || b === 'pyproject.toml' || b === 'setup.py' || b === 'setup.cfg'
    || ((b.startsWith('tsconfig') || b.startsWith('jsconfig')) && b.endsWith('.json'));
}

/** The manifest's facts as stored JSON, or null for a file that is none (or does not parse). */
export function manifestJson(path: string, text: string): string | null {
  if (!isManifestPath(path) || path.includes('node_modules/')) return null;
  let m: Manifest | null;
  try {
    m = manifestOf(baseName(path), text);
  } catch {
    m = null;
  }
  if (m === null) return null;
  const json = JSON.stringify(m);
  if (json.length <= MAX_MANIFEST_JSON_BYTES) return json;
  if (m.kind === 'package') return JSON.stringify({ ...m, exports: undefined, imports: undefined });
  return null;
}

const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);
const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : undefined);

function manifestOf(base: string, text: string): Manifest | null {
  if (base === 'package.json') {
    const p = JSON.parse(text) as Record<string, unknown>;
    if (p === null || typeof p !== 'object') return null;
    return { kind: 'package', name: str(p.name), exports: p.exports ?? undefined, imports: p.imports ?? undefined, main: str(p.main), module: str(p.module), types: str(p.types) ?? str(p.typings) };
  }
  if (base.endsWith('.json')) {
    const c = JSON.parse(stripJsonComments(text)) as Record<string, unknown>;
    if (c === null || typeof c !== 'object') return null;
    const o = (c.compilerOptions ?? {}) as Record<string, unknown>;
    const paths = o.paths !== null && typeof o.paths === 'object' ? Object.fromEntries(Object.entries(o.paths as Record<string, unknown>).map(([k, v]) => [k, strings(v) ?? []])) : undefined;
    return { kind: 'tsconfig', extends: strings(c.extends), baseUrl: str(o.baseUrl), paths, conditions: strings(o.customConditions), rootDir: str(o.rootDir), outDir: str(o.outDir) };
  }
  if (base === 'go.mod') return goMod(text);
  if (base === 'go.work') {
    const use: string[] = [];
    for (const m of text.matchAll(/^\s*use\s+(?:\(([^)]*)\)|(\S+))/gm)) {
      for (const d of (m[1] ?? m[2]!).split('\n')) {
        const dir = d.replace(/\/\/.*$/, '').trim().replace(/^"|"$/g, '');
        if (dir) use.push(dir);
      }
    }
    return { kind: 'go-work', use };
  }
  if (base === 'Cargo.toml') {
    const t = parseToml(text) as Record<string, Record<string, unknown> | undefined>;
    return { kind: 'crate', name: str(t.package?.name), libName: str(t.lib?.name), libPath: str(t.lib?.path) };
  }
  if (base === 'pyproject.toml') {
    const t = parseToml(text) as Record<string, unknown>;
    return { kind: 'python-project', sourceDirs: pythonSourceDirs(t) };
  }
  return { kind: 'python-project' };
}

function goMod(text: string): Manifest | null {
  const module = /^\s*module\s+"?([^\s"]+)"?/m.exec(text)?.[1];
  if (module === undefined) return null;
  const replace: Record<string, string> = {};
  const lines = [...text.matchAll(/^\s*replace\s+(?:\(([^)]*)\)|(.+))/gm)].flatMap((m) => (m[1] ?? m[2]!).split('\n'));
  for (const line of lines) {
    const r = /^\s*(\S+)(?:\s+\S+)?\s*=>\s*(\.{1,2}\/\S*)/.exec(line.replace(/\/\/.*$/, ''));
    if (r) replace[r[1]!] = r[2]!;
  }
  return Object.keys(replace).length > 0 ? { kind: 'go-module', module, replace } : { kind: 'go-module', module };
}

/** setuptools' `package-dir` and `packages.find.where`, poetry's `packages[].from`, hatch's wheel packages. */
function pythonSourceDirs(t: Record<string, unknown>): string[] | undefined {
  const tool = (t.tool ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const dirs = new Set<string>();
  const setuptools = tool.setuptools ?? {};
  const pkgDir = setuptools['package-dir'] as Record<string, unknown> | undefined;
  if (pkgDir && typeof pkgDir[''] === 'string') dirs.add(pkgDir['']);
  const find = ((setuptools.packages ?? {}) as Record<string, unknown>).find as Record<string, unknown> | undefined;
  for (const w of strings(find?.where) ?? []) dirs.add(w);
  for (const p of (tool.poetry?.packages as { from?: unknown }[] | undefined) ?? []) if (typeof p?.from === 'string') dirs.add(p.from);
  const wheel = (((tool.hatch?.build as Record<string, unknown> | undefined)?.targets as Record<string, unknown> | undefined)?.wheel as Record<string, unknown> | undefined)?.packages;
  for (const p of strings(wheel) ?? []) if (p.includes('/')) dirs.add(p.slice(0, p.lastIndexOf('/')));
  const out = [...dirs].map((d) => d.replace(/^\.\/?/, '').replace(/\/$/, ''));
  return out.length > 0 ? out : undefined;
}

/** JSON with comments and trailing commas (tsconfig's own dialect) as plain JSON. */
export function stripJsonComments(text: string): string {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}
