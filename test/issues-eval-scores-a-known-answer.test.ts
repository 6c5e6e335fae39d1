/**
 * The issue eval (evals/issues/) on a repository the test builds, with SWE-bench rows the test
 * writes: gold files are the code the fix changes that existed at the base (not its tests, docs
 * or new files), the tree is the base commit's (the fix is never seen), delegate and BM25 are
 * scored on them; bad input exits 2 with a message that names what is wrong.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeGitRepo, makeTempDir, testGitEnv } from './helpers/git-repo.js';
import { changedPaths, goldFiles, readTasks } from '../evals/issues/tasks.js';
import { scoreIssue } from '../evals/issues/metrics.js';
import { runIssues } from '../evals/issues/run-issues.js';
import { summarize } from '../evals/issues/report.js';

const MAIN = fileURLToPath(new URL('../evals/issues/main.js', import.meta.url));

const PATCH = [
  'diff --git a/src/retry/backoff.ts b/src/retry/backoff.ts',
  'index 1111111..2222222 100644',
  '--- a/src/retry/backoff.ts',
  '+++ b/src/retry/backoff.ts',
  '@@ -1 +1 @@',
  '-old',
  '+new',
  'diff --git a/src/retry/jitter_new.ts b/src/retry/jitter_new.ts',
  'new file mode 100644',
  'index 0000000..3333333',
  '--- /dev/null',
  '+++ b/src/retry/jitter_new.ts',
  '@@ -0,0 +1 @@',
  '+x',
  'diff --git a/test/backoff.test.ts b/test/backoff.test.ts',
  'index 4444444..5555555 100644',
  '--- a/test/backoff.test.ts',
  '+++ b/test/backoff.test.ts',
  'diff --git a/CHANGELOG.md b/CHANGELOG.md',
  'index 6666666..7777777 100644',
  '',
].join('\n');

test('gold files are the changed code that existed before the fix: no tests, docs or new files', () => {
  const changed = changedPaths(PATCH);
  assert.deepEqual(changed.map((c) => [c.path, c.added]), [['src/retry/backoff.ts', false], ['src/retry/jitter_new.ts', true], ['test/backoff.test.ts', false], ['CHANGELOG.md', false]]);
  assert.deepEqual(goldFiles({ id: 'x', repo: 'o/n', base: 'abc1234', text: '', changed }), ['src/retry/backoff.ts']);
});

test('Acc@k needs every gold file within k; Recall@k counts the share; RR the first', () => {
  const s = scoreIssue(['a', 'b', 'c', 'd', 'e', 'f'], ['b', 'f']);
  assert.deepEqual([s.acc[1], s.acc[3], s.acc[5], s.acc[10]], [0, 0, 0, 1]);
  assert.deepEqual([s.recall[5], s.recall[10]], [0.5, 1]);
  assert.equal(s.rr, 0.5);
  assert.equal(scoreIssue([], ['b']).rr, 0);
});

test('the eval checks out the base, asks delegate the issue text, and scores it beside BM25', async () => {
  const repo = await makeGitRepo({
    'src/retry/backoff.ts': 'export function backoffDelay(attempt: number) { return 2 ** attempt * 100; }\n',
    'src/http/client.ts': "import { backoffDelay } from '../retry/backoff.js';\nexport async function get(url: string) { return fetch(url).catch(() => backoffDelay(1)); }\n",
    'src/util/strings.ts': 'export const pad = (s: string) => s.padStart(4);\n',
    'test/backoff.test.ts': "import '../src/retry/backoff.js';\n",
  });
  const mirrors = await makeTempDir();
  try {
    const base = repo.git('rev-parse', 'HEAD');
    // The fix lands after the base: the eval must not see it.
    repo.write('src/retry/backoff.ts', 'export function backoffDelay(attempt: number) { return Math.min(2 ** attempt * 100, 30_000); }\n');
    repo.commit('Cap the backoff delay');
    mkdirSync(join(mirrors.dir, 'acme+retrying'));
    symlinkSync(repo.dir, join(mirrors.dir, 'acme+retrying', 'repo'));
    const rows = [
      { repo: 'acme/retrying', instance_id: 'acme__retrying-1', base_commit: base, patch: PATCH, problem_statement: 'Backoff delay grows without bound\n\n`backoffDelay` returns hours after a few dozen attempts; it should be capped.' },
      { repo: 'acme/retrying', instance_id: 'acme__retrying-2', base_commit: base, patch: 'diff --git a/docs/x.md b/docs/x.md\nindex 1..2 100644\n', problem_statement: 'Docs only\n\nnothing to find' },
      { repo: 'acme/elsewhere', instance_id: 'acme__elsewhere-1', base_commit: base, patch: PATCH, problem_statement: 'No clone\n\nof this one' },
    ];
    const file = join(mirrors.dir, 'rows.jsonl');
    writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n'));
    const tasks = await readTasks(file);
    const { results, skipped } = await runIssues({ tasks, reposDir: mirrors.dir, exclude: new Set() }, () => {});
    assert.equal(results.length, 1);
    const [r] = results;
    assert.deepEqual(r!.gold, ['src/retry/backoff.ts']);
    assert.equal(r!.files, 4, 'the base tree, not the fix');
    assert.equal(r!.top.delegate[0], 'src/retry/backoff.ts');
    assert.equal(r!.scores.delegate.acc[1], 1);
    assert.ok(r!.top.bm25.includes('src/retry/backoff.ts'), 'BM25 ranks it too');
    assert.ok(r!.answerChars > 0 && r!.delegateMs > 0);
    assert.ok(r!.lists && r!.lists.lists.some((l) => l.name === 'defines' && l.paths[0] === 'src/retry/backoff.ts'), 'the fused lists are kept for learning weights');
    assert.deepEqual(skipped.map((s) => s.id).sort(), ['acme__elsewhere-1', 'acme__retrying-2']);
    assert.match(skipped.find((s) => s.id === 'acme__elsewhere-1')!.why, /no clone of acme\/elsewhere/);
    const summary = summarize(results);
    assert.equal(summary.overall.tasks, 1);
    assert.equal(summary.byLanguage[0]!.name, 'typescript');

    const env = testGitEnv();
    const ok = spawnSync(process.execPath, [MAIN, '--tasks', file, '--repos', mirrors.dir, '--only', 'acme/retrying'], { encoding: 'utf8', env });
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /\| \*\*overall\*\* \| 1 \| 1\.00 \//);
  } finally {
    await repo.cleanup();
    await mirrors.cleanup();
  }
});

test('bad input: exit 2 and a message naming what is wrong', async () => {
  const dir = await makeTempDir();
  try {
    const env = testGitEnv();
    const run = (...args: string[]) => spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', env });
    const noTasks = run('--repos', dir.dir);
    assert.equal(noTasks.status, 2);
    assert.match(noTasks.stderr, /--tasks is required/);
    writeFileSync(join(dir.dir, 'bad.jsonl'), '{"repo": "a/b"}\n');
    const missing = run('--tasks', join(dir.dir, 'bad.jsonl'), '--repos', dir.dir);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /row 1: field "instance_id" is missing/);
    writeFileSync(join(dir.dir, 'broken.jsonl'), '{"repo": \n');
    const broken = run('--tasks', join(dir.dir, 'broken.jsonl'), '--repos', dir.dir);
    assert.equal(broken.status, 2);
    assert.match(broken.stderr, /broken\.jsonl:1: not a JSON row/);
    const notDir = run('--tasks', join(dir.dir, 'bad.jsonl'), '--repos', join(dir.dir, 'nope'));
    assert.equal(notDir.status, 2);
    assert.match(notDir.stderr, /--repos .* is not a folder/);
  } finally {
    await dir.cleanup();
  }
});
