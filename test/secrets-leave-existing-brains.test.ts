/**
 * Brains indexed before the map kept secrets out lose them (schema migration 4): opening such a
 * brain queues every mapped file for one more ingest, so after the next tick neither a
 * secret-bearing file's text nor a token in source is findable, and until then the backlog says
 * the files are pending.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Brains, brainFile } from '../src/brain/index.js';
import { countBacklog, openDatabase } from '../src/store/index.js';
import { seek } from '../src/ranking/index.js';
import { runTick } from '../src/vigil/index.js';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';

const GITHUB_TOKEN = 'ghp' + '_' + 'Wq3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz1Xc3Vb5';

test('a brain indexed before secrets were kept out loses them at its next tick, with every file pending until then', async () => {
  const repo = await makeGitRepo({
    '.env': 'API_PASSWORD=oldenvsecret4417\n',
    'src/github.ts': `export const AUTH = "${GITHUB_TOKEN}"; // kestrelword\n`,
  });
  const home = await makeTempDir('gardener-home-');
  let brains = new Brains({ home: home.dir, maxThreads: 1 });
  try {
    const { brain } = await brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    const id = brain.id;
    await brains.close();

    // Make it the brain an older Gardener left: schema 3, every file's raw text in the index.
    const db = openDatabase(brainFile(home.dir, id));
    for (const { id: rowid, path } of db.prepare('SELECT id, path FROM files').all<{ id: number; path: string }>()) {
      db.prepare('DELETE FROM fts WHERE rowid = ?').run(rowid);
      db.prepare('INSERT INTO fts (rowid, path, symbols, content) VALUES (?, ?, ?, ?)').run(rowid, path, '', readFileSync(join(repo.dir, path), 'utf8'));
    }
    db.exec('ALTER TABLE roots DROP COLUMN notes_dir'); // schema 10's
    db.exec('DROP INDEX files_with_manifest'); // schema 9's
    db.exec('ALTER TABLE files DROP COLUMN manifest');
    db.exec('DROP TABLE team_notes'); // schema 8's
    db.exec('ALTER TABLE roots DROP COLUMN ignore_fingerprint');
    db.exec('ALTER TABLE files DROP COLUMN refs'); // schema 5's
    db.exec('DROP TABLE note_ties'); // schema 6's
    for (const t of ['history_state', 'history_commits', 'history_paths', 'history_touches', 'history_fts']) db.exec(`DROP TABLE ${t}`); // schema 7's
    db.exec('PRAGMA user_version = 3');
    db.close();

    brains = new Brains({ home: home.dir, maxThreads: 1 });
    const reopened = brains.resolve(repo.dir);
    const found = (word: string) => seek(reopened.reader, word).map((h) => h.path);
    await reopened.writer.runUpkeep();
    assert.deepEqual(found('oldenvsecret4417'), ['.env'], 'the old index held the secret');
    assert.equal(countBacklog(reopened.reader), 2, 'every mapped file is pending re-ingest');

    await runTick(reopened);
    assert.deepEqual(found('oldenvsecret4417'), []);
    assert.deepEqual(found(GITHUB_TOKEN), []);
    assert.deepEqual(found('kestrelword'), ['src/github.ts']);
    assert.equal(countBacklog(reopened.reader), 0);
  } finally {
    await brains.close();
    await repo.cleanup();
    await home.cleanup();
  }
});
