/**
 * The path vocabulary (src/ranking/path-words.ts) is rebuilt after every tick, since a tick may
 * add or remove paths; it splits only the paths it has not split before. In a soak of `gardener
 * serve` the first `delegate` after each burst rebuilt it on the main thread, splitting every
 * path of a 3,800-file map again (about half of that call's time, a probe seek waiting behind it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { makeTempDir } from './helpers/git-repo.js';
import { openStore } from '../src/store/index.js';
import { pathVocabulary } from '../src/ranking/path-words.js';
import { splitWords } from '../src/ranking/words.js';

test('a rebuilt path vocabulary splits only the paths it has not seen, and reads as a fresh one', async () => {
  const tmp = await makeTempDir('gardener-path-words-');
  const db = openStore(join(tmp.dir, 'brain.db'));
  try {
    db.exec("INSERT INTO roots (id, path, added_at) VALUES (1, '/r', 1)");
    const add = (path: string) => db.prepare('INSERT INTO files (root_id, path, size, mtime_ms, hash, language, ingested_at) VALUES (1, ?, 1, 1, ?, NULL, 1)').run(path, path);
    for (let i = 0; i < 50; i++) add(`src/retry/policy_${i}.ts`);
    const split: string[] = [];
    const counting = (text: string) => {
      split.push(text);
      return splitWords(text);
    };
    const first = pathVocabulary(db, counting);
    assert.equal(first.files.length, 50);
    const splitFirst = split.length;

    split.length = 0;
    add('src/ledger/totalInvoice.ts');
    db.prepare("DELETE FROM files WHERE path = 'src/retry/policy_3.ts'").run();
    db.exec('UPDATE vigil SET ticks = ticks + 1');
    const second = pathVocabulary(db, counting);
    assert.deepEqual(split, ['src/ledger/totalInvoice.ts', 'totalInvoice.ts'], `the rebuild split ${split.length} texts (the first build ${splitFirst})`);

    const reader = openStore(join(tmp.dir, 'brain.db'), { readonly: true });
    try {
      const fresh = pathVocabulary(reader);
      assert.deepEqual(second.files, fresh.files);
      assert.deepEqual([...second.postings].sort(), [...fresh.postings].sort());
    } finally {
      reader.close();
    }
    assert.ok(second.postings.get('invoice')?.length === 1 && !second.files.some((f) => f.path.endsWith('policy_3.ts')));
  } finally {
    db.close();
    await tmp.cleanup();
  }
});
