/**
 * A connection keeps one prepared statement per SQL text, and an owner's connections live for
 * weeks: a text built per call (an `IN (?, ?, …)` as long as each batch) was a new statement
 * kept for ever, for every batch length a connection ever saw. The cache is bounded (least
 * recently used let go), and the per-batch texts are one text each.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openDatabase } from '../src/store/sqlite-adapter.js';
import { MAX_CACHED_STATEMENTS } from '../src/store/drivers/types.js';
import { loadCodeGraph } from '../src/skeleton/index.js';
import { runTick } from '../src/vigil/index.js';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { makeTestBrains } from './helpers/brains.js';

test('a connection holds at most MAX_CACHED_STATEMENTS statements; the ones in use stay, the others are prepared again when asked', async () => {
  const tmp = await makeTempDir();
  const db = openDatabase(join(tmp.dir, 'cache.db'));
  try {
    const hot = db.prepare('SELECT 1 AS n');
    for (let i = 0; i < MAX_CACHED_STATEMENTS * 4; i++) {
      assert.equal(db.prepare(`SELECT ${i} AS n`).get<{ n: number }>()!.n, i);
      assert.equal(db.prepare('SELECT 1 AS n'), hot, 'a statement used all along stays prepared');
    }
    assert.ok(db.statementsHeld <= MAX_CACHED_STATEMENTS, `held ${db.statementsHeld} statements, bound ${MAX_CACHED_STATEMENTS}`);
    assert.equal(db.prepare('SELECT 2 AS n').get<{ n: number }>()!.n, 2, 'a statement let go is prepared again');
    assert.equal(hot.get<{ n: number }>()!.n, 1);
  } finally {
    db.close();
    await tmp.cleanup();
  }
});

test('the code graph reads the changed files of any burst through one statement', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 12; i++) files[`src/f${i}.ts`] = `import { x } from './x.js';\nexport const f${i} = x + ${i};\n`;
  files['src/x.ts'] = 'export const x = 1;\n';
  const repo = await makeGitRepo(files);
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    const db = brain.reader;
    loadCodeGraph(db);
    const held: number[] = [];
    // Bursts of 1 to 6 files: each reload reads the imports of that many changed files.
    for (let k = 1; k <= 6; k++) {
      for (let i = 0; i < k; i++) repo.write(`src/f${i}.ts`, `import { x } from './x.js';\nexport const f${i} = x + ${i * 100 + k};\n`);
      await runTick(brain);
      const graph = loadCodeGraph(db);
      assert.equal(graph.byPath.get(`src/f${k - 1}.ts`)?.imports[0]?.target, 'src/x.ts');
      held.push(db.statementsHeld);
    }
    assert.equal(new Set(held).size, 1, `statements held after bursts of 1..6 files: ${held.join(', ')} (one per burst length before)`);
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});
