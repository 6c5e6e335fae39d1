/**
 * The home's token file appears whole or not at all: owners started at the same moment each
 * make or read `<home>/token`, and none may read it between its creation and its write (a file
 * opened with O_EXCL is there, empty, before its bytes are). Seen as "two serves started at
 * once": the second refused with GDN_TOKEN_UNREADABLE instead of naming the owner. Threads
 * released together by one barrier race for the file, round after round.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';

const RACERS = 6;
const ROUNDS = 40;

const racer = `
const { workerData, parentPort } = require('node:worker_threads');
(async () => {
  const { ensureToken } = await import(workerData.module);
  const gate = new Int32Array(workerData.gate);
  Atomics.add(gate, 1, 1);
  Atomics.wait(gate, 0, 0);
  try {
    parentPort.postMessage({ token: ensureToken(workerData.file) });
  } catch (err) {
    parentPort.postMessage({ error: err.code + ': ' + err.message });
  }
})();
`;

test('owners racing for a new home all read the one whole token', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gardener-token-race-'));
  const module = new URL('../src/owner/token.js', import.meta.url).href;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const file = join(dir, `token-${round}`);
      const gate = new SharedArrayBuffer(8);
      const flags = new Int32Array(gate);
      const workers = Array.from({ length: RACERS }, () => new Worker(racer, { eval: true, workerData: { module, gate, file } }));
      const answers = workers.map((w) => new Promise<{ token?: string; error?: string }>((resolve, reject) => {
        w.once('message', resolve);
        w.once('error', reject);
      }));
      while (Atomics.load(flags, 1) < RACERS) await new Promise((r) => setImmediate(r));
      Atomics.store(flags, 0, 1);
      Atomics.notify(flags, 0);
      const got = await Promise.all(answers);
      await Promise.all(workers.map((w) => w.terminate()));
      for (const a of got) assert.equal(a.error, undefined, `round ${round}: ${a.error}`);
      assert.equal(new Set(got.map((a) => a.token)).size, 1, `round ${round}: one token for all`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
