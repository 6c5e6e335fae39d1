/**
 * The soak says where its day's CPU went (bench/soak/cpu-time.ts): the owner's main thread apart
 * from its other threads and from the children it waited for, beside the soak's own load. Read
 * here on this process as the "owner": a worker thread that burns CPU shows under the other
 * threads and not under the main thread, and a child that burns CPU under the children.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { cpuLine, cpuOfDay, readCpu } from '../bench/soak/cpu-time.js';

/** Burns `ms` of wall time on a core (busy, never sleeping). */
const burn = `const w = require('node:worker_threads'); const end = performance.now() + (w.isMainThread ? Number(process.argv[1]) : w.workerData); while (performance.now() < end) {}`;

test("a worker's CPU counts under the owner's other threads, a child's under its children, not under the main thread", { skip: process.platform !== 'linux' && 'read from /proc' }, async () => {
  const start = readCpu(process.pid);
  assert.ok(start, 'a reading on Linux');
  const worker = new Worker(burn, { eval: true, workerData: 400 });
  await new Promise((resolve, reject) => worker.once('exit', resolve).once('error', reject));
  execFileSync(process.execPath, ['-e', burn, '400']);
  const day = cpuOfDay(start, readCpu(process.pid)!);
  assert.ok(day.ownerOtherThreadsS >= 0.1, `the worker's burn counts under the other threads: ${JSON.stringify(day)}`);
  assert.ok(day.ownerOtherThreadsS > day.ownerMainS, `more than the waiting main thread: ${JSON.stringify(day)}`);
  assert.ok(day.ownerChildrenS >= 0.1, `the child's burn counts under the children: ${JSON.stringify(day)}`);
  // This process is also the soak here: its children are the same ones.
  assert.equal(day.soakChildrenS, day.ownerChildrenS);
  assert.ok(day.machineBusy > 0 && day.machineBusy <= 1, `a share of the cores: ${day.machineBusy}`);
  assert.match(cpuLine(day, 6), /CPU over the day \(6 min\): the owner \d+ s \(main thread \d+, its other threads \d+, its git children \d+\)/);
});

test('no reading off Linux or without the owner: no sentence', () => {
  assert.equal(readCpu(2 ** 22 + 12345), null);
  assert.equal(cpuLine(undefined, 30), '');
});
