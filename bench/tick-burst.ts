/**
 * The measurement itself: for each burst size, `runs` times, make a burst in the work tree,
 * run one tick and time it, then take the floor of the same burst, then undo the burst and
 * let a settling tick bring the map back (both outside the measured region). tinybench takes
 * the samples (one task per size, `iterations: runs`, the burst made in `beforeEach` and undone
 * in `afterEach`); the tick's wall time is the sample, and the stage times, batch count,
 * event-loop delay and floor of each run are kept beside it. Medians are reported.
 *
 * A tick that leaves anything behind fails the bench: a fast number for a burst that was not
 * fully ingested would be a lie.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { Bench, type Task } from 'tinybench';
import type { Brain } from '../src/brain/index.js';
import { runTick, type TickReport } from '../src/vigil/index.js';
import { changedPaths, makeBurst, presentPaths, undoBurst, type BenchRepo, type Burst } from './fixtures/make-repo.js';
import { timeGitStatus, type FloorMeter } from './floor.js';
import { measureWriteFloor } from './write-floor.js';
import type { StageClock } from './stage-clock.js';
import { upkeepDone } from './upkeep-done.js';

/** Loop-delay histogram resolution, in ms: as fine as timers allow, so a 5 ms stall shows. */
const LOOP_DELAY_RESOLUTION_MS = 1;
/** Files in the unmeasured warm-up burst: enough batches to load every pool thread's task code. */
const WARMUP_BURST_FILES = 128;
/** Idle ticks and bare git statuses timed, at least: they are cheap and noisy. */
const IDLE_MIN_SAMPLES = 7;

export interface BenchContext {
  brain: Brain;
  repo: BenchRepo;
  floor: FloorMeter;
  /** Hands the measured ticks a view of `brain` that times its cross-thread calls. */
  clock: StageClock;
  log: (line: string) => void;
}

export interface BurstSample {
  run: number;
  detected: number;
  drained: number;
  batches: number;
  detectMs: number;
  drainMs: number;
  totalMs: number;
  /** Detection's wait on git, the drain's wait on store writer commits, the pool's work (see stage-clock.ts). */
  detectGitMs: number;
  commitMs: number;
  /** Of commitMs, the transactions' own time in the writer thread; the writer's other round trips (stage-clock.ts). */
  commitWorkMs: number;
  writerOtherMs: number;
  hashWorkMs: number;
  loopDelayP99Ms: number;
  gitStatusMs: number;
  readHashMs: number;
  floorMs: number;
  /** One transaction writing the burst's rows into a scratch store of the schema (write-floor.ts). */
  writeFloorMs: number;
}

export interface BurstResult {
  size: number;
  samples: BurstSample[];
  /** Per-field medians over the samples. */
  median: Omit<BurstSample, 'run'>;
  /** tinybench's statistics of the tick wall time, in ms. */
  latency: { p50: number; min: number; max: number; mean: number; samples: number };
}

