/**
 * `changes` runs its git in the pool (the detect worker), never on the main thread, under the
 * call's abort signal: a git parked on a named pipe (a hung or stopped git) is killed when the
 * caller cancels, the call answers GDN_ABORTED at once, and meanwhile the main thread answers
 * other calls. Both of its gits: resolving `since` to a commit, and the detection.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains, sourceFiles } from './helpers/brains.js';
import { isAlive, makeFakeGit } from './helpers/fake-git.js';
import { makeTestSession } from './helpers/session.js';
import { Brains } from '../src/brain/index.js';
import { dispatchTool } from '../src/dispatch/index.js';
import { runTick } from '../src/vigil/index.js';

/** Counts `git` processes spawned by this (the main) thread; worker threads have their own module. */
function countMainThreadGits(): { count(): number; restore(): void } {
  const cp = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  const real = cp.spawn;
  let n = 0;
  cp.spawn = function (this: unknown, command: string, ...rest: unknown[]) {
    if (/(^|\/)git$/.test(String(command))) n++;
    return (real as (...a: unknown[]) => unknown).call(this, command, ...rest);
  } as typeof cp.spawn;
  syncBuiltinESMExports();
  return {
    count: () => n,
    restore() {
      cp.spawn = real;
      syncBuiltinESMExports();
    },
  };
}

for (const since of [undefined, 'HEAD~0']) {
  test(`a cancelled changes call${since ? ' with since' : ''} kills its parked git, which ran in the pool; the main thread answers meanwhile`, { timeout: 60_000 }, async () => {
    const repo = await makeGitRepo(sourceFiles(3));
    const t = await makeTestBrains();
    const fake = await makeFakeGit();
    const savedEnv = { ...process.env };
    let brains: Brains | undefined;
    let session: Awaited<ReturnType<typeof makeTestSession>> | undefined;
    const mainGits = countMainThreadGits();
    try {
      const { brain } = await t.brains.ensure(repo.dir);
      await runTick(brain, { inventory: true });
      await t.brains.close();
      // From here every git (the probe's, the pool's) is the fake: new pool threads copy this env.
      Object.assign(process.env, fake.env);
      brains = new Brains({ home: t.home, maxThreads: 1 });
      session = await makeTestSession(brains, repo.dir);
      assert.ok(session.session.isListed('changes'), 'the probe (fake git: a work tree) listed changes');
      fake.setBehaviour({ park: true });
      const earlier = new Set(await fake.pids());
      const gitsBefore = mainGits.count();

      const cancel = new AbortController();
      const s = session.session;
      const call = dispatchTool(s.toolsByName, 'changes', since ? { since } : {}, { session: s, signal: cancel.signal, progress: () => {} });
      const parked = (await fake.waitForLaunches(earlier.size + 1)).find((pid) => !earlier.has(pid))!;
      assert.equal(mainGits.count() - gitsBefore, 0, 'the git of changes was spawned by a pool thread, not the main thread');

      const seek = await session.dispatch('seek', { query: 'fn1' });
      assert.equal(seek.isError, undefined, 'the main thread answers another call while that git is parked');
      cancel.abort();
      const answer = await call;
      assert.equal(answer.isError, true);
      assert.equal((answer.value as { error: { code: string } }).error.code, 'GDN_ABORTED');
      assert.equal(isAlive(parked), false, 'the parked git was killed and reaped before the call answered');
      assert.equal((await fake.pids()).length, earlier.size + 1, 'no other git was started');
    } finally {
      mainGits.restore();
      for (const k of Object.keys(process.env)) if (!(k in savedEnv)) delete process.env[k];
      Object.assign(process.env, savedEnv);
      await session?.close();
      await brains?.close();
      await fake.cleanup();
      await t.cleanup();
      await repo.cleanup();
    }
  });
}

test('a since that names no commit is refused, naming it; a commit lists what changed since it', { timeout: 60_000 }, async () => {
  const repo = await makeGitRepo(sourceFiles(3));
  const t = await makeTestBrains();
  let session: Awaited<ReturnType<typeof makeTestSession>> | undefined;
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    session = await makeTestSession(t.brains, repo.dir);
    const bad = await session.dispatch('changes', { since: 'no-such-ref' });
    assert.equal(bad.isError, true);
    assert.equal(bad.value.error.code, 'GDN_INVALID_ARGUMENT');
    assert.match(bad.value.error.message, /"no-such-ref" is not a commit/);
    const first = repo.git('rev-parse', 'HEAD').trim();
    repo.write('src/f1.ts', 'export function changedAfter(): number {\n  return 1;\n}\n');
    repo.commit('change f1');
    const since = await session.dispatch('changes', { since: first });
    assert.equal(since.isError, undefined, JSON.stringify(since.value));
    assert.deepEqual(since.value.changes.map((c: { path: string; pending: boolean }) => [c.path, c.pending]), [['src/f1.ts', true]]);
  } finally {
    await session?.close();
    await t.cleanup();
    await repo.cleanup();
  }
});
