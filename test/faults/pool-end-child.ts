/**
 * A child that closes its worker pool while a thread is loading the detect task file, round
 * after round, for pool-ends-mid-load.test.ts. Each round starts a pool (one thread, up and
 * idle), posts a detect task (the thread's first, so it loads workers/detect.js), blocks this
 * thread for the round's delay (Atomics.wait: the pool thread goes on loading) and closes the
 * pool. Prints `survived <rounds>` when the process outlived every close.
 *
 *   node pool-end-child.js <repo> <delayMs>,<delayMs>,...
 */
import { WorkerPool } from '../../src/pool/worker-pool.js';

const [repo, delaysText] = process.argv.slice(2) as [string, string];
const delays = delaysText.split(',').map(Number);
const blocker = new Int32Array(new SharedArrayBuffer(4));

for (const delay of delays) {
  const pool = new WorkerPool({ maxThreads: 1 });
  await pool.heapStats();
  pool.resolveCommit(repo, 'HEAD').catch(() => {});
  if (delay > 0) Atomics.wait(blocker, 0, 0, delay);
  await pool.close();
}
process.stdout.write(`survived ${delays.length}\n`);
