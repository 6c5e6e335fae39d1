/**
 * `npm run eval:refs -- <git work tree>... [--symbols N] [--seed S] [--json]`
 *
 * The refs eval: for each repository, ingest it into a fresh brain (a temporary home, removed
 * at the end), sample up to N exported top-level functions and classes of its TypeScript files
 * from the brain's own definitions, and compare the files `refs {name, path}` names besides
 * the definition's own with the files the TypeScript language service's `findReferences`
 * names (language-service.ts); and, when python3 can import jedi, the same for the Python
 * files against jedi's get_references (jedi-oracle.py). File-level recall and precision are
 * pooled over the symbols (every file of every symbol counts once). Progress on stderr; exit 2
 * on bad input.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { Brains } from '../../src/brain/index.js';
import type { SymbolDef } from '../../src/ingest/extract/types.js';
import { refsAnswer } from '../../src/tools/reference-answers.js';
import { runTick } from '../../src/vigil/index.js';
import { Rng, seedOf } from '../fixtures/source-files.js';
import { ReferenceOracle } from './language-service.js';

const USAGE = 'usage: npm run eval:refs -- <git work tree>... [--symbols N] [--seed S] [--json]';
const DEFAULT_SYMBOLS = 150;

interface RepoScore {
  repo: string;
  language: 'typescript' | 'python';
  files: number;
  symbols: number;
  /** Symbols the language service could not place (name not on its line, or no answer). */
  skipped: number;
  truePositives: number;
  ours: number;
  theirs: number;
  recall: number;
  precision: number;
  /** The worst misses and extras, for reading. */
  misses: string[];
  extras: string[];
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

async function scoreRepo(dir: string, language: 'typescript' | 'python', wanted: number, seed: number, log: (s: string) => void): Promise<RepoScore | null> {
  const tmp = mkdtempSync(join(tmpdir(), 'gardener-refs-eval-'));
  const brains = new Brains({ home: join(tmp, 'home'), maxThreads: 2 });
  try {
    const { brain } = await brains.ensure(dir);
    const tick = await runTick(brain, { inventory: true });
    const db = brain.reader;
    const rows = db.prepare("SELECT path, symbols FROM files WHERE language = ? AND path NOT LIKE '%.d.ts' ORDER BY path").all<{ path: string; symbols: string }>(language);
    const candidates: { path: string; def: SymbolDef }[] = [];
    for (const r of rows) for (const s of JSON.parse(r.symbols) as SymbolDef[]) if (s.exported && s.parent === undefined && (s.kind === 'function' || s.kind === 'class')) candidates.push({ path: r.path, def: s });
    const rng = new Rng(seedOf(seed, basename(dir)));
    for (let i = candidates.length - 1; i > 0; i--) {
      const j = rng.int(0, i);
      [candidates[i], candidates[j]] = [candidates[j]!, candidates[i]!];
    }
    if (candidates.length === 0) return null;
    log(`${basename(dir)} (${language}): ${tick.drained} files mapped, ${candidates.length} exported functions and classes; starting the ${language === 'python' ? 'jedi oracle' : 'language service'}`);
    const ts = language === 'typescript' ? new ReferenceOracle(dir) : null;
    const jedi = language === 'python' ? new JediOracle(dir) : null;
    const sample = ts ? candidates.filter((c) => ts.covers(c.path)).slice(0, wanted) : candidates.slice(0, wanted);
    let tp = 0;
    let ours = 0;
    let theirs = 0;
    let skipped = 0;
    const misses: string[] = [];
    const extras: string[] = [];
    for (const { path, def } of sample) {
      const truth = ts ? ts.referencingFiles(path, def.line, def.name) : await jedi!.referencingFiles(path, def.line, def.name);
      if (truth === null) {
        skipped++;
        continue;
      }
      truth.delete(path);
      const answer = refsAnswer(db, def.name, { path, limit: 100_000 });
      const got = new Set(answer.references.map((r) => r.path as string));
      got.delete(path);
      for (const f of got) if (truth.has(f)) tp++;
      ours += got.size;
      theirs += truth.size;
      for (const f of truth) if (!got.has(f) && misses.length < 10) misses.push(`${def.name} (${path}) used in ${f}`);
      for (const f of got) if (!truth.has(f) && extras.length < 10) extras.push(`${def.name} (${path}) not used in ${f}`);
    }
    jedi?.close();
    return {
      repo: basename(dir),
      language,
      files: tick.drained,
      symbols: sample.length - skipped,
      skipped,
      truePositives: tp,
      ours,
      theirs,
      recall: theirs === 0 ? 1 : tp / theirs,
      precision: ours === 0 ? 1 : tp / ours,
      misses,
      extras,
    };
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
  const tp = scores.reduce((n, s) => n + s.truePositives, 0);
  const ours = scores.reduce((n, s) => n + s.ours, 0);
  const theirs = scores.reduce((n, s) => n + s.theirs, 0);
  const all = { recall: theirs === 0 ? 1 : tp / theirs, precision: ours === 0 ? 1 : tp / ours, symbols: scores.reduce((n, s) => n + s.symbols, 0) };
  if (options.json) {
    process.stdout.write(JSON.stringify({ repos: scores, all }, null, 2) + '\n');
    return 0;
  }
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  process.stdout.write('| repository | language | files | symbols | files named by the oracle | by refs | recall | precision |\n| :-- | :-- | --: | --: | --: | --: | --: | --: |\n');
  for (const s of scores) process.stdout.write(`| ${s.repo} | ${s.language} | ${s.files} | ${s.symbols} | ${s.theirs} | ${s.ours} | ${pct(s.recall)} | ${pct(s.precision)} |\n`);
  for (const language of ['typescript', 'python'] as const) {
    const of = scores.filter((s) => s.language === language);
    if (of.length === 0) continue;
    const t = of.reduce((n, s) => n + s.truePositives, 0);
    const o = of.reduce((n, s) => n + s.ours, 0);
    const h = of.reduce((n, s) => n + s.theirs, 0);
    process.stdout.write(`| **all ${language}** | | | ${of.reduce((n, s) => n + s.symbols, 0)} | ${h} | ${o} | **${pct(h === 0 ? 1 : t / h)}** | **${pct(o === 0 ? 1 : t / o)}** |\n`);
  }
  for (const s of scores) {
    if (s.misses.length > 0) process.stdout.write(`\n${s.repo} misses: ${s.misses.join('; ')}\n`);
    if (s.extras.length > 0) process.stdout.write(`${s.repo} extras: ${s.extras.join('; ')}\n`);
  }
  return 0;
}

process.exitCode = await main();
