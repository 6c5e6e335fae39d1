/**
 * The numbers we are measured against: the system Gardener replaces (DESIGN.md section 9,
 * measured on a laptop, git backend, budget 32) and the targets the bench issue set.
 */

export interface ReferenceBurst {
  size: number;
  /** The detection tick, in ms. */
  detect_ms: number;
  /** Extra ticks it needed to drain the backlog. */
  drain_ticks: number;
  /** Time of those drain ticks, in ms. */
  drain_ms: number;
  total_ms: number;
  per_file_ms: number;
}

export const REFERENCE_BURSTS: readonly ReferenceBurst[] = [
  { size: 10, detect_ms: 357, drain_ticks: 0, drain_ms: 0, total_ms: 357, per_file_ms: 35.7 },
  { size: 100, detect_ms: 1189, drain_ticks: 3, drain_ms: 2477, total_ms: 3666, per_file_ms: 36.7 },
  { size: 1000, detect_ms: 8673, drain_ticks: 31, drain_ms: 50899, total_ms: 59573, per_file_ms: 59.6 },
];

/** "Its whole bench process peaked at ~3.7 GB RSS". */
export const REFERENCE_PEAK_RSS_MB = 3700;

export const REFERENCE = {
  source: 'DESIGN.md section 9: the system we replace, measured on a laptop, git backend, budget 32',
  bursts: REFERENCE_BURSTS,
  peak_rss_mb: REFERENCE_PEAK_RSS_MB,
} as const;

/** Wall time of one tick that ingests a whole burst, in ms, by burst size. */
export const BURST_TARGET_MS: Readonly<Record<number, number>> = { 10: 30, 100: 60, 1000: 300 };
/** A tick may cost at most this multiple of the floor (bare git status + one-thread read+hash). */
export const FLOOR_RATIO_TARGET = 6;
/** The 1000-file burst may cost at most this multiple of floor + write floor (bench/write-floor.ts; issue 20). */
export const WRITE_FLOOR_RATIO_TARGET = 2.5;
/** The burst size the floor + write floor target is set for. */
export const WRITE_FLOOR_TARGET_SIZE = 1000;
/** A burst may cost at most this multiple of its floor, by burst size (issue 20: 5×, moonshot 3×, for 1000 files). */
export const SIZE_FLOOR_RATIO_TARGET: Readonly<Record<number, number>> = { 100: 3, 1000: 5 };
/** `seek` p99 during a drain may be at most this multiple of its idle p99 (issue 20). */
export const SEEK_DRAIN_P99_RATIO_TARGET = 1.5;
/** Idle `seek` p99 may be at most this multiple of its idle p50 (issue 20). */
export const SEEK_IDLE_TAIL_RATIO_TARGET = 5;
/** Main-thread event-loop delay p99 during the 1000-file tick, in ms. */
export const LOOP_DELAY_P99_TARGET_MS = 5;
/** The burst size the loop-delay target is set for. */
export const LOOP_DELAY_TARGET_SIZE = 1000;
/** Peak RSS of the whole bench process on Node 20, in MB. */
export const PEAK_RSS_TARGET_MB = 200;
/**
 * Peak RSS targets per runtime, in MB, as measured and decided in issue 31: Node 24's V8 and
 * glibc arenas hold ~40 MB more than Node 20's for the same work, Bun's JavaScriptCore more
 * again (docs/benchmarks.md, Memory). Node 22 takes Node 24's (the same V8 generation's costs).
 */
export const PEAK_RSS_TARGETS_MB = { node20: PEAK_RSS_TARGET_MB, node24: 240, bun: 280 } as const;

/** The peak RSS target of the runtime named as the bench names it (`node v24.1.0`, `bun 1.3.0`), or of the running one. */
export function peakRssTargetMb(runtime: string = (process.versions as Record<string, string | undefined>).bun ? 'bun' : `node ${process.version}`): number {
  if (runtime.startsWith('bun')) return PEAK_RSS_TARGETS_MB.bun;
  const major = Number(/v?(\d+)/.exec(runtime.replace(/^node\s*/, ''))?.[1] ?? 20);
  return major >= 22 ? PEAK_RSS_TARGETS_MB.node24 : PEAK_RSS_TARGETS_MB.node20;
}
/** An idle tick may cost at most this multiple of a bare `git status`. */
export const IDLE_RATIO_TARGET = 1.5;
/** Cold `initialize` of `gardener mcp` may cost at most this multiple of a minimal SDK stdio server's, both with and without a parked git. */
export const INITIALIZE_RATIO_TARGET = 1.15;
/** Server-side `seek` p99, idle and while a drain runs, in ms. */
export const SEEK_P99_TARGET_MS = 10;
/** Server-side `refs` p50 on the 5000-file brain, in ms (issue 16). */
export const REFS_P50_TARGET_MS = 20;
/** Server-side `impact` (depth 2) p50 on the 5000-file brain, in ms (issue 16). */
export const IMPACT_P50_TARGET_MS = 50;
/** A burst tick with references may cost at most this multiple of the same burst without them (issue 16). */
export const REFERENCES_BURST_RATIO_TARGET = 1.15;
/** The first ingest with references, against the same ingest without them. */
export const REFERENCES_INGEST_RATIO_TARGET = 1.2;
/** The store with references, against the same store without them. */
export const REFERENCES_STORE_RATIO_TARGET = 1.5;
