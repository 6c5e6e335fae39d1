/**
 * `npm run eval:refs -- <git work tree>... [--symbols N] [--seed S] [--json]`
 *
 * The refs eval: for each repository, ingest it into a fresh brain (a temporary home, removed
 * at the end), sample up to N exported top-level functions and classes of its TypeScript files
 * from the brain's own definitions, and compare the files `refs` names besides the
 * definition's own with the files the TypeScript language service's `findReferences` names
 * (language-service.ts: the repository's own tsconfig, workspace packages resolvable by name as
 * an install would link them); and, when python3 can import jedi, the same for the Python files
 * against jedi's get_references (jedi-oracle.py). Three modes per symbol:
 *
 *   - `path`: `refs NAME --path DEF`, every file it lists (the uses resolved to DEF's file plus
 *     the unresolved ones);
 *   - `name`: `refs NAME` alone, scored as the issue defines it: the files of the uses that
 *     resolve to the sampled definition plus the unresolved ones that could be it (a use
 *     labelled `among: "methods"` is a method of an unknown receiver, never a function);
 *   - `union`: `refs NAME` alone, every file listed (for contrast: what a reader who ignores
 *     `definition` would take).
 *
 * File-level recall and precision are pooled over the symbols (every file of every symbol counts
 * once); files the oracle does not read (Vue and Svelte components for the language service)
 * are left out of both sides and counted (`unscored`). Oracle files in another workspace package than the definition's are counted apart
 * (`cross`), so uses across packages are seen to be included. Progress on stderr; exit 2 on bad
 * input.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve, sep } from 'node:path';
import { Brains } from '../../src/brain/index.js';
import type { SymbolDef } from '../../src/ingest/extract/types.js';
import { refsAnswer } from '../../src/tools/reference-answers.js';
import { runTick } from '../../src/vigil/index.js';
import { Rng, seedOf } from '../fixtures/source-files.js';
import { ReferenceOracle } from './language-service.js';

const USAGE = 'usage: npm run eval:refs -- <git work tree>... [--symbols N] [--seed S] [--json]';
const DEFAULT_SYMBOLS = 150;

const MODES = ['path', 'name', 'union'] as const;
type Mode = (typeof MODES)[number];

interface ModeScore {
  truePositives: number;
  ours: number;
  recall: number;
  precision: number;
  /** Oracle files in another package than the definition's that this mode names. */
  crossFound: number;
  /** The first misses and extras, for reading. */
  misses: string[];
  extras: string[];
  /** The symbols with the most misses plus extras: `name (path:line) −misses +extras`. */
  worst: string[];
}

interface RepoScore {
  repo: string;
  commit: string;
  language: 'typescript' | 'python';
  files: number;
  symbols: number;
  /** Symbols the oracle could not place (name not on its line, or no answer). */
  skipped: number;
  /** Files the oracle names (the definition's own left out), pooled over the symbols. */
  theirs: number;
  /** Of those, files in another workspace package than the definition's. */
  cross: number;
  /** Files `refs --path` names that the oracle does not read (components of Vue, Svelte…), left out of the scores. */
  unscored: number;
  /** Workspace-package imports of the repository the oracle resolves to a repository file (its self-check), when it has workspace packages. */
  oracleWorkspaceImports?: { resolved: number; total: number };
  modes: Record<Mode, ModeScore>;
}

class UsageError extends Error {}

function parseArgs(argv: string[]) {
  const repos: string[] = [];
  let symbols = DEFAULT_SYMBOLS;
  let seed = 1;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const int = (v: string | undefined, min: number) => {
      const n = Number(v);
      if (v === undefined || !Number.isInteger(n) || n < min) throw new UsageError(`${a} must be an integer ≥ ${min}, got ${JSON.stringify(v ?? null)}`);
      return n;
    };
    if (a === '--json') json = true;
    else if (a === '--symbols') symbols = int(argv[++i], 1);
    else if (a === '--seed') seed = int(argv[++i], 0);
    else if (a.startsWith('--')) throw new UsageError(`unknown option ${a}`);
    else repos.push(resolve(a));
  }
  if (repos.length === 0) throw new UsageError('no repository given');
  for (const r of repos) {
    try {
      execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: r, stdio: 'ignore' });
    } catch {
      throw new UsageError(`${r} is not a git work tree (clone a bare repository first)`);
    }
  }
  return { repos, symbols, seed, json };
}

