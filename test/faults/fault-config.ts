/**
 * What every fault-and-fuzz test shares: the seed, the size knob, a seeded generator, and the
 * figures each test records for docs/reliability.md.
 *
 *   FAULTS_SEED   the seed (default DEFAULT_FAULTS_SEED): a failure is reproduced by rerunning
 *                 with the seed the runner printed.
 *   FAULTS_SCALE  a multiplier on the number of kill points and fuzz cases (default 1, the CI
 *                 size that fits a 2-core machine in a few minutes); 10 for a long local run.
 *   FAULTS_BURST_FILES  files in the checkout burst (default 20000).
 *   FAULTS_DISK   `injected` makes the disk-trouble test inject SQLITE_FULL even where it could
 *                 mount a tmpfs (the path taken on machines that do not allow the mount).
 *   FAULTS_REPORT a folder where each test writes its figures as `<name>.json` (set by
 *                 scripts/run-faults.mjs, which sums them up); unset, figures are only printed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The seed CI runs with, so a red CI run is the same run on a laptop. */
export const DEFAULT_FAULTS_SEED = 20261130;

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return n;
}

export const FAULTS_SEED = Math.floor(positiveNumber('FAULTS_SEED', DEFAULT_FAULTS_SEED));
export const FAULTS_SCALE = positiveNumber('FAULTS_SCALE', 1);
export const FAULTS_BURST_FILES = Math.floor(positiveNumber('FAULTS_BURST_FILES', 20_000));

/** `base` scaled by FAULTS_SCALE, at least 1. */
export function scaled(base: number): number {
  return Math.max(1, Math.round(base * FAULTS_SCALE));
}

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  bytes(n: number): Buffer;
}

/** mulberry32: small, fast, and the same sequence on every platform for a given seed. */
export function seededRandom(seed: number, stream = 0): Random {
  let a = (seed ^ Math.imul(stream + 1, 0x9e3779b9)) >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    pick: (items) => items[int(items.length)]!,
    bytes: (n) => {
      const b = Buffer.allocUnsafe(n);
      for (let i = 0; i < n; i++) b[i] = int(256);
      return b;
    },
  };
}

/** Records a test's figures (printed, and written under FAULTS_REPORT for the doc). */
export function recordFigures(name: string, figures: Record<string, unknown>): void {
  const line = JSON.stringify({ name, seed: FAULTS_SEED, scale: FAULTS_SCALE, ...figures });
  process.stdout.write(`# faults ${line}\n`);
  const dir = process.env.FAULTS_REPORT;
  if (dir) writeFileSync(join(dir, `${name}.json`), line + '\n');
}

/** Peak resident set of a process so far, in MB (Linux /proc VmHWM); null where unknown. */
export function peakRssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmHWM:\s+(\d+) kB/.exec(status);
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** Current resident set of a process, in MB (Linux /proc VmRSS); null where unknown. */
export function rssMb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}
