/**
 * delegate and seek on hostile input: empty or whitespace text, a 100 KB task, only stop
 * words, non-Latin text. Each gets a clear answer (an error that says why, or a result with a
 * word of why), never a crash and never an empty success without a reason.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains } from './helpers/brains.js';
import { makeTestSession } from './helpers/session.js';
import { runTick } from '../src/vigil/index.js';

async function withSession(fn: (s: Awaited<ReturnType<typeof makeTestSession>>) => Promise<void>) {
  const repo = await makeGitRepo({
    'src/http/retry_policy.ts': 'export function retryDelay(attempt: number): number {\n  return 2 ** attempt * 100;\n}\n',
    'src/router.ts': 'export function add() {}\nexport function make() {}\nexport function fix() {}\n',
    'src/i18n/greeting.ts': "export const приветствие = 'привет мир';\n",
  });
  const t = await makeTestBrains();
  const { brain } = await t.brains.ensure(repo.dir);
  await runTick(brain, { inventory: true });
  const s = await makeTestSession(t.brains, repo.dir);
  try {
    await fn(s);
  } finally {
    await s.close();
    await t.cleanup();
    await repo.cleanup();
  }
}

test('an empty or whitespace-only task or query is refused with a reason', async () => {
  await withSession(async (s) => {
    for (const task of ['', '   ', '\n\t ']) {
      const d = await s.dispatch('delegate', { task });
      assert.equal(d.isError, true, JSON.stringify(task));
      assert.match(d.value.error.message, /task must not be empty or only whitespace/);
      const k = await s.dispatch('seek', { query: task });
      assert.equal(k.isError, true);
      assert.match(k.value.error.message, /query must not be empty or only whitespace/);
    }
  });
});

test('a task of only stop words answers with no files and says why', async () => {
  await withSession(async (s) => {
    const d = await s.dispatch('delegate', { task: 'Add the fix and make it work, please' });
    assert.equal(d.isError, undefined);
    assert.deepEqual(d.value.files, [], 'add/make/fix are not names to look for');
    assert.match(d.value.why, /stop word/);
    const k = await s.dispatch('seek', { query: 'fix it and add it now', scope: 'code' });
    assert.deepEqual(k.value.code, []);
    assert.match(k.value.why, /stop word/);
  });
});

test('a 100 KB task is read whole and answered within budget', async () => {
  await withSession(async (s) => {
    // Thousands of distinct words first; what the task is about comes at the end, twice.
    const filler = Array.from({ length: 14_000 }, (_, i) => `zq${i}`).join(' ');
    const task = `${filler}. The retry delay grows too fast with each attempt: the retry delay must be capped.`;
    assert.ok(task.length >= 100_000);
    const d = await s.dispatch('delegate', { task, budget_tokens: 500 });
    assert.equal(d.isError, undefined, JSON.stringify(d.value));
    assert.equal(d.value.files[0]?.path, 'src/http/retry_policy.ts', 'words at the end of the text count');
    assert.ok(JSON.stringify(d.value).length <= 500 * 4);
  });
});

test('non-Latin text: found when the code holds it, a reason when nothing does', async () => {
  await withSession(async (s) => {
    const found = await s.dispatch('delegate', { task: 'поменять приветствие на другое' });
    assert.equal(found.isError, undefined);
    assert.equal(found.value.files[0]?.path, 'src/i18n/greeting.ts');
    const none = await s.dispatch('delegate', { task: '修复 路由器 错误' });
    assert.equal(none.isError, undefined);
    assert.deepEqual(none.value.files, []);
    assert.match(none.value.why, /no mapped file holds any word/);
    const seek = await s.dispatch('seek', { query: '修复 路由器 错误', scope: 'code' });
    assert.deepEqual(seek.value.code, []);
    assert.match(seek.value.why, /no mapped file holds any word/);
  });
});

test('a text query to seek ranks files; an identifier keeps exact-symbol-first order', async () => {
  await withSession(async (s) => {
    const text = await s.dispatch('seek', { query: 'how long is the delay between retry attempts', scope: 'code' });
    assert.equal(text.value.code[0]?.path, 'src/http/retry_policy.ts');
    assert.equal(text.value.code[0]?.symbol, 'retryDelay', 'the hit points at the definition that matches');
    const ident = await s.dispatch('seek', { query: 'make', scope: 'code' });
    assert.equal(ident.value.code[0]?.symbol, 'make', 'a name asked for is still found first');
  });
});
