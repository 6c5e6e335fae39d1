/**
 * The soak's report (bench/soak/report.ts) says, as information beside the judged slope, the
 * slope of RSS and of the main thread's heap in each half of the judged time: an owner that
 * climbs to its working set and stays there (a 60-minute Bun run: RSS 10.72 MB/10 min from
 * minute 5 to 30, 0.09 from 30 to 60) reads apart from one that grows all along.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderDocSection, type SoakReport } from '../bench/soak/report.js';
import { judgeSoak } from '../bench/soak/verdict.js';
import type { Sample } from '../bench/soak/sampler.js';

const MIN = 60_000;

/** A 65-minute run: after the 5-minute warm-up RSS climbs 2 MB a minute for 30 minutes, then stays; the main heap grows 0.1 MB a minute throughout. */
function report(): SoakReport {
  const samples: Sample[] = Array.from({ length: 391 }, (_, i) => {
    const m = i / 6;
    return {
      t: i * 10_000, rssMb: 200 + 2 * Math.min(30, Math.max(0, m - 5)), mainHeapMb: 40 + m / 10, poolHeapMb: 50, writersHeapMb: 24,
      externalMb: { main: 3, pool: 10, writers: 1 },
      fds: 60, threads: 30, watches: 100, children: 1, zombies: 0, childFds: 10, childThreads: 4, sessionsOpen: 0, backlog: 0, quiet: true,
    };
  });
  const bounds = { maxSlopeMb: 2, peakToleranceMb: 1, seekRatioMax: 2, fdSlack: 2, watchSlack: 2, threadSlack: 2 };
  const verdicts = judgeSoak({
    runMs: 65 * MIN, samples, finalQuiet: samples[samples.length - 1]!, tokens: [], idleSeekMs: [1, 2, 3], soakSeekMs: [1, 2, 3],
    backlogEnd: 0, ownerExit: { code: 0, signal: null }, bounds,
  });
  return {
    config: { minutes: 65, runtime: 'Bun', runtimeVersion: '1.4.5', runtimeArg: null, watchBackend: 'fs.watch', seed: 1, baseFiles: 3000, treeSitterFiles: 400, plainFiles: 200, startedAt: '2026-12-04T00:00:00Z', machine: 'test', bounds },
    brains: [], idleSeekMs: [1, 2, 3], samples,
    workload: { rounds: 1, sessionsOpened: {}, killedMidCall: {}, probeSeeks: 3, calls: 0, callsFailed: 0 } as unknown as SoakReport['workload'],
    alerts: [], ownerWarnings: [], verdicts,
  };
}

test('the section gives the slope of RSS and the main heap in each half of the judged time', () => {
  const section = renderDocSection(report());
  const m = /In each half of the judged time \(information, MB \/ 10 min\): RSS (-?\d+\.\d+) then (-?\d+\.\d+), main thread heap (-?\d+\.\d+) then (-?\d+\.\d+)/.exec(section);
  assert.ok(m, `no halves line in:\n${section}`);
  const [rss1, rss2, main1, main2] = m.slice(1).map(Number);
  assert.equal(rss1, 20, 'RSS climbs 2 MB a minute in the first half');
  assert.ok(Math.abs(rss2!) < 0.01, `RSS is flat in the second half, got ${rss2}`);
  assert.equal(main1, 1);
  assert.equal(main2, 1, 'a heap that grows all along grows in both halves');
});

test('the halves say how much of RSS is pages mapped from files, where the samples read it', () => {
  const r = report();
  // The code touched comes in during the first half (1 MB a minute), then stays.
  r.samples.forEach((s, i) => (s.rssFileMb = 50 + Math.min(30, Math.max(0, i / 6 - 5)) / 2));
  const m = /RSS (-?\d+\.\d+) then (-?\d+\.\d+), of RSS the pages mapped from files \(the runtime's code and native modules as they are touched\) (-?\d+\.\d+) then (-?\d+\.\d+), main thread heap/.exec(renderDocSection(r));
  assert.ok(m, 'a file-backed slope beside RSS');
  assert.deepEqual(m.slice(3).map((n) => Math.round(Number(n) * 100) / 100), [5, 0]);
});

test('the section gives each store on disk after the warm-up: brain.db at both ends with its slope, and the WAL at its largest', () => {
  const r = report();
  r.samples.forEach((s, i) => {
    const m = i / 6;
    s.stores = { big: { dbMb: 30 + m / 10, walMb: i % 10 === 0 ? 8 : 1 }, plain: { dbMb: 4, walMb: 0.5 } };
  });
  const section = renderDocSection(r);
  const m = /Stores on disk after the warm-up \(information; brain\.db, its WAL apart\): big (\d+\.\d) to (\d+\.\d) MB \((-?\d+\.\d+) MB \/ 10 min; WAL at most (\d+\.\d) MB\), plain 4\.0 to 4\.0 MB \(0\.00 MB \/ 10 min; WAL at most 0\.5 MB\)/.exec(section);
  assert.ok(m, `no stores line in:\n${section}`);
  assert.deepEqual(m.slice(1).map(Number), [30.5, 36.5, 1, 8]);
});

test('throwaway folders are judged: each brain made must be removed through the owner, and a report made before them says nothing of them', () => {
  const r = report();
  const again = (throwaways: { tried: number; made: number; removed: number }) =>
    judgeSoak({
      runMs: 65 * MIN, samples: r.samples, finalQuiet: r.samples[r.samples.length - 1]!, tokens: [], idleSeekMs: [1, 2, 3], soakSeekMs: [1, 2, 3],
      backlogEnd: 0, ownerExit: { code: 0, signal: null }, throwaways, bounds: r.config.bounds as never,
    });
  const left = again({ tried: 3, made: 3, removed: 2 });
  assert.ok(left.missed.includes('throwaway brains: 1 of 3 not made and removed through the owner'), left.missed.join('; '));
  assert.match(renderDocSection({ ...r, verdicts: left }), /\| throwaway folders: brain made \/ removed through the owner \/ tried \| 3 \/ 2 \/ 3 \| \*\*MISSED\*\* \|/);
  const all = again({ tried: 3, made: 3, removed: 3 });
  assert.ok(!all.missed.some((m) => m.startsWith('throwaway')), all.missed.join('; '));
  assert.match(renderDocSection({ ...r, verdicts: all }), /\| 3 \/ 3 \/ 3 \| met \|/);
  assert.doesNotMatch(renderDocSection(r), /throwaway/, 'no row for a report without them');
});
