/**
 * git's untracked cache for the detector (issue 20 item 6), without touching what is the
 * user's: with `statusIndexFile` set, `git status` runs on the detector's own copy of the
 * repository's index (GIT_INDEX_FILE, per invocation `-c` options), where git may keep the
 * cache; the repository's own index and config are never written. The copy follows the
 * repository's index whenever that changes, so what is detected is what a plain status sees.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { detectGit, type DetectRequest, type DetectResult } from '../src/detect/index.js';
import { makeGitRepo, makeTempDir, type GitRepo } from './helpers/git-repo.js';
import { makeTestBrains, sourceFiles } from './helpers/brains.js';
import { runTick, statusIndexFileOf } from '../src/vigil/index.js';

function request(root: string, over: Partial<DetectRequest> = {}): DetectRequest {
  return { root, backend: 'git', sinceRef: null, recheck: [], skip: [], ...over };
}

const shape = (r: DetectResult) => ({ head: r.head, entries: r.entries.map((e) => [e.path, e.deleted]).sort(), dirty: r.dirty });

/** The bytes and times of what must stay the user's. */
function userState(repo: GitRepo) {
  const index = join(repo.dir, '.git', 'index');
  const config = join(repo.dir, '.git', 'config');
  const st = statSync(index);
  return { index: readFileSync(index).toString('base64'), indexMtime: st.mtimeMs, indexIno: st.ino, config: readFileSync(config, 'utf8') };
}

describe('the detector keeps its own index', () => {
  it('git status runs on a copy in the brain that carries the untracked cache; the repository index and config are never written', async () => {
    const repo = await makeGitRepo({ 'a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 2;\n' });
    const brainDir = await makeTempDir('gardener-brain-');
    try {
      const statusIndexFile = join(brainDir.dir, 'git', 'root-1.index');
      repo.write('src/new.ts', 'export const n = 3;\n'); // untracked
      writeFileSync(join(repo.dir, 'a.ts'), 'export const a = 10;\n'); // modified
      const before = userState(repo);

      const plain = await detectGit(request(repo.dir, { sinceRef: repo.git('rev-parse', 'HEAD') }));
      const first = await detectGit(request(repo.dir, { sinceRef: repo.git('rev-parse', 'HEAD'), statusIndexFile }));
      const second = await detectGit(request(repo.dir, { sinceRef: repo.git('rev-parse', 'HEAD'), statusIndexFile }));
      assert.deepEqual(shape(first), shape(plain), 'the same changed set as a plain status');
      assert.deepEqual(shape(second), shape(plain));
      assert.deepEqual(userState(repo), before, "the repository's index and config are untouched");
      const copy = readFileSync(statusIndexFile);
      assert.ok(copy.includes(Buffer.from('UNTR')), 'the copy carries the untracked cache extension');
      assert.equal(statSync(dirname(statusIndexFile)).mode & 0o077, 0, 'the copy lives in a private folder');

      // The user stages the new file: their index changes, the copy follows it.
      repo.git('add', 'src/new.ts');
      const staged = userState(repo);
      const plainAfter = await detectGit(request(repo.dir, { sinceRef: repo.git('rev-parse', 'HEAD') }));
      const afterAdd = await detectGit(request(repo.dir, { sinceRef: repo.git('rev-parse', 'HEAD'), statusIndexFile }));
      assert.deepEqual(shape(afterAdd), shape(plainAfter));
      assert.deepEqual(userState(repo), staged);

      // A commit moves HEAD and rewrites the index: nothing dirty is left, in both.
      repo.commit('more');
      const committed = userState(repo);
      const plainCommitted = await detectGit(request(repo.dir, { sinceRef: repo.git('rev-parse', 'HEAD') }));
      const afterCommit = await detectGit(request(repo.dir, { sinceRef: repo.git('rev-parse', 'HEAD'), statusIndexFile }));
      assert.deepEqual(shape(afterCommit), shape(plainCommitted));
      assert.deepEqual(afterCommit.dirty, []);
      assert.deepEqual(userState(repo), committed);
    } finally {
      await brainDir.cleanup();
      await repo.cleanup();
    }
  });

  it("git uses the copy's untracked cache: a second status of an unchanged tree opens no folder (trace2 says so)", async () => {
    const repo = await makeGitRepo({ 'a.ts': 'export const a = 1;\n', 'src/b.ts': 'export {}\n', 'src/deep/c.ts': 'export {}\n' });
    const brainDir = await makeTempDir('gardener-brain-');
    const trace = join(brainDir.dir, 'trace2.txt');
    const saved = process.env.GIT_TRACE2_PERF;
    try {
      repo.write('src/deep/new.ts', 'export {}\n');
      // Folders changed in the second the cache is written are racy for git and read again: age them.
      for (const dir of ['.', 'src', 'src/deep']) utimesSync(join(repo.dir, dir), 1_700_000_000, 1_700_000_000);
      const req = request(repo.dir, { sinceRef: repo.git('rev-parse', 'HEAD'), statusIndexFile: join(brainDir.dir, 'git', 'root-1.index') });
      await detectGit(req); // builds the cache in the copy
      process.env.GIT_TRACE2_PERF = trace;
      const r = await detectGit(req);
      assert.deepEqual(r.entries.map((e) => e.path), ['src/deep/new.ts']);
      const opendirs = readFileSync(trace, 'utf8').split('\n').flatMap((l) => /opendir:(\d+)/.exec(l)?.[1] ?? []);
      assert.deepEqual(opendirs, ['0'], 'one status, its untracked cache valid: no folder read again');
    } finally {
      if (saved === undefined) delete process.env.GIT_TRACE2_PERF;
      else process.env.GIT_TRACE2_PERF = saved;
      await brainDir.cleanup();
      await repo.cleanup();
    }
  });

  it('a repository with no index yet (nothing added) is detected by a plain status', async () => {
    const repo = await makeGitRepo();
    const brainDir = await makeTempDir('gardener-brain-');
    try {
      repo.write('x.ts', 'export {}\n');
      const r = await detectGit(request(repo.dir, { statusIndexFile: join(brainDir.dir, 'git', 'root-1.index') }));
      assert.deepEqual(r.entries.map((e) => e.path), ['x.ts']);
    } finally {
      await brainDir.cleanup();
      await repo.cleanup();
    }
  });

  it("a tick's detection keeps the copy in the brain's folder, and the repository's index stays as the user left it", async () => {
    const repo = await makeGitRepo(sourceFiles(3));
    const t = await makeTestBrains();
    try {
      const { brain } = await t.brains.ensure(repo.dir);
      await runTick(brain, { inventory: true });
      repo.write('src/added.ts', 'export const added = 1;\n');
      const before = userState(repo);
      const report = await runTick(brain);
      assert.equal(report.drained, 1);
      assert.deepEqual(userState(repo), before);
      const copies = readdirSync(dirname(statusIndexFileOf(brain, 0)));
      assert.equal(copies.length, 1, `one copy for the one root: ${copies.join(', ')}`);
      const copy = join(dirname(statusIndexFileOf(brain, 0)), copies[0]!);
      assert.ok(readFileSync(copy).includes(Buffer.from('UNTR')), `${copy} carries the untracked cache`);
    } finally {
      await t.cleanup();
      await repo.cleanup();
    }
  });
});
