/**
 * The bench's options, checked once before anything is written to disk: a bad value is an
 * InvalidArgumentError naming the option and the value received (CLI exit code 2).
 */
import { resolve } from 'node:path';
import { InvalidArgumentError } from '../src/errors.js';

/** Most base files: 8 KB each, so 100 000 is 800 MB of temp files, past which we measure the disk. */
export const MAX_BASE_FILES = 100_000;
/** Most runs per size: medians settle long before this; more only burns time. */
export const MAX_RUNS = 100;

export interface BenchOptions {
  /** Burst sizes, in files, in the order they run; none with `largeRepo`. @default [10, 100, 1000] */
  sizes: readonly number[];
  /** Files in the base repository. @default 5000 */
  baseFiles: number;
  /** Runs per size; medians are reported. @default 3 */
  runs: number;
  /** Measure MCP cold `initialize` (plain and with a parked git) and server-side `seek` latency. @default true */
  mcp: boolean;
  /** Run the large-repository case (bench/large-repo.ts) instead of the bursts. @default false */
  largeRepo: boolean;
  /** An absolute folder where generated repositories are kept and reused between runs; null: none. @default null */
  repoCache: string | null;
  /**
   * Everything (`--full`, what `npm run bench:doc` runs): the watcher, the owner, refs and
   * impact, the references' cost, the tree-sitter burst at full size and every part `runs`
   * times. Without it, the quick bench (`npm start`): the bursts, the idle tick, a smaller
   * tree-sitter burst, the skeleton, memory, MCP initialize and seek, each judged the same way,
   * within QUICK_BENCH_BUDGET_S on a slow 2-core machine. @default false
   */
  full: boolean;
}

/** What the quick bench must take at most on a slow 2-core machine, in s (issue 31: `npm start` within 2 minutes). */
export const QUICK_BENCH_BUDGET_S = 120;

export interface RawBenchOptions {
  sizes?: unknown;
  baseFiles?: unknown;
  runs?: unknown;
  /** `false` from `--no-mcp`. */
  mcp?: unknown;
  largeRepo?: unknown;
  repoCache?: unknown;
  full?: unknown;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : `${String(value)} (${typeof value})`;
}

function integer(option: string, value: unknown, min: number, max: number): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new InvalidArgumentError(`${option} must be an integer from ${min} to ${max}, got ${describe(value)}`);
  }
  return n;
}

/** Parses and checks the CLI's strings (numbers are accepted too); returns frozen options. */
export function parseBenchOptions(raw: RawBenchOptions): BenchOptions {
  const baseFiles = integer('--base-files', raw.baseFiles ?? '5000', 1, MAX_BASE_FILES);
  const runs = integer('--runs', raw.runs ?? '3', 1, MAX_RUNS);
  const largeRepo = raw.largeRepo ?? false;
  if (typeof largeRepo !== 'boolean') throw new InvalidArgumentError(`--large-repo takes no value, got ${describe(largeRepo)}`);
  // The large-repository case measures its own 1000-file burst (bench/large-repo.ts): no sizes.
  const list = largeRepo ? [] : raw.sizes ?? '10,100,1000';
  if (typeof list !== 'string' && !Array.isArray(list)) {
    throw new InvalidArgumentError(`--sizes must be a comma-separated list of burst sizes, got ${describe(list)}`);
  }
  const items = typeof list === 'string' ? list.split(',') : (list as unknown[]);
  const sizes: number[] = [];
  for (const item of items) {
    let size: number;
    try {
      size = integer('--sizes', item, 1, baseFiles);
    } catch {
      throw new InvalidArgumentError(
        `--sizes must be a comma-separated list of integers from 1 to --base-files (${baseFiles}), got ${describe(list)}`,
      );
    }
    if (sizes.includes(size)) throw new InvalidArgumentError(`--sizes lists ${size} twice, got ${describe(list)}`);
    sizes.push(size);
  }
  const mcp = raw.mcp ?? true;
  if (typeof mcp !== 'boolean') throw new InvalidArgumentError(`--no-mcp takes no value, got ${describe(mcp)}`);
  const cache = raw.repoCache ?? null;
  if (cache !== null && (typeof cache !== 'string' || cache.trim() === '')) {
    throw new InvalidArgumentError(`--repo-cache must be a folder, got ${describe(cache)}`);
  }
  const repoCache = cache === null ? null : resolve(cache);
  const full = raw.full ?? false;
  if (typeof full !== 'boolean') throw new InvalidArgumentError(`--full takes no value, got ${describe(full)}`);
  return Object.freeze({ sizes: Object.freeze(sizes), baseFiles, runs, mcp, largeRepo, repoCache, full });
}
