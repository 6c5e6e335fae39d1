/**
 * delegate brings the files its best files import (relative imports), even when they hold
 * none of the task's words: a change often spans a file and what it uses.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains } from './helpers/brains.js';
import { makeTestSession } from './helpers/session.js';
import { runTick } from '../src/vigil/index.js';

test('a file imported by the best match joins the pack, after it', async () => {
  const repo = await makeGitRepo({
    'src/retry_policy.ts': "import { jitter } from './timing/jitter.js';\nexport function retryPolicy(attempt: number) { return jitter(attempt); }\n",
    'src/timing/jitter.ts': 'export function jitter(n: number) { return n * Math.random(); }\n',
    'src/unrelated.ts': 'export const nothing = 0;\n',
  });
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    const s = await makeTestSession(t.brains, repo.dir);
    try {
      const d = await s.dispatch('delegate', { task: 'The retry policy gives up too early on flaky networks' });
      const paths = d.value.files.map((f: { path: string }) => f.path);
      assert.equal(paths[0], 'src/retry_policy.ts');
      assert.ok(paths.includes('src/timing/jitter.ts'), `the imported file is packed too: ${JSON.stringify(paths)}`);
      assert.ok(!paths.includes('src/unrelated.ts'));
    } finally {
      await s.close();
    }
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});
