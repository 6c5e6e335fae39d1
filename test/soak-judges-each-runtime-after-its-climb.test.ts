/**
 * The soak judges an owner's memory after its runtime's climb to the working set (judge.ts
 * memoryWarmupMs): on Node 5 minutes, as issue 31 set it; on Bun an hour, decided from five Bun
 * soaks of 60 to 150 minutes (docs/reliability.md) that climbed for about an hour and held after.
 * What the 5-minute warm-up would have said stays in the report beside it, and a growth that goes
 * on after the hour still misses.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoryWarmupMs, warmupMs } from '../bench/soak/judge.js';
import { judgeSoak } from '../bench/soak/verdict.js';
import { renderDocSection, type SoakReport } from '../bench/soak/report.js';
import type { Sample } from '../bench/soak/sampler.js';

const MIN = 60_000;
const bounds = { maxSlopeMb: 2, peakToleranceMb: 1, seekRatioMax: 2, fdSlack: 2, watchSlack: 2, threadSlack: 2 };

/** One sample every 10 s for `minutes`, RSS valued by rss(minute), a sawtooth of 3 MB on it as collections make. */
function samples(minutes: number, rss: (m: number) => number): Sample[] {
  return Array.from({ length: minutes * 6 + 1 }, (_, i) => {
    const m = i / 6;
    return {
      t: i * 10_000, rssMb: rss(m) + (i % 6) / 2, mainHeapMb: 40, poolHeapMb: 30, writersHeapMb: 10,
      fds: 60, threads: 30, watches: 100, children: 1, zombies: 0, childFds: 10, childThreads: 4, sessionsOpen: 0, backlog: 0, quiet: true,
    };
  });
}

function judge(minutes: number, runtime: 'Node' | 'Bun', rss: (m: number) => number) {
  const s = samples(minutes, rss);
  return judgeSoak({
    runMs: minutes * MIN, runtime, samples: s, finalQuiet: s[s.length - 1]!, tokens: [], idleSeekMs: [1, 2, 3], soakSeekMs: [1, 2, 3],
    backlogEnd: 0, ownerExit: { code: 0, signal: null }, bounds,
  });
}

/** Bun as its soaks measured it: 0.7 MB a minute for an hour (237 -> 279 MB), then held. */
const bunDay = (m: number) => 237 + 0.7 * Math.min(m, 60);

test('memory is judged after an hour on Bun in a run of two hours or more, after 5 minutes on Node and in a shorter Bun run', () => {
  assert.equal(memoryWarmupMs(140 * MIN, 'Bun'), 60 * MIN);
  assert.equal(memoryWarmupMs(120 * MIN, 'Bun'), 60 * MIN);
  assert.equal(memoryWarmupMs(119 * MIN, 'Bun'), 5 * MIN, 'an hour judged at least: a shorter Bun run is judged as any other');
  assert.equal(memoryWarmupMs(30 * MIN, 'Bun'), 5 * MIN);
  assert.equal(memoryWarmupMs(140 * MIN, 'Node'), 5 * MIN);
  for (const m of [3, 12, 30, 60]) {
    assert.equal(memoryWarmupMs(m * MIN, 'Node'), warmupMs(m * MIN));
    assert.equal(memoryWarmupMs(m * MIN, 'Bun'), warmupMs(m * MIN));
  }
});

test('a Bun owner that climbs for an hour and holds is met in a long run; on Node the same climb misses', () => {
  const bun = judge(140, 'Bun', bunDay);
  assert.equal(bun.memoryWarmupMs, 60 * MIN);
  assert.equal(bun.warmupMs, 5 * MIN, 'the levels keep the 5-minute warm-up');
  assert.deepEqual(bun.missed, []);
  const node = judge(140, 'Node', bunDay);
  assert.equal(node.memoryWarmupMs, 5 * MIN);
  assert.match(node.missed.join('; '), /^RSS: slope \d\.\d\d MB\/10 min > 2/);
});

test('what the 5-minute warm-up would have said stays beside the verdict, in the verdicts and in the section', () => {
  const bun = judge(140, 'Bun', bunDay);
  const first = bun.memoryFromFirstWarmup;
  assert.ok(first, 'the memory judged from minute 5 is kept');
  const rss = first.find((v) => v.name === 'RSS')!;
  assert.equal(rss.ok, false, 'from minute 5 the climb reads as a slope');
  const report: SoakReport = {
    config: { minutes: 140, runtime: 'Bun', runtimeVersion: '1.4.5', runtimeArg: null, watchBackend: 'native', seed: 1, baseFiles: 3000, treeSitterFiles: 400, plainFiles: 400, startedAt: '2026-12-07T00:00:00Z', machine: 'test', bounds },
    brains: [], idleSeekMs: [1, 2, 3], samples: samples(140, bunDay),
    workload: { rounds: 1, sessionsOpened: {}, killedMidCall: {}, probeSeeks: 3, calls: 0, callsFailed: 0 } as unknown as SoakReport['workload'],
    alerts: [], ownerWarnings: [], verdicts: bun,
  };
  const section = renderDocSection(report);
  assert.match(section, /Memory is judged after a warm-up of 60\.0 minutes \(on Bun, in a run of 120 minutes or more, the hour it climbs to its working set/);
  const m = /Judged from minute 5 instead, as issue 31 first set it \(information\): RSS slope (\d+\.\d\d) MB\/10 min \(missed;/.exec(section);
  assert.ok(m, `no line from minute 5 in:\n${section}`);
  assert.equal(Number(m[1]), Number(rss.slopeMbPer10Min.toFixed(2)));
  const node = judge(140, 'Node', bunDay);
  assert.equal(node.memoryFromFirstWarmup, null, 'nothing to add where the warm-ups are the same');
});

test('on Bun a growth that goes on after the hour still misses, and a short Bun run that misses says how long to run', () => {
  const leak = judge(140, 'Bun', (m) => bunDay(m) + 0.25 * m);
  assert.match(leak.missed.join('; '), /^RSS: slope 2\.\d\d MB\/10 min > 2; new peak in the last third/);
  const short = judge(30, 'Bun', bunDay);
  assert.equal(short.memoryWarmupMs, 5 * MIN);
  const rss = short.missed.find((l) => l.startsWith('RSS'));
  assert.ok(rss, short.missed.join('; '));
  assert.match(rss, /Bun climbs to its working set for about an hour: run 120 minutes or more to judge it after that/);
  assert.ok(!judge(30, 'Node', bunDay).missed.some((l) => l.includes('Bun')), 'Node is not told of Bun');
});
