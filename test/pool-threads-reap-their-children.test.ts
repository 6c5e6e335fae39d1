/**
 * A child that a pool thread started is reaped as soon as it exits, even when the thread is
 * idle by then (src/pool/worker-pool.ts: POOL_ATOMICS). An idle Piscina thread used to wait in
 * Atomics.wait, its event loop stopped, so the kernel's word that a child exited was not read
 * until the next task came: the child stayed a zombie of this process until then.
 *
 * The child is `cat` parked on a named pipe; the test lets it exit by writing to the pipe and
 * waits for the state of its /proc entry (gone = reaped; `Z` = zombie), never for a time.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { piscinaOptions, startPiscina, WorkerPool } from '../src/pool/worker-pool.js';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';

const WORKER = fileURLToPath(new URL('./fixtures/spawn-and-answer-worker.js', import.meta.url));
/** How long a reaped child may take to leave /proc, in ms: a bound for a broken build, never reached by a working one. */
const REAPED_WITHIN_MS = 10_000;

/** This process's children in state Z (zombies), as `pid:name`. */
function zombies(): string[] {
  const out: string[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) === process.pid && state === 'Z') out.push(`${name}:${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}`);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The state letter of `pid`, or null once it is gone (reaped). */
function stateOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]!;
  } catch {
    return null;
  }
}

/** Resolves once `pid` is gone from /proc; rejects, naming its state, past REAPED_WITHIN_MS. */
async function reaped(pid: number): Promise<void> {
  const deadline = performance.now() + REAPED_WITHIN_MS;
  for (;;) {
    const state = stateOf(pid);
    if (state === null) return;
    if (performance.now() > deadline) throw new Error(`child ${pid} is still here in state ${state} (Z: a zombie nobody reaped)`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

test('a child that exits after its task answered is reaped while the pool thread is idle, not at the next task', { skip: process.platform !== 'linux' && 'reads /proc' }, async () => {
  const dir = await makeTempDir('gardener-reap-');
  const fifo = join(dir.dir, 'park');
  execFileSync('mkfifo', [fifo]);
  const pool = startPiscina({ ...piscinaOptions(1), filename: WORKER });
  try {
    const pid = (await pool.run({ fifo })) as number;
    assert.ok(stateOf(pid) !== null, 'the child is alive, parked on the pipe');
    // Unpark it: `cat` reads what we write, sees the end and exits while the thread is idle.
    const fd = openSync(fifo, 'w');
    writeSync(fd, 'go\n');
    closeSync(fd);
    await reaped(pid);
    assert.deepEqual(zombies(), []);
  } finally {
    await pool.run(null, { name: 'nothing' }).catch(() => {});
    await pool.destroy();
    await dir.cleanup();
  }
});

test('after detections, a cancelled one included, this process has no zombie child', { skip: process.platform !== 'linux' && 'reads /proc' }, async () => {
  const repo = await makeGitRepo({ 'a.ts': 'export const a = 1;\n' });
  const dir = await makeTempDir('gardener-reap-');
  const fifo = join(dir.dir, 'park');
  execFileSync('mkfifo', [fifo]);
  // A git that parks on the pipe until the test writes to it (it never will: it is cancelled).
  const fakeGit = join(dir.dir, 'git');
  execFileSync('sh', ['-c', `printf '#!/bin/sh\\nread x < "%s"\\n' '${fifo}' > '${fakeGit}' && chmod +x '${fakeGit}'`]);
  const pool = new WorkerPool({ maxThreads: 1 });
  // Only this test's children count (a failed test before it may have left one).
  const before = new Set(zombies());
  const newZombies = () => zombies().filter((z) => !before.has(z));
  try {
    for (let i = 0; i < 3; i++) {
      await pool.detect({ root: repo.dir, backend: 'git', sinceRef: null, recheck: [], skip: [] });
      assert.deepEqual(newZombies(), [], `after detection ${i + 1}`);
    }
    const cancel = new AbortController();
    const parked = pool.detect({ root: repo.dir, backend: 'git', sinceRef: null, recheck: [], skip: [], gitBinary: fakeGit }, cancel.signal);
    // Cancel once the fake git has opened the pipe for reading (a writer's open returns then).
    const fd = openSync(fifo, 'w');
    cancel.abort();
    await assert.rejects(parked, (err: Error & { code?: string }) => err.code === 'GDN_ABORTED');
    closeSync(fd);
    assert.deepEqual(newZombies(), [], 'after the cancelled detection');
  } finally {
    await pool.close();
    await repo.cleanup();
    await dir.cleanup();
  }
});
