/**
 * The soak counts a zombie child when its parent leaves it unreaped, not the moment between a
 * child's exit and its parent's wait that every child has: a 16-minute soak caught a `git` in
 * that moment once in 90 readings, while its pool thread was busy, and called it a zombie. A real
 * parent here spawns `true` and then blocks its event loop: for a moment (it reaps after) and for
 * good (it never does while the test looks).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { descendants, lastingZombies, treeCounts } from '../bench/soak/proc-tree.js';

const PARENT = `
const { spawn } = require('node:child_process');
const child = spawn('true');
child.on('exit', () => process.stdout.write('reaped\\n'));
child.on('spawn', () => {
  process.stdout.write('spawned ' + child.pid + '\\n');
  // The loop stops here: the child exits, and nothing waits for it until the block ends.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(process.argv[1]));
});
setInterval(() => {}, 1000);
`;

/** A parent whose child has exited and is not yet reaped: resolves once /proc says so. */
async function parentWithZombie(blockMs: number): Promise<ChildProcess> {
  const parent = spawn(process.execPath, ['-e', PARENT, String(blockMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(parent.stdout!, 'data')) as [Buffer];
  assert.match(line.toString(), /^spawned \d+/);
  while (!descendants(parent.pid!).some((c) => c.state === 'Z')) await new Promise((r) => setImmediate(r));
  return parent;
}

test('a child reaped within the grace is no zombie; one left unreaped is', { timeout: 60_000 }, async () => {
  const brief = await parentWithZombie(300);
  try {
    const seen = treeCounts(brief.pid!);
    assert.equal(seen.zombies, 1, 'the reading sees the exited child');
    assert.deepEqual(await lastingZombies(seen.zombieList, 2_000), [], 'its parent reaped it within the grace');
  } finally {
    brief.kill('SIGKILL');
  }

  const stuck = await parentWithZombie(60_000);
  try {
    const seen = treeCounts(stuck.pid!);
    const lasting = await lastingZombies(seen.zombieList, 300);
    assert.deepEqual(lasting.map((z) => z.comm), ['true'], 'a child its parent does not reap stays a zombie and counts');
  } finally {
    stuck.kill('SIGKILL');
  }
});
