/**
 * The recall eval on a repository the test builds, with a known answer: one commit qualifies
 * and every other kind the issue excludes is there beside it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { makeGitRepo, makeTempDir, testGitEnv } from './helpers/git-repo.js';
import { sampleTasks } from '../bench/recall/sample-commits.js';
import { runRecall } from '../bench/recall/run-recall.js';
import { summarizeRuns } from '../bench/recall/summarize.js';

const MAIN = fileURLToPath(new URL('../bench/recall/main.js', import.meta.url));

const ROUTER = `export function file(p: string) { return p; }
export function names(xs: string[]) { return xs; }
export function spaces(n: number) { return ' '.repeat(n); }
export function script(s: string) { return s; }
export function quote(s: string) { return s; }
export class Router { add() {} make() {} }
`;

async function makeHistory() {
  const repo = await makeGitRepo({
    'src/zsh_completions.ts': 'export function renderZshCompletions(commands: string[]): string {\n  return commands.map((c) => `compadd ${c}`).join("\\n");\n}\n',
    'src/router.ts': ROUTER,
    'src/locales/fr.ts': 'export const messages = { hello: "bonjour" };\n',
    'src/http/client.ts': 'export async function request(url: string) { return fetch(url); }\n',
    'test/router.test.ts': 'import "../src/router";\n',
    'README.md': '# tiny\n',
    // Generic words (file, names, script, spaces, quote) are common in any real repository.
    ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`src/util/io${i}.ts`, `// read the file names a script gives, quote the ones with spaces\nexport const io${i} = ${i};\n`])),
  });
  repo.write('src/zsh_completions.ts', 'export function renderZshCompletions(commands: string[]): string {\n  return commands.map((c) => `compadd ${JSON.stringify(c)}`).join("\\n");\n}\n');
  const wanted = repo.commit('Quote file names with spaces in the zsh completions script (#42)\n\nSigned-off-by: Someone <someone@example.invalid>');
  repo.write('test/router.test.ts', 'import "../src/router";\n// more\n');
  repo.commit('Cover the router with more tests for its edge cases');
  repo.write('src/router.ts', `${ROUTER}// deps\n`);
  repo.commit('chore(deps): bump left-pad from 1.0.0 to 2.0.0');
  repo.write('src/brand-new.ts', 'export const x = 1;\n');
  repo.write('src/router.ts', `${ROUTER}// new\n`);
  repo.commit('Add a brand new helper module beside the router');
  repo.write('src/router.ts', `${ROUTER}// typo\n`);
  repo.commit('fix typo');
  repo.write('src/router.ts', `${ROUTER.replace(/\n/g, '\n\n')}// typo\n`);
  repo.commit('Tidy up the blank lines between the router functions');
  repo.write('src/a.ts', 'export const a = 1;\n');
  repo.write('src/b.ts', 'export const b = 1;\n');
  repo.commit('Seed two more modules for the router to use');
  for (const f of ['src/a.ts', 'src/b.ts', 'src/router.ts', 'src/http/client.ts', 'src/locales/fr.ts']) repo.write(f, `// five files\nexport const touched${f.length} = 1;\n`);
  repo.commit('Touch five source files at once in one sweeping commit');
  repo.git('revert', '--no-edit', wanted);
  repo.git('checkout', '-q', '-b', 'side');
  repo.write('README.md', '# tiny, documented\n');
  repo.commit('Document the tiny repository in its readme file');
  repo.git('checkout', '-q', 'main');
  repo.git('merge', '-q', '--no-ff', '-m', 'Merge the side branch with its documentation changes', 'side');
  return { repo, wanted };
}

test('sampling keeps only the qualifying commit, with its message cleaned and its source files as the answer', async () => {
  const { repo, wanted } = await makeHistory();
  try {
    const sample = sampleTasks(repo.dir, 10, 1);
    assert.deepEqual(sample.tasks.map((t) => t.sha), [wanted]);
    assert.equal(sample.tasks[0]!.task, 'Quote file names with spaces in the zsh completions script', 'no PR number, no trailer');
    assert.deepEqual(sample.tasks[0]!.answer, ['src/zsh_completions.ts']);
    assert.deepEqual(sampleTasks(repo.dir, 10, 1), sample, 'deterministic');
  } finally {
    await repo.cleanup();
  }
});

test('the eval ingests the parent, asks delegate and seek, and scores them beside BM25 on the known answer', async () => {
  const { repo } = await makeHistory();
  try {
    const runs = await runRecall({ repos: [repo.dir], commits: 10, seed: 1 }, () => {});
    assert.equal(runs.length, 1);
    const [task] = runs[0]!.tasks;
    assert.ok(task && runs[0]!.tasks.length === 1);
    assert.equal(task.error, undefined);
    assert.equal(task.files, 14, 'the parent tree: thirteen sources and the readme');
    assert.ok(task.ranks.bm25 !== null, 'BM25 ranks it too');
    assert.equal(task.ranks.delegate, 1, 'delegate finds the zsh file first, not the file with many matching names');
    assert.equal(task.ranks.seek, 1, 'so does seek');
    assert.ok(task.delegateMs > 0 && task.answerTokens > 0 && task.answerTokens <= task.budgetTokens);
    const summary = summarizeRuns(runs);
    assert.equal(summary.overall.tasks, 1);
    assert.equal(summary.by_language[0]!.group, 'typescript');
    assert.equal(summary.overall.scores.delegate.hit1, 1);
  } finally {
    await repo.cleanup();
  }
});

test('a repository with no qualifying commits, or a folder that is not one: exit 2 and a message that says why', async () => {
  const repo = await makeGitRepo({ 'test/a.test.ts': 'x\n' });
  const plain = await makeTempDir();
  try {
    repo.write('test/a.test.ts', 'y\n');
    repo.commit('Only tests change in this commit of the repository');
    const env = testGitEnv();
    const none = spawnSync(process.execPath, [MAIN, repo.dir], { encoding: 'utf8', env });
    assert.equal(none.status, 2, none.stderr);
    assert.match(none.stderr, /no qualifying commits/);
    const notRepo = spawnSync(process.execPath, [MAIN, plain.dir], { encoding: 'utf8', env });
    assert.equal(notRepo.status, 2);
    assert.match(notRepo.stderr, /not a git repository/);
    const bad = spawnSync(process.execPath, [MAIN, repo.dir, '--commits', '0'], { encoding: 'utf8', env });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--commits must be an integer/);
  } finally {
    await repo.cleanup();
    await plain.cleanup();
  }
});
