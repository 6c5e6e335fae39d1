/**
 * An owner that runs for a month opens brains for sessions that come once and go; each kept a
 * store-writer thread (about 10 MB of RSS) until the LRU let the brain go. A writer with no call
 * for its idle time ends its thread (parked); the next call starts a fresh one on the same store.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { ManualClock } from './helpers/manual-clock.js';
import { homeToken, logLine, ownerEnv, runCli, startServe } from './helpers/owner.js';
import { StoreWriterClient } from '../src/pool/index.js';

test('a writer idle for its time ends its thread, never while a call runs, and the next call finds the store as it was', async () => {
  const temp = await makeTempDir();
  const clock = new ManualClock();
  let parked = 0;
  let onParked = () => {};
  const client = new StoreWriterClient(join(temp.dir, 'brain.db'), { idleMs: 1000, timers: clock, onParked: () => (parked++, onParked()) });
  try {
    assert.equal(client.running, false, 'no thread before the first call');
    const root = await client.api.ensureRoot(temp.dir, 1);
    assert.equal(client.running, true);
    clock.advance(999);
    assert.equal(client.running, true, 'not before its idle time');
    // A call restarts the quiet; while one runs, no time parks the writer.
    const running = client.api.listRoots();
    clock.advance(5000);
    assert.equal((await running).length, 1);
    assert.equal(client.running, true, 'a call in flight held the writer');
    assert.equal(parked, 0);
    const ended = new Promise<void>((r) => (onParked = r));
    clock.advance(1000);
    await ended;
    assert.equal(client.running, false, 'parked after 1000 ms without a call');
    assert.equal(parked, 1);
    assert.deepEqual((await client.api.listRoots()).map((r) => r.id), [root], 'a fresh thread reads the same store');
    assert.equal(client.running, true);
  } finally {
    await client.close();
    await temp.cleanup();
  }
  assert.equal(clock.pending, 0, 'close leaves no idle timer');
});

test('an owner parks an unused brain\'s writer, and its status does not wake it', { timeout: 60_000 }, async () => {
  const home = await makeTempDir('gardener-home-');
  const env = ownerEnv(home.dir);
  const repo = await makeGitRepo({ 'src/a.ts': 'export const a = 1;\n' });
  assert.equal((await runCli(['init', repo.dir], env)).code, 0);
  const owner = await startServe(home.dir, [], { GARDENER_WRITER_IDLE_MS: '200' });
  const threads = () => Number(/Threads:\s+(\d+)/.exec(readFileSync(`/proc/${owner.pid}/status`, 'utf8'))![1]);
  const rest = (tool: string, args: unknown) =>
    fetch(`${owner.ready.url}/api/tools/${tool}`, { method: 'POST', headers: { authorization: `Bearer ${homeToken(home.dir)}`, 'content-type': 'application/json', 'x-gardener-folder': repo.dir }, body: JSON.stringify(args) }).then(async (r) => {
      const text = await r.text();
      assert.equal(r.status, 200, text);
      return text;
    });
  try {
    await rest('remember', { text: 'the first note, before the writer is parked' });
    const brain = (await logLine(owner, (e) => e.msg === 'writer parked')).brain as string;
    const parkedThreads = threads();
    // Status asks each writer thread for its heap: a parked writer must not be started for it.
    for (let i = 0; i < 3; i++) {
      const s = JSON.parse((await runCli(['serve', '--status', '--json'], env)).stdout) as { heaps: { writers: Record<string, unknown> } };
      assert.equal(s.heaps.writers[brain], undefined, 'no heap of a parked writer');
    }
    assert.equal(threads(), parkedThreads, 'no writer thread started by a status');
    await rest('remember', { text: 'the second note, by a fresh writer' });
    assert.match(await rest('seek', { query: 'note', scope: 'notes' }), /first note[\s\S]*second note|second note[\s\S]*first note/);
  } finally {
    await owner.stop();
    await repo.cleanup();
    await home.cleanup();
  }
});
