/**
 * The history lists join the ranking: a file that changed together with the best match in
 * past commits is handed out beside it although it holds none of the task's words, and a
 * commit message's words find the files it touched. A root without git history ranks as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { makeTestBrains } from './helpers/brains.js';
import { makeTestSession } from './helpers/session.js';
import { runTick } from '../src/vigil/index.js';

const files: Record<string, string> = {
  'src/throttle.ts': 'export function throttleRequests(limit: number) {\n  return limit;\n}\n',
  'src/quota-table.ts': 'export const rows = [1, 2, 3];\n',
};
for (let i = 0; i < 8; i++) files[`src/other${i}.ts`] = `export const other${i} = ${i};\n`;

async function delegatePaths(brains: Awaited<ReturnType<typeof makeTestBrains>>['brains'], dir: string, task: string): Promise<string[]> {
  const s = await makeTestSession(brains, dir);
  try {
    const r = await s.dispatch('delegate', { task });
    return (r.value.files as { path: string }[]).map((f) => f.path);
  } finally {
    await s.close();
  }
}

test('a file that changed with the best match is handed out beside it; a root without history ranks as before', async () => {
  const repo = await makeGitRepo(files);
  const plain = await makeTempDir('gardener-plain-');
  const t = await makeTestBrains();
  try {
    for (let i = 0; i < 4; i++) {
      repo.write('src/throttle.ts', `export function throttleRequests(limit: number) {\n  return limit + ${i};\n}\n`);
      repo.write('src/quota-table.ts', `export const rows = [${i}];\n`);
      repo.commit(`tune step ${i}`);
      repo.write(`src/other${i}.ts`, `export const other${i} = ${i + 10};\n`);
      repo.commit(`unrelated ${i}`);
    }
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    const withHistory = await delegatePaths(t.brains, repo.dir, 'throttle requests past the limit');
    assert.equal(withHistory[0], 'src/throttle.ts');
    assert.ok(withHistory.includes('src/quota-table.ts'), `co-change brings the table: ${withHistory.join(', ')}`);

    cpSync(repo.dir, join(plain.dir, 'copy'), { recursive: true, filter: (p) => !p.includes('/.git') });
    const copy = await t.brains.ensure(join(plain.dir, 'copy'));
    await runTick(copy.brain, { inventory: true });
    const without = await delegatePaths(t.brains, join(plain.dir, 'copy'), 'throttle requests past the limit');
    assert.deepEqual(without, ['src/throttle.ts']);
  } finally {
    await t.cleanup();
    await plain.cleanup();
    await repo.cleanup();
  }
});

test("a past commit's message finds the files it touched", async () => {
  const repo = await makeGitRepo(files);
  const t = await makeTestBrains();
  try {
    repo.write('src/quota-table.ts', 'export const rows = [9];\n');
    repo.commit('ledger rounding was wrong');
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    const paths = await delegatePaths(t.brains, repo.dir, 'ledger rounding is off again');
    assert.ok(paths.includes('src/quota-table.ts'), `messages bring the table: ${paths.join(', ')}`);
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});

test('a small brain without history leans on the full text: the large file holding the logic leads', async () => {
  const plain = await makeTempDir('gardener-plain-');
  const t = await makeTestBrains();
  try {
    const dir = join(plain.dir, 'lib');
    const body = Array.from({ length: 40 }, (_, i) => `  // trigger the listeners bound with on; off removes callbacks ${i}\n  helper${i}: function (a) { return a + ${i}; },\n`).join('');
    const tree: Record<string, string> = {
      'backbone.js': `var Lib = {\n${body}};\n`,
      'test/trigger-listeners.js': 'function triggerListeners() { return "trigger listeners"; }\n',
      'docs/callbacks.html': '<p>callbacks</p>\n',
      'karma.conf.js': 'module.exports = { files: ["test/*.js"] };\n',
    };
    for (const [p, text] of Object.entries(tree)) {
      mkdirSync(join(dir, p, '..'), { recursive: true });
      writeFileSync(join(dir, p), text);
    }
    const { brain } = await t.brains.ensure(dir);
    await runTick(brain, { inventory: true });
    const paths = await delegatePaths(t.brains, dir, 'listeners bound twice get two callbacks on trigger');
    assert.equal(paths[0], 'backbone.js', paths.join(', '));
  } finally {
    await t.cleanup();
    await plain.cleanup();
  }
});
