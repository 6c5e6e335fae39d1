/**
 * The store writer and the pool threads run below the main thread's priority on Linux
 * (src/pool/thread-priority.ts), so recall on the main thread keeps a core during a drain.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains, sourceFiles } from './helpers/brains.js';
import { runTick } from '../src/vigil/index.js';
import { WORKER_NICE_STEPS, yieldToMainThread } from '../src/pool/thread-priority.js';

/** The nice value of each thread of this process, by thread id (Linux /proc). */
function threadNices(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // Fields after the command name: state is field 3, nice field 19.
    out.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return out;
}

test('after a tick, the store writer and the pool thread run below the main thread, which keeps its priority', { skip: process.platform !== 'linux' && 'thread priorities are per thread on Linux only' }, async () => {
  const repo = await makeGitRepo(sourceFiles(3));
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    const main = getPriority();
    const nices = threadNices();
    assert.equal(nices.get(process.pid), main, 'the main thread is left as it was');
    const lowered = [...nices].filter(([, nice]) => nice === Math.min(19, main + WORKER_NICE_STEPS));
    assert.ok(lowered.length >= 2, `threads lowered by ${WORKER_NICE_STEPS}: ${lowered.length} (the writer and a pool thread), nices ${JSON.stringify([...nices])}`);
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});

test('on another platform, a worker keeps its priority (there it would be the whole process)', () => {
  assert.equal(yieldToMainThread('darwin'), false);
  assert.equal(yieldToMainThread('win32'), false);
});
