/**
 * A drain hands its batches to the store writer as they finish (staged) and commits them as a
 * group. The law holds across the hand-over: staged results are not in the map and their items
 * stay in the backlog until the commit that applies them, which removes them in the same
 * transaction; a worker that dies in between (kill -9 anywhere: test/faults) loses nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { makeTempDir } from './helpers/git-repo.js';
import { MessageChannel } from 'node:worker_threads';
import { StoreWriterClient, moved } from '../src/pool/index.js';
import { openStore, readStatus } from '../src/store/index.js';
import { extractionFields, type FileResult } from '../workers/types.js';

const ingested = (id: number, rootId: number, path: string): FileResult => ({
  id, rootId, path, status: 'ingested', size: 3, mtimeMs: 1, hash: `h-${path}`, language: 'typescript', lines: 1,
  text: new TextEncoder().encode(`export function staged${id}() {}`),
  ...extractionFields([{ name: `staged${id}`, kind: 'function', line: 1, exported: true }], []),
});

test('staged results reach the map only with the commit that removes their items from the backlog', async () => {
  const temp = await makeTempDir();
  const file = join(temp.dir, 'brain.db');
  const client = new StoreWriterClient(file);
  const w = client.api;
  try {
    const root = await w.ensureRoot(temp.dir, 1);
    const entries = ['a.ts', 'b.ts', 'c.ts', 'd.ts'].map((path) => ({ path, size: 3, mtimeMs: 1, deleted: false }));
    await w.pushChanges(root, { backend: 'git', head: 'abc', inventory: false, entries, dirty: [], fallback: null, gitMs: 0 }, 1);
    const items = await w.peekBacklog(0, 10);
    const results = items.map((it) => ingested(it.id, root, it.path));

    await w.stageResults(7, results.slice(0, 2));
    await w.stageResults(7, results.slice(2, 3));
    await w.stageResults(8, results.slice(3)); // another drain's, under its own key
    const reader = openStore(file, { readonly: true });
    try {
      assert.equal(readStatus(reader).files, 0, 'nothing staged is in the map');
      assert.equal(await w.countBacklog(), 4, 'every staged item still waits in the backlog');

      const committed = await w.commitResults([], 2, 7);
      assert.equal(committed.ingested, 3, 'the commit applies what was staged under its key, in order');
      assert.equal(committed.backlog, 1);
      assert.equal(readStatus(reader).files, 3);

      await w.dropStaged(8);
      assert.equal((await w.commitResults([], 3, 8)).ingested, 0, 'a dropped stage is never applied');
      assert.equal((await w.commitResults([], 4, 7)).ingested, 0, 'a committed stage is not applied twice');
      assert.equal(await w.countBacklog(), 1, 'the dropped item still waits: the next drain reads it again');
    } finally {
      reader.close();
    }
  } finally {
    await client.close();
    await temp.cleanup();
  }
});

test('a batch whose channel closes without results fails its staging instead of waiting for it', { timeout: 60_000 }, async () => {
  const temp = await makeTempDir();
  const client = new StoreWriterClient(join(temp.dir, 'brain.db'));
  const w = client.api;
  try {
    await w.ensureRoot(temp.dir, 1);
    const delivered = new MessageChannel();
    const posted = ingested(1, 1, 'a.ts');
    delivered.port1.postMessage([posted]);
    assert.equal(await w.stageFrom(9, moved(delivered.port2, [delivered.port2])), 1, 'a delivered batch is staged');

    // The pool thread died before posting: its end of the channel closes, and nothing comes.
    const lost = new MessageChannel();
    const staging = w.stageFrom(10, moved(lost.port2, [lost.port2]));
    lost.port1.close();
    await assert.rejects(staging, /closed its channel to the store writer without results/);
    assert.equal((await w.commitResults([], 2, 10)).ingested, 0, 'nothing was staged for the lost batch');
  } finally {
    await client.close();
    await temp.cleanup();
  }
});
