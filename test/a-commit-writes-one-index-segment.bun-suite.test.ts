/**
 * The code map's full-text index is written in rowid order, so one commit of a burst adds one
 * index segment however its files arrived (src/store/code-map.ts). Run on every driver: it is
 * FTS5's behaviour, in whichever SQLite the runtime ships.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, ensureRoot, pushChanges, peekBacklog, commitResults, deferUpkeep, readStatus, type Database } from '../src/store/index.js';
import { seek } from '../src/ranking/index.js';
import { extractionFields, type DetectResult, type FileResult } from '../workers/types.js';

const detected = (paths: string[], deleted = false): DetectResult => ({
  backend: 'git', head: 'abc', inventory: false, dirty: [], fallback: null, gitMs: 0,
  entries: paths.map((path) => ({ path, size: 1, mtimeMs: Math.random(), deleted })),
});

const ingested = (id: number, rootId: number, path: string, word: string): FileResult => ({
  id, rootId, path, status: 'ingested', size: 1, mtimeMs: 1, hash: `${word}-${path}`, language: 'typescript', lines: 1,
  text: new TextEncoder().encode(`${word} shared words in every file ${path.replace(/\W/g, ' ')}`),
  ...extractionFields([{ name: `${word}_${path.replace(/\W/g, '_')}`, kind: 'function', line: 1, exported: true }], []),
});

/**
 * Index segments: the segment ids of FTS5's data rows (`id >> 37`, past the structure rows).
 * A segment's tombstone pages (contentless_delete) sit at its id + 2^16 and are not segments.
 */
const segments = (db: Database) =>
  db.prepare('SELECT count(DISTINCT id >> 37) AS n FROM fts_data WHERE id >= 137438953472 AND (id >> 37) < 65536').get<{ n: number }>()!.n;

test('a commit that replaces and deletes files in any order adds one full-text segment, and the index holds only the new words', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gardener-segments-'));
  try {
    const db = openStore(join(dir, 'brain.db'));
    deferUpkeep(db);
    const root = ensureRoot(db, '/repo', 1);
    const paths = Array.from({ length: 60 }, (_, i) => `src/f${i}.ts`);
    pushChanges(db, root, detected(paths), 1);
    db.transaction(() => commitResults(db, peekBacklog(db, 0, 100).map((it) => ingested(it.id, root, it.path, 'oldword')), 2))();
    const before = segments(db);

    // The next burst reaches the writer in another order than the rows were written (the
    // backlog's), with deletions and new files among the replaced ones.
    const reversed = [...paths].reverse();
    const gone = reversed.filter((_, i) => i % 5 === 0);
    const kept = reversed.filter((_, i) => i % 5 !== 0);
    pushChanges(db, root, detected([...kept, 'src/new-a.ts', 'src/new-b.ts']), 3);
    pushChanges(db, root, detected(gone, true), 3);
    const items = peekBacklog(db, 0, 100);
    const results = items.map((it): FileResult => (gone.includes(it.path) ? { id: it.id, rootId: root, path: it.path, status: 'deleted' } : ingested(it.id, root, it.path, 'newword')));
    db.transaction(() => commitResults(db, results, 4))();

    const added = segments(db) - before;
    assert.ok(added <= 1, `one commit added ${added} index segments`);
    assert.equal(readStatus(db).files, 60 - gone.length + 2);
    assert.deepEqual(seek(db, 'oldword', { limit: 100 }), [], 'no replaced or deleted file keeps its old words');
    const found = new Set(seek(db, 'newword', { limit: 100 }).map((h) => h.path));
    assert.equal(found.size, kept.length + 2, 'every new row is in the index');
    for (const p of gone) assert.equal(found.has(p), false, `${p} was deleted`);
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