export interface IdleResult {
  idleTickMs: number;
  gitStatusMs: number;
  /** Medians, within the idle tick: detection's wait on git, and the store writer round trips. */
  tickGitMs: number;
  tickWriterMs: number;
  samples: number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function medianOf(samples: readonly BurstSample[]): Omit<BurstSample, 'run'> {
  const m = (k: keyof BurstSample) => median(samples.map((s) => s[k]));
  return {
    detected: m('detected'),
    drained: m('drained'),
    batches: m('batches'),
    detectMs: m('detectMs'),
    drainMs: m('drainMs'),
    totalMs: m('totalMs'),
    detectGitMs: m('detectGitMs'),
    commitMs: m('commitMs'),
    commitWorkMs: m('commitWorkMs'),
    writerOtherMs: m('writerOtherMs'),
    hashWorkMs: m('hashWorkMs'),
    loopDelayP99Ms: m('loopDelayP99Ms'),
    gitStatusMs: m('gitStatusMs'),
    readHashMs: m('readHashMs'),
    floorMs: m('floorMs'),
    writeFloorMs: m('writeFloorMs'),
  };
}

/** Throws unless the tick queued and drained exactly `expected` paths and left nothing behind. */
export function checkDrained(what: string, report: TickReport, expected: number): void {
  const problems: string[] = [];
  if (report.busyOwnerPid !== undefined) problems.push(`another process (${report.busyOwnerPid}) held the tick lease`);
  if (report.detected !== expected) problems.push(`detected ${report.detected} paths`);
  if (report.drained !== expected) problems.push(`drained ${report.drained} paths`);
  if (report.backlogLeft !== 0) problems.push(`left ${report.backlogLeft} paths in the backlog`);
  if (problems.length > 0) {
    throw new Error(`bench: ${what} changed ${expected} paths but the tick ${problems.join(', ')}; the numbers would not be honest`);
  }
}

/** Undoes a burst and ticks until the map matches the committed tree again (not measured). */
export async function settle(ctx: BenchContext, burst: Burst): Promise<void> {
  undoBurst(ctx.repo, burst);
  checkDrained(`undoing burst ${burst.size}#${burst.run}`, await runTick(ctx.brain), changedPaths(burst).length);
  // The undo tick queued its deferred upkeep (checkpoint, index merge) on the writer, which
  // goes on merging while idle. Bursts in use come seconds apart, long after it; waiting it out
  // keeps it out of the next measured tick, which would otherwise wait for a slice.
  await upkeepDone(ctx.brain);
}

/** One unmeasured burst, so JIT, pool threads and their task modules are warm for the first sample. */
export async function warmUp(ctx: BenchContext, baseFiles: number): Promise<void> {
  const burst = makeBurst(ctx.repo, Math.min(WARMUP_BURST_FILES, baseFiles), -1);
  checkDrained('the warm-up burst', await runTick(ctx.brain), changedPaths(burst).length);
  ctx.floor.measure(ctx.repo.dir, presentPaths(burst));
  await settle(ctx, burst);
}

function taskError(task: Task): Error | undefined {
  return task.result.state === 'errored' ? task.result.error : undefined;
}

export async function measureBursts(ctx: BenchContext, sizes: readonly number[], runs: number): Promise<BurstResult[]> {
  const loop: IntervalHistogram = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  const bench = new Bench({ name: 'burst ticks', iterations: runs, time: 0, warmup: false, throws: true });
  const samples = new Map<number, BurstSample[]>();

  for (const size of sizes) {
    const kept: BurstSample[] = [];
    samples.set(size, kept);
    let burst: Burst | undefined;
    let tick: Omit<BurstSample, 'gitStatusMs' | 'readHashMs' | 'floorMs' | 'writeFloorMs'> | undefined;
    let run = 0;
    bench.add(
      `burst ${size}`,
      async () => {
        const b = burst!;
        ctx.clock.take();
        loop.reset();
        loop.enable();
        const t0 = performance.now();
        const report = await runTick(ctx.clock.brain);
        const totalMs = performance.now() - t0;
        loop.disable();
        const stages = ctx.clock.take();
        checkDrained(`burst ${size}#${b.run}`, report, changedPaths(b).length);
        tick = {
          run: b.run,
          detected: report.detected,
          drained: report.drained,
          batches: report.batches,
          detectMs: report.detectMs,
          drainMs: report.drainMs,
          totalMs,
          detectGitMs: stages.gitMs,
          commitMs: stages.commitMs,
          commitWorkMs: stages.commitWorkMs,
          writerOtherMs: stages.writerOtherMs,
          hashWorkMs: stages.hashWorkMs,
          // The histogram is in ns; with no sample (a tick shorter than the resolution) there was no delay to see.
          loopDelayP99Ms: loop.count > 0 ? loop.percentile(99) / 1e6 : 0,
        };
        return { overriddenDuration: totalMs };
      },
      {
        beforeEach() {
          tick = undefined;
          burst = makeBurst(ctx.repo, size, run++);
        },
        async afterEach() {
          const b = burst!;
          if (tick) {
            const floor = ctx.floor.measure(ctx.repo.dir, presentPaths(b));
            const writeFloorMs = await measureWriteFloor(ctx.repo.dir, presentPaths(b));
            kept.push({ ...tick, ...floor, writeFloorMs });
            ctx.log(
              `burst ${size} run ${b.run + 1}/${runs}: tick ${tick.totalMs.toFixed(1)} ms ` +
                `(detect ${tick.detectMs.toFixed(1)} [git ${tick.detectGitMs.toFixed(1)}], drain ${tick.drainMs.toFixed(1)} ` +
                `[commits ${tick.commitMs.toFixed(1)}, pool work ${tick.hashWorkMs.toFixed(1)}], ${tick.batches} batches), ` +
                `floor ${floor.floorMs.toFixed(1)} ms + write floor ${writeFloorMs.toFixed(1)} ms, loop p99 ${tick.loopDelayP99Ms.toFixed(1)} ms`,
            );
          }
          await settle(ctx, b);
        },
      },
    );
  }

  await bench.run();
  return sizes.map((size) => {
    const task = bench.getTask(`burst ${size}`)!;
    const err = taskError(task);
    if (err) throw err;
    const kept = samples.get(size)!;
    if (task.result.state !== 'completed' || kept.length !== runs) {
      throw new Error(`bench: burst ${size} finished as ${task.result.state} with ${kept.length} of ${runs} samples`);
    }
    const l = task.result.latency;
    return {
      size,
      samples: kept,
      median: medianOf(kept),
      latency: { p50: l.p50, min: l.min, max: l.max, mean: l.mean, samples: l.samplesCount },
    };
  });
}

/** A tick with nothing changed, against the bare `git status` it cannot avoid. */
export async function measureIdle(ctx: BenchContext, runs: number): Promise<IdleResult> {
  const samples = Math.max(runs, IDLE_MIN_SAMPLES);
  const bench = new Bench({ name: 'idle', iterations: samples, time: 0, warmup: false, throws: true });
  const gitMs: number[] = [];
  const writerMs: number[] = [];
  bench.add('idle tick', async () => {
    ctx.clock.take();
    const t0 = performance.now();
    const report = await runTick(ctx.clock.brain);
    const ms = performance.now() - t0;
    const stages = ctx.clock.take();
    checkDrained('an idle tick', report, 0);
    gitMs.push(stages.gitMs);
    writerMs.push(stages.commitMs + stages.writerOtherMs);
    return { overriddenDuration: ms };
  });
  bench.add('git status', () => ({ overriddenDuration: timeGitStatus(ctx.repo.dir) }));
  await bench.run();
  const p50 = (name: string): number => {
    const task = bench.getTask(name)!;
    const err = taskError(task);
    if (err) throw err;
    if (task.result.state !== 'completed') throw new Error(`bench: ${name} finished as ${task.result.state}`);
    return task.result.latency.p50;
  };
  const result = { idleTickMs: p50('idle tick'), gitStatusMs: p50('git status'), tickGitMs: median(gitMs), tickWriterMs: median(writerMs), samples };
  ctx.log(
    `idle tick ${result.idleTickMs.toFixed(1)} ms (git ${result.tickGitMs.toFixed(1)}, store writer ${result.tickWriterMs.toFixed(1)}), ` +
      `bare git status ${result.gitStatusMs.toFixed(1)} ms (medians of ${samples})`,
  );
  return result;
}
