import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from './helpers/git-repo.js';
import { StoreWriterClient } from '../src/pool/index.js';

test('a writer that could not open its store tries again on the next call instead of replaying the failure', async () => {
  const temp = await makeTempDir();
  // The folder does not exist yet: opening the store fails, as on a read-only or missing disk.
  const file = join(temp.dir, 'later', 'brain.db');
  const client = new StoreWriterClient(file);
  try {
    await assert.rejects(client.api.listRoots(), (err: { code?: string; message: string }) => {
      assert.equal(err.code, 'GDN_STORE_IO', err.message);
      assert.ok(err.message.includes(file), `names the file: ${err.message}`);
      return true;
    });
    mkdirSync(join(temp.dir, 'later'));
    assert.deepEqual(await client.api.listRoots(), [], 'the next call opens the store');
    assert.equal(typeof (await client.api.ensureRoot(temp.dir, 1)), 'number');
  } finally {
    await client.close();
    await temp.cleanup();
  }
});
