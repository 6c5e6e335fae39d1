/**
 * Runs a script on a runtime in its main thread and again in a worker thread it starts, and
 * returns what each saw. The script sets `seen` (a JSON-able object with no `thread` field);
 * this adds the thread's name and the relay from the worker.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TAIL = `
seen.thread = isMainThread ? 'main' : 'worker';
if (isMainThread) {
  process.stdout.write(JSON.stringify(seen) + '\\n');
  const w = new Worker(new URL(import.meta.url));
  w.on('message', (m) => process.stdout.write(JSON.stringify(m) + '\\n'));
} else parentPort.postMessage(seen);
`;

export function seenInMainAndWorker<T>(runtime: string, script: string): (T & { thread: string })[] {
  const dir = mkdtempSync(join(tmpdir(), 'gardener-thread-child-'));
  const file = join(dir, 'child.mjs');
  writeFileSync(file, `import { isMainThread, Worker, parentPort } from 'node:worker_threads';\n${script}\n${TAIL}`);
  let r;
  try {
    r = spawnSync(runtime, [file], { encoding: 'utf8', timeout: 60_000 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.equal(r.status, 0, r.stderr);
  const seen = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as T & { thread: string });
  assert.deepEqual(seen.map((s) => s.thread), ['main', 'worker']);
  return seen;
}
