/**
 * The large-repository case (`gardener bench --large-repo --base-files 100000`, issue 20 item 6;
 * never in CI: 800 MB of temp files and minutes of CPU). It reports what a repository of that
 * size costs, beside the same measures on the default 5000-file repository in the same run:
 *
 *   - init: the first full ingest (an inventory tick, as `gardener init` runs it) in a fresh
 *     home and a process of its own (init-child.ts), with every file read once just before (a
 *     warm page cache, as after a clone: readEveryFile), its wall time per file, where it goes
 *     (detection's git, the pool's read+hash+extract summed over threads, the store writer's
 *     commits), and that process's peak RSS;
 *   - the idle tick against a bare `git status`, with git's untracked cache off and on (see
 *     UNTRACKED_CACHE_LEVERS: the detector runs git with optional locks off, so only an index
 *     that already carries the cache can be read);
 *   - a 1000-file burst, against the same burst in the 5000-file repository;
 *   - the live watcher's start (subscribe to ready) and the inotify watches its host holds.
 *
 * With `--repo-cache DIR` the generated repositories are kept in DIR and reused by the next
 * run (make-repo.ts checks their stamp and puts the work tree back to its commit): the
 * 100 000-file tree takes minutes to write. Brains and homes are always fresh, in a temp folder
 * removed at the end.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Brains, type Brain } from '../src/brain/index.js';
import { runTick } from '../src/vigil/index.js';
import { BrainWatcher, ChildWatchBackend } from '../src/watch/index.js';
import { makeBenchRepo, BENCH_SEED, type BenchRepo } from './fixtures/make-repo.js';
import { FloorMeter, timeGitStatus } from './floor.js';
import type { BenchOptions } from './options.js';
import { inotifyWatches, rssMb } from './proc-stats.js';
import { StageClock } from './stage-clock.js';
import { measureBursts, measureIdle, median, warmUp, type BenchContext, type BurstResult, type IdleResult } from './tick-burst.js';
import { benchTempFolder } from './temp-folder.js';

/** The burst measured in both repositories. */
export const LARGE_BURST_FILES = 1000;
/** The repository the large one is compared with: the bench's default size. */
export const SMALL_REPO_FILES = 5000;
/** Bare `git status` runs per untracked-cache state: cheap next to the ingest, and noisy. */
const GIT_STATUS_SAMPLES = 7;

/** Targets (issue 20): init per file, peak RSS, idle against git status, the burst against the small repo's. */
export const INIT_MS_PER_FILE_TARGET = 0.35;
export const LARGE_PEAK_RSS_TARGET_MB = 250;
export const LARGE_IDLE_RATIO_TARGET = 1.2;
export const LARGE_BURST_RATIO_TARGET = 3;

export interface InitResult {
  files: number;
  ms: number;
  msPerFile: number;
  batches: number;
  detectMs: number;
  drainMs: number;
  /** Detection's wait on git, in ms. */
  gitMs: number;
  /** The drain's wait on the store writer's commits, in ms. */
  commitMs: number;
  /** Pool threads' read+hash+extract, summed over threads (parallel to the commits), in ms. */
  hashWorkMs: number;
  /** The bench process's peak RSS before the ingest, in MB. */
  rssBeforeMb: number;
  /** The init process's own peak RSS (init-child.ts: what `gardener init` does), in MB. */
  peakRssMb: number;
  /** The bench process's RSS once the brain is open after the ingest, in MB. */
  rssAfterMb: number;
  /** The brain's database file, WAL included, in MB. */
  storeMb: number;
  /** Time to read every file once just before the init (readEveryFile), in ms. */
  warmContentsMs: number;
}

/**
 * Reads every file of the work tree once, so the init meets their contents in the page cache,
 * as an init right after a clone or a checkout does (git has just written them). Left to chance,
 * the same init took 23.5 s warm and 35.6 s after the cache had dropped them (pool work 17 against
 * 30 s): the page cache, not Gardener, decided the number. Returns the time it took, in ms.
 */
function readEveryFile(repo: BenchRepo): number {
  const t0 = performance.now();
  for (const f of repo.files) readFileSync(join(repo.dir, f.path));
  return performance.now() - t0;
}

/** Idle ticks with the detector's own index copy (and git's untracked cache) on and off, interleaved, medians in ms. */
export interface IdleLever {
  onMs: number;
  offMs: number;
  gitStatusMs: number;
  samples: number;
}

/** Bare `git status` medians in one untracked-cache state, in ms. */
export interface UntrackedCacheState {
  state: string;
  gitStatusMs: number;
}

export interface RepoMeasures {
  files: number;
  /** True when the repository came from `--repo-cache` instead of being written now. */
  reused: boolean;
  makeMs: number;
  init: InitResult;
  idle: IdleResult;
  idleLever: IdleLever;
  burst: BurstResult;
}

export interface LargeRepoResult {
  date: string;
  large: RepoMeasures & {
    untrackedCache: UntrackedCacheState[];
    watch: { startMs: number; inotifyWatches: number | null; hostRssMb: number } | null;
    watchNotMeasured: string | null;
  };
  small: RepoMeasures;
  /** Whole process, at the end, in MB. */
  peakRssMb: number;
  poolThreads: number;
}

