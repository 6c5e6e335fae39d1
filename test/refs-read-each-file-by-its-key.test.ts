/**
 * `refs` and `impact` run on the main thread, beside every other agent's call: what they read
 * once per file must be a lookup by key, never a scan of the code map. A scan per file made
 * `refs` cost 0.2 ms a file on a 3000-file brain (tens of ms per call, the soak's seek tail).
 *
 * Every statement the reader runs during the calls is counted; each one run once per file
 * (more than a few times in one call) must not scan the `files` table.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runTick } from '../src/vigil/index.js';
import type { Database, Statement } from '../src/store/index.js';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains } from './helpers/brains.js';
import { makeTestSession } from './helpers/session.js';

const IMPORTERS = 30;
/** Runs of one statement in one call that make it a per-file statement. */
const PER_FILE_RUNS = 5;

function fixture(): Record<string, string> {
  const files: Record<string, string> = {
    'src/lib.ts': 'export function shared(n: number): number {\n  return n + 1;\n}\n',
    'src/index.ts': "export { shared } from './lib.js';\nexport * from './more.js';\n",
    'src/more.ts': 'export const more = 1;\n',
  };
  for (let i = 0; i < IMPORTERS; i++) {
    files[`src/m${i}.ts`] = `import { shared } from './index.js';\nimport { more } from './more.js';\nexport function use${i}(): number {\n  return shared(${i}) + more;\n}\n`;
  }
  // A file that uses a method of the same name on some receiver (the member path of the walk).
  files['src/member.ts'] = "import * as ns from './index.js';\nexport function m(x: { shared(): void }) {\n  x.shared();\n  return ns.more;\n}\n";
  return files;
}

/** Wraps the reader's `prepare` to count the runs of each SQL text. */
function countRuns(db: Database): Map<string, number> {
  const runs = new Map<string, number>();
  const prepare = db.prepare.bind(db);
  const counted = (sql: string, st: Statement): Statement => ({
    run: (...p) => (runs.set(sql, (runs.get(sql) ?? 0) + 1), st.run(...p)),
    get: (...p) => (runs.set(sql, (runs.get(sql) ?? 0) + 1), st.get(...p)),
    all: (...p) => (runs.set(sql, (runs.get(sql) ?? 0) + 1), st.all(...p)),
  });
  (db as { prepare: (sql: string) => Statement }).prepare = (sql: string) => counted(sql, prepare(sql));
  return runs;
}

test('refs and impact read each file by its key: no statement run per file scans the code map', async () => {
  const repo = await makeGitRepo(fixture());
  const t = await makeTestBrains();
  const { brain } = await t.brains.ensure(repo.dir);
  await runTick(brain, { inventory: true });
  const s = await makeTestSession(t.brains, repo.dir);
  try {
    const runs = countRuns(brain.reader);
    const calls: [string, Record<string, unknown>][] = [
      ['refs', { name: 'shared' }],
      ['impact', { name: 'shared' }],
      ['impact', { path: 'src/lib.ts' }],
    ];
    for (const [tool, args] of calls) {
      runs.clear();
      const r = await s.dispatch(tool, args);
      assert.equal(r.isError, undefined, JSON.stringify(r.value));
      const perFile = [...runs].filter(([, n]) => n >= PER_FILE_RUNS);
      assert.ok(perFile.length > 0 || tool === 'impact', `${tool} ran no statement per file: the fixture no longer exercises the per-file reads`);
      for (const [sql, n] of perFile) {
        const plan = brain.reader.prepare(`EXPLAIN QUERY PLAN ${sql}`).all<{ detail: string }>(...placeholders(sql)).map((p) => p.detail);
        assert.ok(!plan.some((d) => /^SCAN (files|f)\b/.test(d)), `${tool} ran "${sql}" ${n} times, and each run scans the code map (${plan.join('; ')})`);
      }
    }
    const refs = await s.dispatch('refs', { name: 'shared' });
    assert.equal(refs.value.references.filter((f: { path: string }) => /^src\/m\d+\.ts$/.test(f.path)).length, IMPORTERS, 'every importer is still a use of the definition');
  } finally {
    await s.close();
    await t.cleanup();
    await repo.cleanup();
  }
});

/** A null for each `?` of the statement (a plan does not depend on the values). */
function placeholders(sql: string): null[] {
  return Array.from(sql.matchAll(/\?/g), () => null);
}
