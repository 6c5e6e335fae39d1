/**
 * Recall reads every segment of the full-text index, and one upkeep after a tick merges only
 * what fits its budget (src/store/maintenance.ts). So the writer goes on merging by itself, one
 * budgeted slice at a time, while it has nothing else to do, until FTS5 finds nothing left;
 * never while a tick holds the lease, so a drain's commits never wait behind a merge. Run on
 * every driver, with the writer's timers on a test clock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, ensureRoot, pushChanges, peekBacklog, commitResults, deferUpkeep, type Database } from '../src/store/index.js';
import { seek } from '../src/ranking/index.js';
import { StoreWriter } from '../workers/store-writer.js';
import { extractionFields, type DetectResult, type FileResult } from '../workers/types.js';
import { ManualClock } from './helpers/manual-clock.js';

const segments = (db: Database) =>
  db.prepare('SELECT count(DISTINCT id >> 37) AS n FROM fts_data WHERE id >= 137438953472 AND (id >> 37) < 65536').get<{ n: number }>()!.n;

/** A store whose index holds `batches` segments, as a drain's commits leave it. */
function storeWithSegments(file: string, batches: number): void {
  const db = openStore(file);
  deferUpkeep(db);
  const root = ensureRoot(db, '/repo', 1);
  const words = Array.from({ length: 20000 }, (_, i) => `w${(i * 7919) % 100003}`);
  for (let batch = 0; batch < batches; batch++) {
    const paths = Array.from({ length: 16 }, (_, i) => `src/b${batch}/f${i}.ts`);
    const detected: DetectResult = { backend: 'git', head: 'abc', inventory: false, dirty: [], fallback: null, gitMs: 0, entries: paths.map((path) => ({ path, size: 1, mtimeMs: 1, deleted: false })) };
    pushChanges(db, root, detected, 1);
    const results = peekBacklog(db, 0, 100).map((it, i): FileResult => ({
      id: it.id, rootId: root, path: it.path, status: 'ingested', size: 1, mtimeMs: 1, hash: `h-${it.path}`, language: 'typescript', lines: 1,
      text: new TextEncoder().encode(words.slice((i * 500 + batch * 37) % 12000, (i * 500 + batch * 37) % 12000 + 8000).join(" ")),
      ...extractionFields([], []),
    }));
    db.transaction(() => commitResults(db, results, 2))();
  }
  db.close();
}

test('an idle writer keeps merging the index slice by slice until nothing is left, and never while a tick holds the lease', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gardener-idle-merge-'));
  const file = join(dir, 'brain.db');
  try {
    storeWithSegments(file, 15);
    const clock = new ManualClock();
    const writer = new StoreWriter({ timers: clock });
    writer.open(file);
    const look = openStore(file, { readonly: true });
    const before = segments(look);

    // One merge per slice (a zero budget): the first leaves work, so a follow-up is waiting.
    const first = writer.runUpkeep({ budgetMs: 0 });
    assert.equal(first.merges, 1);
    assert.equal(first.mergeLeft, true);
    assert.equal(clock.pending, 1, 'a follow-up slice is waiting');

    // A tick takes the lease: the waiting slice is dropped and none is armed until it ends.
    assert.equal(writer.beginTick(process.pid, 1).lease.acquired, true);
    assert.equal(clock.pending, 0, 'no merge runs while a tick holds the lease');
    writer.releaseTickLease(process.pid, 2, { detected: 0, drained: 0, backlogLeft: 0 });
    assert.equal(clock.pending, 0);
    writer.runUpkeep({ budgetMs: 0 }); // the tick's own upkeep, as tick.ts runs it
    assert.equal(clock.pending, 1);

    // Left alone, the writer merges on until FTS5 has nothing left to merge.
    let slices = 0;
    while (clock.pending > 0 && slices < 500) {
      clock.advance(1_000);
      slices++;
    }
    assert.equal(clock.pending, 0, `still merging after ${slices} slices`);
    assert.ok(slices > 1, `merged in ${slices} follow-up slices`);
    const after = segments(look);
    assert.ok(after < before, `segments ${before} -> ${after}`);
    assert.equal(writer.runUpkeep().mergeLeft, false, 'nothing is left to merge');
    assert.equal(clock.pending, 0);
    assert.ok(seek(look, 'w5').length > 0, 'the index still answers');
    look.close();
    writer.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
