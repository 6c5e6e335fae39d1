/**
 * `gardener bench` from start to end: a temporary folder holding the generated repository and
 * a private GARDENER_HOME (the user's brains are never touched), a full ingest, an armed brain
 * and a warm pool, then the bursts, the idle tick, the MCP part (cold `initialize`, server-side
 * `seek`; see mcp-latency.ts) and the process's peak RSS. The folder is
 * removed in `finally`, and on SIGINT/SIGTERM before the process exits.
 *
 * Without `--full` it is the quick bench (`npm start`): everything that is judged by a ratio to
 * this run's floors, once each but the bursts and the idle tick; the watcher, the owner,
 * refs/impact and the references' cost are the full bench's (`npm run bench:doc`).
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, platform, arch, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { Brains } from '../src/brain/index.js';
import { sqliteDriver } from '../src/store/index.js';
import { runTick } from '../src/vigil/index.js';
import { BENCH_SEED } from './fixtures/make-repo.js';
import { makeRepoInChild } from './fixtures/make-repo-child.js';
import { FloorMeter } from './floor.js';
import { measureMcp, type McpResult } from './mcp-latency.js';
import { StageClock } from './stage-clock.js';
import type { BenchOptions } from './options.js';
import { measureBursts, measureIdle, warmUp, type BurstResult, type IdleResult } from './tick-burst.js';
import { measureSkeleton, RECONCILE_BURST_FILES, type SkeletonBenchResult } from './skeleton-reconcile.js';
import { measureWatch, type WatchBenchResult } from './watch-latency.js';
import { measureTreeSitterBurst, TREE_SITTER_BURST_FILES, type TreeSitterBurstResult } from './tree-sitter-burst.js';
import { measureReferencesCost, type ReferencesCost } from './references-cost.js';
import { measureMemoryBreakdown, type MemoryBreakdown } from './memory-breakdown.js';
import { benchTempFolder } from './temp-folder.js';

/** The burst the references' cost is measured on (issue 16: the 1000-file burst). */
const REFERENCES_COST_BURST_FILES = 1000;

/**
 * The quick bench's tree-sitter burst, in files: enough to load the four grammars in the pool
 * thread (the memory figures count them) at a fifth of the full burst's minute on a slow machine.
 */
const QUICK_TREE_SITTER_FILES = 200;
/** Why a part is not in the quick bench, as the JSON's `not_measured` and the log say it. */
const NOT_QUICK = 'not in the quick bench (gardener bench --full, npm run bench:doc)';

/** Saves timed for the watcher's latency: 50 in a full run, fewer in a one-run smoke. */
const WATCH_SAVES_FULL = 50;
const WATCH_SAVES_SMOKE = 10;

export interface Machine {
  cpus: number;
  cpu_model: string;
  available_parallelism: number;
  total_mem_mb: number;
  platform: string;
  arch: string;
  os_release: string;
  runtime: string;
  node_version: string;
  /** The SQLite driver serving the bench's stores (node:sqlite, bun:sqlite or better-sqlite3). */
  sqlite_driver: string;
  sqlite_version: string;
  git_version: string;
  pool_threads: number;
}

export interface BenchResult {
  date: string;
  options: BenchOptions;
  machine: Machine;
  /** The first full ingest of the base repository (an inventory tick), for context. */
  ingest: { files: number; ms: number; batches: number };
  bursts: BurstResult[];
  /** New files in the tree-sitter languages (C, C#, Kotlin, Ruby), one tick (bench/tree-sitter-burst.ts). */
  treeSitter: TreeSitterBurstResult;
  idle: IdleResult;
  /** The skeleton: candidate, its shape, a reconcile after a burst (bench/skeleton-reconcile.ts). */
  skeleton: SkeletonBenchResult;
  /** References' cost to the ingest (bench/references-cost.ts); null when it could not be measured. */
  referencesCost: ReferencesCost | null;
  /** The live watcher; null when it could not be measured (said in the log). */
  watch: WatchBenchResult | null;
  /** Null when skipped (`--no-mcp`). */
  mcp: McpResult | null;
  /** Where the RSS lives right after the bursts and the skeleton (bench/memory-breakdown.ts). */
  memory: MemoryBreakdown | null;
  /**
   * The process's peak RSS so far after the repository was made, after it was ingested, after
   * the bursts and idle ticks (before the MCP part), and at the end of the MCP part, in MB.
   */
  rssAfterRepoMb: number;
  rssAfterIngestMb: number;
  peakRssMb: number;
  peakRssAfterMcpMb: number | null;
}

/** Peak resident set size of the whole process (worker threads included), in MB. */
function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024; // maxRSS is in KB
}

