/**
 * brain.db and the WAL and SHM files SQLite makes beside it later are the user's alone (0600)
 * on every driver: better-sqlite3 (this Node 20), node:sqlite (Node 24) and bun:sqlite (Bun);
 * a store an older Gardener left 0644 is made 0600 when it is next opened. Run with the
 * usual umask (022), where a file SQLite creates by itself would be 0644.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from './helpers/git-repo.js';

const CHILD = fileURLToPath(new URL('./fixtures/store-modes-child.js', import.meta.url));
const RUNTIMES = [
  { label: `node ${process.version}`, command: process.execPath },
  { label: 'node 24', command: fileURLToPath(new URL('../../node_modules/node/bin/node', import.meta.url)) },
  { label: 'bun', command: fileURLToPath(new URL('../../node_modules/.bin/bun', import.meta.url)) },
];
const PRIVATE = { 'brain.db': '600', 'brain.db-wal': '600', 'brain.db-shm': '600' };

for (const runtime of RUNTIMES) {
  test(`a store's files are 0600 from their first write, and an older store's are made so on open (${runtime.label})`, async () => {
    assert.ok(existsSync(runtime.command), `${runtime.command} is missing: it is a dev dependency, run npm install`);
    const dir = await makeTempDir('gardener-modes-');
    try {
      const r = spawnSync(runtime.command, [CHILD, dir.dir], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      const seen = JSON.parse(r.stdout) as { driver: string; new: object; before: Record<string, string>; existing: object };
      assert.deepEqual(seen.new, PRIVATE, `a new store on ${seen.driver}`);
      assert.equal(seen.before['brain.db'], '644', 'the older store really was 0644');
      assert.equal(seen.before['brain.db-wal'], '644', 'and its WAL too');
      assert.deepEqual(seen.existing, PRIVATE, `an older store opened on ${seen.driver}`);
    } finally {
      await dir.cleanup();
    }
  });
}
