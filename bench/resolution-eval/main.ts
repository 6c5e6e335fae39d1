/**
 * `npm run eval:resolution -- <work tree>... [--json] [--misses N]`
 *
 * The resolution eval: ingest each repository into a fresh brain (a temporary home, removed at
 * the end) and count, per language, the imports that name a module of the repository itself
 * and how many of them the code graph resolves to a file. What "names the repository" means is
 * each ecosystem's own rule, read from the repository's manifests by the same layout the
 * resolver uses, and, for TypeScript, also asked of the compiler:
 *
 *   TypeScript/JavaScript  a relative specifier, or one that starts with a workspace package's
 *                          name, or matches a tsconfig `paths` pattern, or is `#…`
 *   Go                     an import path under one of the repository's go.mod module paths
 *   Rust                   `crate::`/`self::`/`super::`, or a workspace crate's name
 *   Python                 a relative import, or one whose first segment is a package (a folder
 *                          with Python files) under one of the project's source folders
 *
 * Imports of a file under a folder the map skips (fixtures that name missing files) count like
 * any other. Progress on stderr; exit 2 on bad input.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { Brains } from '../../src/brain/index.js';
import { loadLayout, lookupStems, stemOf } from '../../src/resolve/index.js';
import { joinPath } from '../../src/resolve/workspace-layout.js';
import { loadCodeGraph } from '../../src/skeleton/index.js';
import { runTick } from '../../src/vigil/index.js';

const USAGE = 'usage: npm run eval:resolution -- <work tree>... [--json] [--misses N]';

interface LanguageScore {
  language: string;
  /** Imports that name a module of the repository (by the ecosystem's rule). */
  own: number;
  resolved: number;
  rate: number;
  misses: string[];
}

function parseArgs(argv: string[]) {
  const repos: string[] = [];
  let json = false;
  let misses = 5;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json') json = true;
    else if (a === '--misses') {
      misses = Number(argv[++i]);
      if (!Number.isInteger(misses) || misses < 0) throw new Error(`--misses must be a whole number ≥ 0, got ${JSON.stringify(argv[i] ?? null)}`);
    } else if (a.startsWith('-')) throw new Error(`unknown option ${a}; ${USAGE}`);
    else repos.push(resolve(a));
  }
  if (repos.length === 0) throw new Error(USAGE);
  return { repos, json, misses };
}

const FAMILY: Record<string, string> = { typescript: 'typescript', javascript: 'typescript', vue: 'typescript', svelte: 'typescript', go: 'go', rust: 'rust', python: 'python' };

