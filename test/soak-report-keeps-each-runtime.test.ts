/**
 * The soak's report (bench/soak/report.ts): each watch backend and runtime has its own section of
 * docs/reliability.md, so a Node 24 run leaves the Node 20 run beside it; and the section says
 * where RSS went outside the heaps (each thread's external memory, and the rest).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeDoc, type SoakReport } from '../bench/soak/report.js';
import { judgeSoak } from '../bench/soak/verdict.js';
import type { Sample } from '../bench/soak/sampler.js';

const MIN = 60_000;

/** A 30-minute run's samples: RSS and heaps flat but the pool's external memory, which grows 1 MB a minute. */
function samples(): Sample[] {
  return Array.from({ length: 181 }, (_, i) => {
    const m = i / 6;
    return {
      t: i * 10_000, rssMb: 200 + m, mainHeapMb: 40, poolHeapMb: 50, writersHeapMb: 24,
      externalMb: { main: 3, pool: 10 + m, writers: 1 },
      fds: 60, threads: 30, watches: 100, children: 1, zombies: 0, childFds: 10, childThreads: 4, sessionsOpen: 0, backlog: 0, quiet: true,
    };
  });
}

function report(runtime: string, runtimeVersion: string, runtimeArg: string | null = null): SoakReport {
  const s = samples();
  const bounds = { maxSlopeMb: 2, peakToleranceMb: 1, seekRatioMax: 2, fdSlack: 2, watchSlack: 2, threadSlack: 2 };
  const verdicts = judgeSoak({
    runMs: 30 * MIN, samples: s, finalQuiet: s[s.length - 1]!, tokens: [], idleSeekMs: [1, 2, 3], soakSeekMs: [1, 2, 3],
    backlogEnd: 0, ownerExit: { code: 0, signal: null }, bounds,
  });
  return {
    config: { minutes: 30, runtime, runtimeVersion, runtimeArg, watchBackend: 'native', seed: 1, baseFiles: 3000, treeSitterFiles: 400, plainFiles: 200, startedAt: '2026-12-04T00:00:00Z', machine: 'test', bounds },
    brains: [], idleSeekMs: [1, 2, 3], samples: s,
    workload: { rounds: 1, sessionsOpened: {}, killedMidCall: {}, probeSeeks: 3, calls: 0, callsFailed: 0 } as unknown as SoakReport['workload'],
    alerts: [], ownerWarnings: [], verdicts,
  };
}

test('a run on another runtime writes a section of its own and leaves the others', () => {
  const root = mkdtempSync(join(tmpdir(), 'soak-report-'));
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'docs', 'reliability.md'), '# Reliability\n\nBefore the soaks.\n');
  writeDoc(root, report('Node', 'v20.18.0'));
  writeDoc(root, report('Node', 'v24.11.1', 'node_modules/node/bin/node'));
  writeDoc(root, report('Node', 'v20.19.2'));
  const doc = readFileSync(join(root, 'docs', 'reliability.md'), 'utf8');
  assert.match(doc, /^# Reliability\n\nBefore the soaks\.\n/);
  assert.equal(doc.match(/soak:begin native, Node 20 /g)?.length, 1, 'the second Node 20 run replaced the first');
  assert.equal(doc.match(/soak:begin native, Node 24 /g)?.length, 1, 'the Node 24 run kept its own');
  assert.match(doc, /## The soak: an owner through a working day \(native watcher, Node 24\)/);
  assert.match(doc, /`npm run soak -- --minutes 30 --runtime node_modules\/node\/bin\/node --write-doc`/, 'the command runs it again on its runtime');
  assert.match(doc, /`npm run soak -- --minutes 30 --write-doc` \(bench\/soak\/\): one `gardener serve` \(Node v20/);
  assert.ok(doc.indexOf('native, Node 20 (') < doc.indexOf('native, Node 24 ('), 'a replaced section stays where it was');
  assert.deepEqual(readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.svg')).sort(), ['soak-rss-native-node-20.svg', 'soak-rss-native-node-24.svg']);
});

test('the section says where RSS went outside the heaps', () => {
  const root = mkdtempSync(join(tmpdir(), 'soak-report-'));
  mkdirSync(join(root, 'docs'));
  writeDoc(root, report('Bun', '1.4.5'));
  const doc = readFileSync(join(root, 'docs', 'reliability.md'), 'utf8');
  // RSS grows 10 MB / 10 min, all of it the pool thread's external memory: nothing left beyond.
  assert.match(doc, /external memory of the main thread 0\.00, a pool thread 10\.00, the store writers 0\.00/);
  assert.match(doc, /RSS less the heaps and external memory read 0\.00 /);
  assert.match(doc, /\(native watcher, Bun\)/);
});
