/**
 * A child process that ingests and drains a brain and SIGKILLs itself at a chosen point, for
 * the kill-anywhere suite. The point is `<phase>:<index>:<delayMs>`:
 *   detect:0:d     d ms after detection started (git and the stat cache running in the pool)
 *   push:0:d       d ms after the changed set was sent to the writer (its transaction)
 *   commit:n:d     d ms after the n-th commit of results was sent to the writer
 *   batch:n:0      right after the n-th commit landed (between batches)
 *   note:0:d       d ms after a note was sent to the writer
 *   migrate:0:d    d ms after the writer started opening (and migrating) an older store
 * The delay blocks only this thread (Atomics.wait), never the workers doing the work, so the
 * kill lands while they are at it. It prints `reached` when the point was never reached.
 *
 *   node kill-child.js <home> <dir> <phase>:<index>:<delayMs>
 */
import { Brains } from '../../src/brain/index.js';
import { runTick } from '../../src/vigil/index.js';

const [home, dir, point] = process.argv.slice(2) as [string, string, string];
const [phase, indexText, delayText] = point.split(':') as [string, string, string];
const index = Number(indexText);
const delayMs = Number(delayText);

function killAfter(ms: number): never {
  if (ms > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
}

const brains = new Brains({ home, maxThreads: 2 });
const brain = brains.resolve(dir);
const client = brain.writerClient();

if (phase === 'migrate') {
  const opening = client.ready();
  setImmediate(() => killAfter(delayMs));
  await opening;
} else if (phase === 'note') {
  await client.ready();
  const writing = brain.writer.addNote({ text: `a note written at kill point ${point}`, tags: ['kill'] }, Date.now());
  setImmediate(() => killAfter(delayMs));
  await writing;
} else {
  const call = client.call.bind(client);
  let commits = 0;
  client.call = (method: string, args: unknown[]) => {
    const p = call(method, args);
    if (phase === 'push' && method === 'pushChanges') setImmediate(() => killAfter(delayMs));
    if (phase === 'commit' && method === 'commitResults' && commits++ === index) setImmediate(() => killAfter(delayMs));
    return p;
  };
  const detect = brain.pool.detect.bind(brain.pool);
  brain.pool.detect = (...args: Parameters<typeof detect>) => {
    const p = detect(...args);
    if (phase === 'detect') setImmediate(() => killAfter(delayMs));
    return p;
  };
  let batches = 0;
  await runTick(brain, {
    maxFiles: 32,
    onProgress: () => {
      if (phase === 'batch' && batches++ === index) killAfter(0);
    },
  });
}
// The work ended before the kill point: the parent counts it as a point not reached.
process.stdout.write('reached\n');
await brains.close();
