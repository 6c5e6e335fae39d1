/**
 * From what a soak recorded to its verdicts: each target judged (judge.ts), with the line that
 * names it when it is missed.
 */
import { CLIMB_MS, judgeFlat, judgeLevel, judgeSeek, memoryWarmupMs, warmupMs, type FlatVerdict, type LevelVerdict, type Point, type SeekVerdict, type SoakRuntime } from './judge.js';
import type { Sample } from './sampler.js';
import type { TokenRecord } from './workload.js';

export interface Bounds {
  /** MB per 10 minutes (issue 31: 2). */
  maxSlopeMb: number;
  /** How far past the earlier peak a last-third value may go, in MB (judge.ts PEAK_TOLERANCE_MB). */
  peakToleranceMb: number;
  /** Seek p99 over the soak against idle (issue 31: 2). */
  seekRatioMax: number;
  /** What a count may sit above its quiet level once the sessions left. */
  fdSlack: number;
  watchSlack: number;
  threadSlack: number;
}

export interface Verdicts {
  /** Before the levels are read (judge.ts warmupMs). */
  warmupMs: number;
  /** Before memory is judged (judge.ts memoryWarmupMs); absent in a report made before it, where it is warmupMs. */
  memoryWarmupMs?: number;
  memory: FlatVerdict[];
  /** Memory judged from warmupMs, as issue 31 first set it, where memoryWarmupMs is longer (information); else null. */
  memoryFromFirstWarmup?: FlatVerdict[] | null;
  levels: LevelVerdict[];
  zombiesMax: number;
  tokens: { written: number; lost: number; late: number; foundMsP50: number | null; foundMsMax: number | null };
  backlogEnd: number | null;
  seek: SeekVerdict;
  ownerExit: string;
  /** Throwaway folders' brains (throwaway-brains.ts): tried, made, removed; null in a report made before them. */
  throwaways: { tried: number; made: number; removed: number } | null;
  /** One line per missed target; empty when every target is met. */
  missed: string[];
}

/** One figure of the samples over time, the samples that lack it left out (the report reads them too). */
export const series = (samples: readonly Sample[], pick: (s: Sample) => number | null): Point[] =>
  samples.flatMap((s) => {
    const v = pick(s);
    return v === null ? [] : [{ t: s.t, v }];
  });

export function judgeSoak(input: {
  runMs: number;
  /** Whose owner it was: its climb sets memory's warm-up (judge.ts CLIMB_MS). @default 'Node' */
  runtime?: SoakRuntime;
  samples: readonly Sample[];
  finalQuiet: Sample;
  tokens: readonly TokenRecord[];
  idleSeekMs: readonly number[];
  soakSeekMs: readonly number[];
  backlogEnd: number | null;
  ownerExit: { code: number | null; signal: string | null };
  throwaways?: { tried: number; made: number; removed: number };
  bounds: Bounds;
}): Verdicts {
  const b = input.bounds;
  const runtime = input.runtime ?? 'Node';
  const warmup = warmupMs(input.runMs);
  const memoryWarmup = memoryWarmupMs(input.runMs, runtime);
  const all = input.samples;
  const judgeMemory = (from: number) => [
    judgeFlat('RSS', series(all, (s) => s.rssMb), from, b.maxSlopeMb, b.peakToleranceMb),
    judgeFlat('main thread heap', series(all, (s) => s.mainHeapMb), from, b.maxSlopeMb, b.peakToleranceMb),
    judgeFlat('pool thread heap', series(all, (s) => s.poolHeapMb), from, b.maxSlopeMb, b.peakToleranceMb),
    judgeFlat('store writers heap', series(all, (s) => s.writersHeapMb), from, b.maxSlopeMb, b.peakToleranceMb),
  ];
  const memory = judgeMemory(memoryWarmup);
  const climb = CLIMB_MS[runtime];
  if (memoryWarmup < climb) {
    const hint = `; ${runtime} climbs to its working set for about an hour: run ${(2 * climb) / 60_000} minutes or more to judge it after that`;
    for (const v of memory) if (v.missed) v.missed += hint;
  }
  const quiet = all.filter((s) => s.quiet && s.t >= warmup && s !== input.finalQuiet);
  const f = input.finalQuiet;
  const levels = [
    judgeLevel('file descriptors', series(quiet, (s) => s.fds + s.childFds), f.fds + f.childFds, b.fdSlack),
    judgeWatches(quiet, f, b.watchSlack),
    judgeLevel('threads', series(quiet, (s) => s.threads + s.childThreads), f.threads + f.childThreads, b.threadSlack),
  ];
  const zombiesMax = Math.max(0, ...all.map((s) => s.zombies));
  const found = input.tokens.flatMap((t) => (t.foundMs === null ? [] : [t.foundMs])).sort((x, y) => x - y);
  const tokens = {
    written: input.tokens.length,
    lost: input.tokens.filter((t) => t.foundMs === null).length,
    late: input.tokens.filter((t) => t.foundMs !== null && !t.inWindow).length,
    foundMsP50: found.length ? found[Math.floor(found.length / 2)]! : null,
    foundMsMax: found.length ? found[found.length - 1]! : null,
  };
  const seek = judgeSeek(input.idleSeekMs, input.soakSeekMs, b.seekRatioMax);
  const throwaways = input.throwaways ?? null;
  const ownerExit = input.ownerExit.code === 0 ? 'exit 0' : `code ${input.ownerExit.code}, signal ${input.ownerExit.signal}`;
  const missed = [
    ...memory.flatMap((v) => (v.missed ? [v.missed] : [])),
    ...levels.flatMap((v) => (v.missed ? [v.missed] : [])),
    ...(zombiesMax > 0 ? [`zombies: ${zombiesMax} zombie children seen at once (0 allowed)`] : []),
    ...(tokens.lost > 0 ? [`tokens: ${tokens.lost} of ${tokens.written} lost`] : []),
    ...(tokens.late > 0 ? [`tokens: ${tokens.late} of ${tokens.written} found after the burst window and their tick`] : []),
    ...(input.backlogEnd !== 0 ? [`backlog: ${input.backlogEnd} paths left at the end (0 allowed)`] : []),
    ...(seek.missed ? [seek.missed] : []),
    ...(input.ownerExit.code !== 0 ? [`owner: SIGTERM ended it with ${ownerExit}, not exit 0`] : []),
    ...(throwaways && throwaways.removed < throwaways.tried ? [`throwaway brains: ${throwaways.tried - throwaways.removed} of ${throwaways.tried} not made and removed through the owner`] : []),
  ];
  const memoryFromFirstWarmup = memoryWarmup > warmup ? judgeMemory(warmup) : null;
  return { warmupMs: warmup, memoryWarmupMs: memoryWarmup, memory, memoryFromFirstWarmup, levels, zombiesMax, tokens, backlogEnd: input.backlogEnd, seek, ownerExit, throwaways, missed };
}

/**
 * Inotify watches back to their level: the watches above the folders the backend watches
 * (watched-folders.ts) when the samples read them, since a folder git makes or removes moves the
 * watches with it and a leaked watch is one that outlived its folder; the watches alone for a
 * report written before the folders were read.
 */
function judgeWatches(quiet: readonly Sample[], f: Sample, slack: number): LevelVerdict {
  const withFolders = (s: Sample) => s.folders !== undefined;
  if (withFolders(f) && quiet.every(withFolders)) {
    return judgeLevel('inotify watches beyond their folders', series(quiet, (s) => s.watches - s.folders!), f.watches - f.folders!, slack);
  }
  return judgeLevel('inotify watches', series(quiet, (s) => s.watches), f.watches, slack);
}