const peakRssMb = (): number => process.resourceUsage().maxRSS / 1024;
const INIT_CHILD = fileURLToPath(new URL('./init-child.js', import.meta.url));

function storeMb(brain: Brain): number {
  const r = spawnSync('du', ['-sk', brain.file, `${brain.file}-wal`], { encoding: 'utf8' });
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .reduce((sum, line) => sum + Number(line.split('\t')[0]) / 1024, 0);
}

/** The untracked-cache states a bare `git status` is timed in (what the detector could meet). */
export const UNTRACKED_CACHE_LEVERS: readonly { state: string; config: readonly string[]; prepare?: (repo: BenchRepo) => void }[] = [
  { state: 'off (as the bench repository is made)', config: ['-c', 'core.untrackedCache=false'] },
  // Per invocation, with optional locks off: git may not write the index, so nothing is cached.
  { state: 'core.untrackedCache=true per invocation, index without the cache', config: ['-c', 'core.untrackedCache=true', '-c', 'status.showUntrackedFiles=all'] },
  // A user who turned the cache on in their own config: their own git status writes it into the index.
  {
    state: 'index carrying the cache (as a user with core.untrackedCache=true has it)',
    config: ['-c', 'core.untrackedCache=true', '-c', 'status.showUntrackedFiles=all'],
    prepare: (repo) => {
      repo.git('-c', 'core.untrackedCache=true', 'update-index', '--untracked-cache');
      repo.git('-c', 'core.untrackedCache=true', '-c', 'status.showUntrackedFiles=all', 'status', '--porcelain', '-uall');
    },
  },
];

function timeGitStatusWith(dir: string, config: readonly string[]): number {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' };
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_COMMON_DIR', 'GIT_PREFIX']) delete env[name];
  const t0 = performance.now();
  const r = spawnSync('git', [...config, 'status', '--porcelain', '-uall'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`bench: git status failed in ${dir}: ${r.stderr.toString().trim()}`);
  return ms;
}

async function measureRepo(parent: string, which: 'large' | 'small', cache: string | null, files: number, runs: number, log: (line: string) => void, open: Brains[]): Promise<{ m: RepoMeasures; brains: Brains; ctx: BenchContext }> {
  const repoParent = cache ? join(cache, `files-${files}`) : join(parent, `repo-${files}`);
  log(`${files} files: ${cache ? `repository kept in ${repoParent}` : `making a repository in ${repoParent}`}`);
  let t0 = performance.now();
  const repo = await makeBenchRepo(repoParent, files, BENCH_SEED, { reuse: cache !== null });
  const makeMs = performance.now() - t0;
  const reused = repo.reused;
  log(`  ${reused ? 'reused' : 'made and committed'} in ${Math.round(makeMs)} ms`);
  timeGitStatus(repo.dir); // the tree's metadata in the page cache, as every tick after the first finds it
  const warmContentsMs = readEveryFile(repo);
  log(`  every file read once first (${Math.round(warmContentsMs)} ms), so the init finds the contents in the page cache`);

  // The init runs in a child process of this runtime (init-child.ts): its peak RSS is the ingest's own.
  const home = join(parent, `home-${which}`);
  const rssBeforeMb = peakRssMb();
  const child = spawnSync(process.execPath, [INIT_CHILD, home, repo.dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 20 });
  if (child.status !== 0) throw new Error(`bench: the init child exited with ${child.status ?? child.signal}: ${child.stderr.trim().slice(-2000)}`);
  const c = JSON.parse(child.stdout.trim().split('\n').pop()!) as Record<string, number>;
  if (c.drained !== files || c.backlogLeft !== 0) throw new Error(`bench: the first ingest drained ${c.drained} of ${files} files and left ${c.backlogLeft}`);

  const brains = new Brains({ home });
  open.push(brains); // closed by the caller, also when this throws
  brains.pool.warm();
  const { brain } = await brains.ensure(repo.dir);
  const clock = new StageClock(brain);
  const init: InitResult = {
    files,
    ms: c.ms!,
    msPerFile: c.ms! / files,
    batches: c.batches!,
    detectMs: c.detectMs!,
    drainMs: c.drainMs!,
    gitMs: c.gitMs!,
    commitMs: c.commitMs!,
    hashWorkMs: c.hashWorkMs!,
    rssBeforeMb,
    peakRssMb: c.maxRssMb!,
    rssAfterMb: process.memoryUsage().rss / (1 << 20),
    storeMb: storeMb(brain),
    warmContentsMs,
  };
  log(
    `  init ${(init.ms / 1000).toFixed(1)} s in a child process (${init.msPerFile.toFixed(3)} ms per file, ${init.batches} batches; detect ${init.detectMs.toFixed(0)} ms [git ${init.gitMs.toFixed(0)}], ` +
      `drain ${init.drainMs.toFixed(0)} ms [commits ${init.commitMs.toFixed(0)}, pool work ${init.hashWorkMs.toFixed(0)}]), its peak RSS ${init.peakRssMb.toFixed(0)} MB, store ${init.storeMb.toFixed(0)} MB`,
  );
  await brain.writer.setArmed(true, Date.now());
  const ctx: BenchContext = { brain, repo, floor: await FloorMeter.create(), clock, log: (l) => log(`  ${l}`) };
  await warmUp(ctx, files);
  const idle = await measureIdle(ctx, runs);
  const idleLever = await measureIdleLever(ctx, runs);
  const [burst] = await measureBursts(ctx, [Math.min(LARGE_BURST_FILES, Math.floor(files / 2))], runs);
  return { m: { files, reused, makeMs, init, idle, idleLever, burst: burst! }, brains, ctx };
}

/** Idle ticks with TickOptions.statusIndex on and off, and bare statuses, in turns. */
async function measureIdleLever(ctx: BenchContext, runs: number): Promise<IdleLever> {
  const samples = Math.max(runs, GIT_STATUS_SAMPLES);
  const on: number[] = [];
  const off: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < samples; i++) {
    for (const statusIndex of i % 2 ? [true, false] : [false, true]) {
      const t0 = performance.now();
      const report = await runTick(ctx.brain, { statusIndex });
      (statusIndex ? on : off).push(performance.now() - t0);
      if (report.detected !== 0) throw new Error(`bench: an idle tick detected ${report.detected} paths`);
    }
    bare.push(timeGitStatus(ctx.repo.dir));
  }
  const out = { onMs: median(on), offMs: median(off), gitStatusMs: median(bare), samples };
  ctx.log(`idle tick with the detector's own index (untracked cache) ${out.onMs.toFixed(1)} ms, without ${out.offMs.toFixed(1)} ms, bare git status ${out.gitStatusMs.toFixed(1)} ms (medians of ${samples}, in turns)`);
  return out;
}

