/**
 * `refs` and `impact` ask for the code graph on every call; it is built once and kept while the
 * store is unchanged (src/skeleton/code-graph.ts), and built again after a commit by another
 * connection (a tick) or a write by the connection itself (the store writer's reconcile).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains } from './helpers/brains.js';
import { runTick } from '../src/vigil/index.js';
import { loadCodeGraph } from '../src/skeleton/index.js';
import { openDatabase } from '../src/store/index.js';

const FILES = {
  'src/a.ts': "import { b } from './b.js';\nexport const a = b;\n",
  'src/b.ts': 'export const b = 1;\n',
  'src/c.ts': 'export const c = 2;\n',
};
const targetsOf = (graph: ReturnType<typeof loadCodeGraph>, path: string) => graph.byPath.get(path)?.imports.map((i) => i.target) ?? [];

test('the same graph is answered while the store is unchanged, and a new one after another connection commits', { timeout: 60_000 }, async () => {
  const repo = await makeGitRepo(FILES);
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    const first = loadCodeGraph(brain.reader);
    assert.equal(loadCodeGraph(brain.reader), first, 'nothing changed: the graph is kept');
    assert.deepEqual(targetsOf(first, 'src/a.ts'), ['src/b.ts']);
    writeFileSync(join(repo.dir, 'src/a.ts'), "import { c } from './c.js';\nexport const a = c;\n");
    await runTick(brain);
    const after = loadCodeGraph(brain.reader);
    assert.notEqual(after, first, 'a tick committed: the graph is built again');
    assert.deepEqual(targetsOf(after, 'src/a.ts'), ['src/c.ts']);
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});

test("a connection's own write is seen: the graph is built again after it", { timeout: 60_000 }, async () => {
  const repo = await makeGitRepo(FILES);
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    const db = openDatabase(brain.file);
    try {
      const first = loadCodeGraph(db);
      assert.deepEqual(targetsOf(first, 'src/a.ts'), ['src/b.ts']);
      db.prepare("UPDATE files SET hash = 'edited', imports = ? WHERE path = 'src/a.ts'").run(JSON.stringify([{ module: './c.js', line: 1 }]));
      const after = loadCodeGraph(db);
      assert.notEqual(after, first);
      assert.deepEqual(targetsOf(after, 'src/a.ts'), ['src/c.ts']);
    } finally {
      db.close();
    }
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});
