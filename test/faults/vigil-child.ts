/**
 * A child process that runs one vigil tick of a brain (fail-open: a failure is an outcome and
 * an alert, never a throw) and prints the outcome with how long it took, for the fault suite.
 * Its environment is the test's: a fake git first on PATH reaches the pool's git.
 * It also prints the process's peak RSS (all threads) in MB.
 *
 *   node vigil-child.js <home> <dir> [gitTimeoutMs]
 *
 * With VIGIL_CHILD_TICKS=n it runs n ticks in the same process, printing each outcome and
 * waiting for a line on stdin before the next (the test changes the world in between).
 */
import { createInterface } from 'node:readline';
import { Brains } from '../../src/brain/index.js';
import { Vigil } from '../../src/vigil/index.js';

const [home, dir, gitTimeout] = process.argv.slice(2) as [string, string, string | undefined];
const brains = new Brains({ home, maxThreads: 1 });
const brain = brains.resolve(dir);
const vigil = new Vigil(brain, { log: () => {}, tickOptions: gitTimeout ? { gitTimeoutMs: Number(gitTimeout) } : {} });
const ticks = Number(process.env.VIGIL_CHILD_TICKS ?? 1);
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
for (let i = 0; i < ticks; i++) {
  if (i > 0) await lines.next();
  const started = performance.now();
  const outcome = await vigil.request();
  const ms = Math.round(performance.now() - started);
  // maxRSS covers the whole process: main thread, pool threads and the store writer.
  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  process.stdout.write(JSON.stringify({ ...outcome, ms, peakRssMb }) + '\n');
}
process.stdin.destroy();
await brains.close();