async function measureWatchStart(ctx: BenchContext, log: (line: string) => void): Promise<{ startMs: number; inotifyWatches: number | null; hostRssMb: number }> {
  const backend = new ChildWatchBackend({ log });
  const watcher = new BrainWatcher({ roots: ctx.brain.roots, requestTick: async () => {}, backend, alert: (code, message) => log(`watch alert ${code}: ${message}`), log: () => {} });
  try {
    const t0 = performance.now();
    await watcher.start();
    const startMs = performance.now() - t0;
    if (watcher.backend !== 'native') throw new Error(`the watcher runs as ${watcher.backend}, not native`);
    const host = backend.pid!;
    const out = { startMs, inotifyWatches: inotifyWatches(host), hostRssMb: rssMb(host) };
    log(`  watcher ready ${startMs.toFixed(0)} ms after start (the host's spawn included), ${out.inotifyWatches ?? '?'} inotify watches, host RSS ${out.hostRssMb.toFixed(0)} MB`);
    return out;
  } finally {
    await watcher.close();
    await backend.close();
  }
}

export async function runLargeRepoBench(options: BenchOptions, log: (line: string) => void): Promise<LargeRepoResult> {
  const temp = benchTempFolder('gardener-bench-large-', log);
  const parent = temp.path;
  const open: Brains[] = [];
  try {
    // The large repository first, so its init's peak RSS is its own.
    const large = await measureRepo(parent, 'large', options.repoCache, options.baseFiles, options.runs, log, open);
    let watch: LargeRepoResult['large']['watch'] = null;
    let watchNotMeasured: string | null = null;
    try {
      watch = await measureWatchStart(large.ctx, log);
    } catch (err) {
      watchNotMeasured = (err as Error).message;
      log(`  watch not measured: ${watchNotMeasured}`);
    }
    const untrackedCache: UntrackedCacheState[] = [];
    for (const lever of UNTRACKED_CACHE_LEVERS) {
      lever.prepare?.(large.ctx.repo);
      const samples = Array.from({ length: GIT_STATUS_SAMPLES }, () => timeGitStatusWith(large.ctx.repo.dir, lever.config));
      untrackedCache.push({ state: lever.state, gitStatusMs: median(samples) });
      log(`  bare git status, untracked cache ${lever.state}: ${median(samples).toFixed(1)} ms (median of ${GIT_STATUS_SAMPLES})`);
    }
    // Leave a kept repository's index as it was made: no untracked cache.
    large.ctx.repo.git('-c', 'core.untrackedCache=false', 'update-index', '--no-untracked-cache');
    const poolThreads = large.brains.pool.maxThreads;
    await large.brains.close();
    open.pop();

    const small = await measureRepo(parent, 'small', options.repoCache, Math.min(SMALL_REPO_FILES, options.baseFiles), options.runs, log, open);
    await small.brains.close();
    open.pop();
    return { date: new Date().toISOString(), large: { ...large.m, untrackedCache, watch, watchNotMeasured }, small: small.m, peakRssMb: peakRssMb(), poolThreads };
  } finally {
    try {
      await Promise.allSettled(open.map((b) => b.close()));
    } finally {
      temp.remove();
    }
  }
}