async function scoreRepo(dir: string, keepMisses: number, log: (s: string) => void): Promise<{ repo: string; files: number; languages: LanguageScore[] }> {
  const tmp = mkdtempSync(join(tmpdir(), 'gardener-resolution-eval-'));
  const brains = new Brains({ home: join(tmp, 'home'), maxThreads: 2 });
  try {
    const { brain } = await brains.ensure(dir);
    const tick = await runTick(brain, { inventory: true });
    const db = brain.reader;
    const layout = loadLayout(db);
    const graph = loadCodeGraph(db);
    const packageNames = [...layout.packages.keys()];
    // A `paths` pattern names the repository when one of its targets is a folder of it (not one
    // that points into node_modules, like `"react": ["./node_modules/preact/compat"]`).
    const mappedDirs = new Set<string>();
    for (const f of graph.files) for (let d = f.path; d.includes('/'); ) mappedDirs.add((d = d.slice(0, d.lastIndexOf('/'))));
    const patterns: { prefix: string; exact: boolean }[] = [];
    for (const cfg of layout.tsconfigs.values()) {
      for (const [k, targets] of Object.entries(cfg.paths ?? {})) {
        const inRepo = targets.some((t) => {
          const dir = joinPath(cfg.pathsBase, t.slice(0, t.includes('*') ? t.indexOf('*') : t.length));
          return !dir.includes('node_modules') && (mappedDirs.has(dir) || mappedDirs.has(dir.slice(0, dir.lastIndexOf('/'))) || dir === '');
        });
        if (inRepo) patterns.push(k.includes('*') ? { prefix: k.slice(0, k.indexOf('*')), exact: false } : { prefix: k, exact: true });
      }
    }
    const crates = new Set(layout.crates.keys());
    const pyPackages = new Set<string>();
    const allPaths = graph.files.map((f) => f.path);
    for (const p of allPaths) {
      if (!p.endsWith('.py')) continue;
      for (const root of layout.pythonRoots.length > 0 ? layout.pythonRoots : ['']) {
        if (root !== '' && !p.startsWith(root + '/')) continue;
        const rest = root === '' ? p : p.slice(root.length + 1);
        const first = rest.split('/')[0]!;
        pyPackages.add(first.replace(/\.py$/, ''));
      }
    }
    const owns = (family: string, module: string): boolean => {
      switch (family) {
        case 'typescript':
          return module.startsWith('.') || module.startsWith('#')
            || packageNames.some((n) => module === n || module.startsWith(n + '/'))
            || patterns.some((p) => (p.exact ? module === p.prefix : module.startsWith(p.prefix) && p.prefix.length > 0));
        case 'go':
          return layout.goModules.some(({ module: m }) => module === m || module.startsWith(m + '/'));
        case 'rust': {
          const head = module.split('::')[0]!;
          return head === 'crate' || head === 'self' || head === 'super' || crates.has(head);
        }
        case 'python':
          return module.startsWith('.') || pyPackages.has(module.split('.')[0]!);
        default:
          return false;
      }
    };
    const byFamily = new Map<string, LanguageScore>();
    for (const row of db.prepare('SELECT path, language, imports FROM files WHERE imports != \'[]\'').all<{ path: string; language: string | null; imports: string }>()) {
      const family = FAMILY[row.language ?? ''];
      if (family === undefined) continue;
      const resolved = new Set((graph.byPath.get(row.path)?.imports ?? []).map((i) => `${i.line}\0${i.module}`));
      let score = byFamily.get(family);
      if (!score) byFamily.set(family, (score = { language: family, own: 0, resolved: 0, rate: 0, misses: [] }));
      for (const imp of JSON.parse(row.imports) as { module: string; line: number }[]) {
        if (!owns(family, imp.module)) continue;
        score.own++;
        // `super::x` in a file's own test module, Python's `from . import x` in a package's
        // `__init__`: the import names the importing file itself, which the graph leaves out.
        const self = lookupStems(row.path, row.language, imp.module)?.includes(stemOf(row.path)) === true;
        if (self || resolved.has(`${imp.line}\0${imp.module}`)) score.resolved++;
        else if (score.misses.length < keepMisses) score.misses.push(`${row.path}:${imp.line} ${imp.module}`);
      }
    }
    const languages = [...byFamily.values()].filter((s) => s.own > 0).map((s) => ({ ...s, rate: Number((s.resolved / s.own).toFixed(3)) }));
    log(`${basename(dir)}: ${tick.drained} files; ${languages.map((l) => `${l.language} ${l.resolved}/${l.own}`).join(', ')}`);
    return { repo: basename(dir), files: graph.files.length, languages };
  } finally {
    await brains.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(2);
  }
  const results = [];
  for (const repo of args.repos) results.push(await scoreRepo(repo, args.misses, (s) => process.stderr.write(`${s}\n`)));
  if (args.json) {
    process.stdout.write(`${JSON.stringify(results, null, 1)}\n`);
    return;
  }
  process.stdout.write('| repository | files | language | imports of its own modules | resolved to a file | rate |\n|---|---|---|---|---|---|\n');
  for (const r of results) for (const l of r.languages) process.stdout.write(`| ${r.repo} | ${r.files} | ${l.language} | ${l.own} | ${l.resolved} | ${(l.rate * 100).toFixed(1)}% |\n`);
  for (const r of results) for (const l of r.languages) if (l.misses.length > 0) process.stdout.write(`\n${r.repo} ${l.language} misses:\n${l.misses.map((m) => `  ${m}`).join('\n')}\n`);
}

await main();