export function describeMachine(poolThreads: number): Machine {
  const list = cpus();
  const sqlite = sqliteDriver();
  const bun = (process.versions as Record<string, string | undefined>).bun;
  let git = 'unknown';
  try {
    git = execFileSync('git', ['--version'], { encoding: 'utf8' }).trim().replace(/^git version /, '');
  } catch {
    // Reported as unknown; the bench itself fails later if git is really missing.
  }
  return {
    cpus: list.length,
    cpu_model: list[0]?.model.trim() ?? 'unknown',
    available_parallelism: availableParallelism(),
    total_mem_mb: Math.round(totalmem() / (1 << 20)),
    platform: platform(),
    arch: arch(),
    os_release: release(),
    runtime: bun ? `bun ${bun}` : `node ${process.version}`,
    node_version: process.version,
    sqlite_driver: sqlite.name,
    sqlite_version: sqlite.sqliteVersion,
    git_version: git,
    pool_threads: poolThreads,
  };
}

export async function runBench(options: BenchOptions, log: (line: string) => void): Promise<BenchResult> {
  const temp = benchTempFolder('gardener-bench-', log);
  const parent = temp.path;
  let brains: Brains | undefined;
  try {
    log(`making a repository of ${options.baseFiles} files in ${parent}`);
    let t0 = performance.now();
    const repo = await makeRepoInChild(parent, options.baseFiles, BENCH_SEED);
    const rssAfterRepoMb = peakRssMb();
    log(`  made and committed in ${Math.round(performance.now() - t0)} ms`);

    brains = new Brains({ home: join(parent, 'home') });
    brains.pool.warm();
    const { brain } = await brains.ensure(repo.dir);
    t0 = performance.now();
    const first = await runTick(brain, { inventory: true });
    const ingestMs = performance.now() - t0;
    if (first.drained !== options.baseFiles || first.backlogLeft !== 0) {
      throw new Error(`bench: the first ingest drained ${first.drained} of ${options.baseFiles} files and left ${first.backlogLeft}`);
    }
    log(`ingested ${first.drained} files in ${Math.round(ingestMs)} ms (${first.batches} batches)`);
    await brain.writer.setArmed(true, Date.now());
    const rssAfterIngestMb = peakRssMb();

    const ctx = { brain, repo, floor: await FloorMeter.create(), clock: new StageClock(brain), log };
    const full = options.full;
    // The quick bench runs the bursts and the idle tick `runs` times (they are what is judged,
    // and cheap), and the slow parts once.
    const slowRuns = full ? options.runs : 1;
    await warmUp(ctx, options.baseFiles);
    const bursts = await measureBursts(ctx, options.sizes, options.runs);
    const treeSitter = await measureTreeSitterBurst(ctx, Math.min(full ? TREE_SITTER_BURST_FILES : QUICK_TREE_SITTER_FILES, Math.max(...options.sizes)), slowRuns);
    const idle = await measureIdle(ctx, options.runs);
    const skeleton = await measureSkeleton(ctx, Math.min(RECONCILE_BURST_FILES, Math.floor(options.baseFiles / 2)), slowRuns);
    // Taken before the watcher and MCP parts: the bursts' peak means the same with or without them.
    const peakBeforeMcpMb = peakRssMb();
    const memory = await measureMemoryBreakdown(brains, brain);
    let watch: WatchBenchResult | null = null;
    if (!full) log(`watch: ${NOT_QUICK}`);
    else {
      try {
        watch = await measureWatch(ctx, parent, options.runs >= 3 ? WATCH_SAVES_FULL : WATCH_SAVES_SMOKE);
      } catch (err) {
        log(`watch not measured: ${(err as Error).message}`);
      }
    }
    const mcp = !options.mcp ? null : await measureMcp(ctx, brains, parent, full ? undefined : { reason: NOT_QUICK });
    const peakAfterMcpMb = mcp ? peakRssMb() : null;
    // Last: two more brains of the same repository, whose memory must not count above.
    let referencesCost: ReferencesCost | null = null;
    if (!full) log(`references cost: ${NOT_QUICK}`);
    else {
      try {
        const size = Math.min(REFERENCES_COST_BURST_FILES, Math.floor(options.baseFiles / 2));
        referencesCost = await measureReferencesCost(parent, repo, size, options.runs, log);
      } catch (err) {
        log(`references cost not measured: ${(err as Error).message}`);
      }
    }
    return {
      date: new Date().toISOString(),
      options,
      machine: describeMachine(brains.pool.maxThreads),
      ingest: { files: first.drained, ms: ingestMs, batches: first.batches },
      bursts,
      treeSitter,
      idle,
      skeleton,
      watch,
      mcp,
      memory,
      rssAfterRepoMb,
      rssAfterIngestMb,
      peakRssMb: peakBeforeMcpMb,
      peakRssAfterMcpMb: peakAfterMcpMb,
      referencesCost,
    };
  } finally {
    try {
      await brains?.close();
    } finally {
      temp.remove();
    }
  }
}