/** Asks the jedi oracle (jedi-oracle.py) over one long-lived python3 process. */
class JediOracle {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #lines: AsyncIterator<string>;

  constructor(root: string) {
    this.#child = spawn('python3', [fileURLToPath(new URL('../../../bench/refs-eval/jedi-oracle.py', import.meta.url)), root], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.#child.stderr.resume();
    this.#lines = createInterface({ input: this.#child.stdout })[Symbol.asyncIterator]();
  }

  async referencingFiles(path: string, line: number, name: string): Promise<Set<string> | null> {
    this.#child.stdin.write(JSON.stringify({ path, line, name }) + '\n');
    const next = await this.#lines.next();
    if (next.done) throw new Error('eval:refs: the jedi oracle exited (is python3 with jedi installed?)');
    const files = (JSON.parse(next.value) as { files: string[] | null }).files;
    return files === null ? null : new Set(files);
  }

  close(): void {
    this.#child.stdin.end();
  }
}

/** Whether python3 can import jedi here (the Python check runs only then). */
function hasJedi(): boolean {
  try {
    execFileSync('python3', ['-c', 'import jedi'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The package folder (root-relative, '' for the root) a file belongs to: the deepest one holding it. */
function packageOf(path: string, folders: string[]): string {
  let best = '';
  for (const f of folders) if (f !== '' && (path === f || path.startsWith(f + '/')) && f.length > best.length) best = f;
  return best;
}

/**
 * The files of a `refs` answer whose uses name `def` (a top-level definition: any of its file's
 * top-level definitions of the name, so typing overloads count as one) or are unresolved
 * in a way that could be it (`definition` null, but not `among: "methods"`: a method of an
 * unknown receiver is never a top-level function); every file when `def` is null.
 */
function filesNaming(references: Record<string, unknown>[], def: { path: string; lines: Set<number> } | null): Set<string> {
  const out = new Set<string>();
  const names = (x: { definition?: unknown; among?: unknown }) => {
    const d = x.definition;
    if (d === null) return x.among !== 'methods';
    return d !== undefined && (d as { path: string }).path === def!.path && def!.lines.has((d as { line: number }).line);
  };
  for (const r of references) {
    const path = r.path as string;
    if (def === null) out.add(path);
    else if ('definition' in r) {
      if (names(r)) out.add(path);
    } else if ((r.uses as { definition?: unknown; among?: unknown }[]).some(names)) out.add(path);
  }
  return out;
}

async function scoreRepo(dir: string, language: 'typescript' | 'python', wanted: number, seed: number, log: (s: string) => void): Promise<RepoScore | null> {
  const tmp = mkdtempSync(join(tmpdir(), 'gardener-refs-eval-'));
  const brains = new Brains({ home: join(tmp, 'home'), maxThreads: 2 });
  try {
    const { brain } = await brains.ensure(dir);
    const tick = await runTick(brain, { inventory: true });
    const db = brain.reader;
    const rows = db.prepare("SELECT path, symbols, imports FROM files WHERE language = ? AND path NOT LIKE '%.d.ts' ORDER BY path").all<{ path: string; symbols: string; imports: string }>(language);
    const candidates: { path: string; def: SymbolDef }[] = [];
    // Every top-level definition of a name in a file (typing overloads are one function, sampled
    // once, at the last: the implementation, which is what jedi answers for).
    const topLines = new Map<string, number[]>();
    const last = new Map<string, { path: string; def: SymbolDef }>();
    for (const r of rows) {
      for (const s of JSON.parse(r.symbols) as SymbolDef[]) {
        if (s.parent !== undefined) continue;
        const key = `${r.path}\0${s.name}`;
        topLines.set(key, [...(topLines.get(key) ?? []), s.line]);
        if (s.exported && (s.kind === 'function' || s.kind === 'class')) last.set(key, { path: r.path, def: s });
      }
    }
    candidates.push(...last.values());
    const rng = new Rng(seedOf(seed, basename(dir)));
    for (let i = candidates.length - 1; i > 0; i--) {
      const j = rng.int(0, i);
      [candidates[i], candidates[j]] = [candidates[j]!, candidates[i]!];
    }
    if (candidates.length === 0) return null;
    log(`${basename(dir)} (${language}): ${tick.drained} files mapped, ${candidates.length} exported functions and classes; starting the ${language === 'python' ? 'jedi oracle' : 'language service'}`);
    const ts = language === 'typescript' ? new ReferenceOracle(dir) : null;
    const jedi = language === 'python' ? new JediOracle(dir) : null;
    const packageFolders = ts ? [...ts.packages.values()].map((f) => relative(dir, f).split(sep).join('/')) : [];
    let oracleWorkspaceImports: RepoScore['oracleWorkspaceImports'];
    if (ts && ts.packages.size > 1) {
      // The oracle's self-check: imports naming a workspace package must reach a file of the repository.
      let resolved = 0;
      let total = 0;
      const names = [...ts.packages.keys()];
      for (const r of rows) {
        if (!ts.covers(r.path)) continue;
        for (const imp of JSON.parse(r.imports) as { module: string }[]) {
          if (!names.some((n) => imp.module === n || imp.module.startsWith(n + '/'))) continue;
          total++;
          if (ts.resolvesTo(r.path, imp.module) !== null) resolved++;
        }
      }
      oracleWorkspaceImports = { resolved, total };
      log(`${basename(dir)}: ${ts.packages.size} workspace packages; the language service resolves ${resolved} of ${total} imports naming one`);
    }
    const sample = ts ? candidates.filter((c) => ts.covers(c.path)).slice(0, wanted) : candidates.slice(0, wanted);
    const modes = Object.fromEntries(MODES.map((m): [Mode, ModeScore] => [m, { truePositives: 0, ours: 0, recall: 1, precision: 1, crossFound: 0, misses: [], extras: [], worst: [] }])) as Record<Mode, ModeScore>;
    const worstOf = Object.fromEntries(MODES.map((m): [Mode, { label: string; n: number }[]] => [m, []])) as Record<Mode, { label: string; n: number }[]>;
    let theirs = 0;
    let cross = 0;
    let unscored = 0;
    let skipped = 0;
    for (const { path, def } of sample) {
      const truth = ts ? ts.referencingFiles(path, def.line, def.name) : await jedi!.referencingFiles(path, def.line, def.name);
      if (truth === null) {
        skipped++;
        continue;
      }
      truth.delete(path);
      const home = packageOf(path, packageFolders);
      const crossFiles = new Set([...truth].filter((f) => packageOf(f, packageFolders) !== home));
      theirs += truth.size;
      cross += crossFiles.size;
      const withPath = refsAnswer(db, def.name, { path, limit: 100_000 }).references;
      const byName = refsAnswer(db, def.name, { limit: 100_000 }).references;
      const lines = new Set(topLines.get(`${path}\0${def.name}`) ?? [def.line]);
      const answers: Record<Mode, Set<string>> = {
        path: filesNaming(withPath, null),
        name: filesNaming(byName, { path, lines }),
        union: filesNaming(byName, null),
      };
      for (const m of MODES) {
        const got = answers[m];
        got.delete(path);
        // A file the oracle does not read (a .svelte or .vue component for the language service) is neither right nor wrong.
        for (const f of got) {
          if (ts ? ts.covers(f) : /\.pyi?$/.test(f)) continue;
          got.delete(f);
          if (m === 'path') unscored++;
        }
        const score = modes[m];
        for (const f of got) if (truth.has(f)) score.truePositives++;
        for (const f of crossFiles) if (got.has(f)) score.crossFound++;
        score.ours += got.size;
        const missed = [...truth].filter((f) => !got.has(f));
        const extra = [...got].filter((f) => !truth.has(f));
        for (const f of missed) if (score.misses.length < 12) score.misses.push(`${def.name} (${path}:${def.line}) used in ${f}`);
        for (const f of extra) if (score.extras.length < 12) score.extras.push(`${def.name} (${path}:${def.line}) not used in ${f}`);
        if (missed.length + extra.length > 0) worstOf[m].push({ label: `${def.name} (${path}:${def.line}) −${missed.length} +${extra.length}`, n: missed.length + extra.length });
      }
    }
    jedi?.close();
    for (const m of MODES) {
      const s = modes[m];
      s.recall = theirs === 0 ? 1 : s.truePositives / theirs;
      s.precision = s.ours === 0 ? 1 : s.truePositives / s.ours;
      s.worst = worstOf[m].sort((a, b) => b.n - a.n).slice(0, 8).map((w) => w.label);
    }
    let commit = '';
    try {
      commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
    } catch {
      // not a git tree: checked in parseArgs already
    }
    return { repo: basename(dir), commit, language, files: tick.drained, symbols: sample.length - skipped, skipped, theirs, cross, unscored, ...(oracleWorkspaceImports ? { oracleWorkspaceImports } : {}), modes };
  } finally {
    await brains.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`eval:refs: ${err.message}\n${USAGE}\n`);
    return 2;
  }
  const log = (s: string) => process.stderr.write(`eval:refs: ${s}\n`);
  const scores: RepoScore[] = [];
  const python = hasJedi();
  if (!python) log('python3 cannot import jedi: the Python check is skipped (Debian: apt-get install python3-jedi)');
  for (const r of options.repos) {
    for (const language of ['typescript', 'python'] as const) {
      if (language === 'python' && !python) continue;
      const score = await scoreRepo(r, language, options.symbols, options.seed, log);
      if (score) scores.push(score);
    }
  }
  const pooled = (of: RepoScore[], m: Mode) => {
    const t = of.reduce((n, s) => n + s.modes[m].truePositives, 0);
    const o = of.reduce((n, s) => n + s.modes[m].ours, 0);
    const h = of.reduce((n, s) => n + s.theirs, 0);
    return { recall: h === 0 ? 1 : t / h, precision: o === 0 ? 1 : t / o, theirs: h, ours: o };
  };
  if (options.json) {
    const all = Object.fromEntries(MODES.map((m) => [m, pooled(scores, m)]));
    process.stdout.write(JSON.stringify({ repos: scores, all }, null, 2) + '\n');
    return 0;
  }
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  process.stdout.write('| repository | commit | language | files | symbols | mode | files named by the oracle (other package) | by refs (other package found) | recall | precision |\n| :-- | :-- | :-- | --: | --: | :-- | --: | --: | --: | --: |\n');
  for (const s of scores) {
    for (const m of MODES) process.stdout.write(`| ${s.repo} | ${s.commit} | ${s.language} | ${s.files} | ${s.symbols} | ${m} | ${s.theirs} (${s.cross}) | ${s.modes[m].ours} (${s.modes[m].crossFound}) | ${pct(s.modes[m].recall)} | ${pct(s.modes[m].precision)} |\n`);
  }
  for (const language of ['typescript', 'python'] as const) {
    const of = scores.filter((s) => s.language === language);
    if (of.length === 0) continue;
    for (const m of MODES) {
      const p = pooled(of, m);
      process.stdout.write(`| **all ${language}** | | | | ${of.reduce((n, s) => n + s.symbols, 0)} | ${m} | ${p.theirs} | ${p.ours} | **${pct(p.recall)}** | **${pct(p.precision)}** |\n`);
    }
  }
  for (const s of scores) {
    if (s.oracleWorkspaceImports) process.stdout.write(`\n${s.repo}: the language service resolves ${s.oracleWorkspaceImports.resolved} of ${s.oracleWorkspaceImports.total} imports that name a workspace package\n`);
    if (s.unscored > 0) process.stdout.write(`${s.repo}: ${s.unscored} files named by refs --path are files the oracle does not read (left out of the scores)\n`);
    for (const m of MODES) {
      if (s.modes[m].misses.length > 0) process.stdout.write(`\n${s.repo} ${m} misses: ${s.modes[m].misses.join('; ')}\n`);
      if (s.modes[m].extras.length > 0) process.stdout.write(`${s.repo} ${m} extras: ${s.modes[m].extras.join('; ')}\n`);
      if (s.modes[m].worst.length > 0) process.stdout.write(`${s.repo} ${m} worst symbols: ${s.modes[m].worst.join('; ')}\n`);
    }
  }
  return 0;
}

process.exitCode = await main();
