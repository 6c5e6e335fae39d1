/**
 * `gardener daemon status --json` prints the view `daemon_status` answers (one view: the same
 * fields, the same freshness words), with what watches the brain asked of the live owner.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains, sourceFiles } from './helpers/brains.js';
import { makeTestSession } from './helpers/session.js';
import { ownerEnv, runCli } from './helpers/owner.js';

test('the daemon CLI and the daemon_status tool give one view of an armed brain', async () => {
  const repo = await makeGitRepo(sourceFiles(2));
  const t = await makeTestBrains();
  try {
    const env = ownerEnv(t.home);
    for (const args of [['init', repo.dir], ['daemon', 'start', repo.dir]]) {
      const r = await runCli(args, env);
      assert.equal(r.code, 0, r.stderr);
    }
    const cli = await runCli(['daemon', 'status', repo.dir, '--json'], env);
    assert.equal(cli.code, 0, cli.stderr);
    const printed = JSON.parse(cli.stdout);
    const s = await makeTestSession(t.brains, repo.dir);
    try {
      const answered = (await s.dispatch('daemon_status')).value;
      assert.deepEqual(Object.keys(printed).sort(), Object.keys(answered).sort());
      for (const key of ['brain', 'armed', 'armed_at', 'watch_backend', 'freshness', 'tick_in_flight']) {
        assert.deepEqual(printed[key], answered[key], key);
      }
    } finally {
      await s.close();
    }
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});
