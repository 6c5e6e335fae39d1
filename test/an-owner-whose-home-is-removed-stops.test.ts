/**
 * An owner whose home is removed from under it (someone deletes the Gardener home to start
 * afresh) stops, exiting 75 for a service manager to start it again on the new home: its lock is
 * on a removed file and keeps no second owner out, and what it writes goes to removed stores.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { makeTempDir } from './helpers/git-repo.js';
import { logLine, ownerEnv, runCli, startServe } from './helpers/owner.js';

test('an owner whose home was removed stops with exit 75, and a new owner takes the new home', { timeout: 60_000 }, async () => {
  const home = await makeTempDir('gardener-home-');
  const extra = { GARDENER_OWNER_FILES_CHECK_MS: '50' };
  const serve = await startServe(home.dir, ['--no-http'], extra);
  let next: Awaited<ReturnType<typeof startServe>> | undefined;
  try {
    rmSync(home.dir, { recursive: true });
    const said = await logLine(serve, (e) => typeof e.msg === 'string' && e.msg.includes('lock file was removed'));
    assert.equal(said.level, 'error');
    assert.deepEqual(await serve.exited, { code: 75, signal: null });
    next = await startServe(home.dir, ['--no-http'], extra);
    const status = await runCli(['serve', '--status', '--json'], ownerEnv(home.dir, extra));
    assert.equal(status.code, 0, status.stderr);
    assert.equal((JSON.parse(status.stdout) as { pid: number }).pid, next.proc.pid);
  } finally {
    await next?.stop();
    await serve.stop();
    await home.cleanup();
  }
});

test('an owner whose home stays keeps running through its looks at it', { timeout: 60_000 }, async () => {
  const home = await makeTempDir('gardener-home-');
  const extra = { GARDENER_OWNER_FILES_CHECK_MS: '20' };
  const serve = await startServe(home.dir, ['--no-http'], extra);
  try {
    // Many looks later (each logs nothing while all is well), the owner still answers.
    for (let i = 0; i < 5; i++) {
      const status = await runCli(['serve', '--status', '--json'], ownerEnv(home.dir, extra));
      assert.equal(status.code, 0, status.stderr);
    }
    assert.equal(serve.proc.exitCode, null);
    assert.ok(!serve.logs().some((e) => e.level === 'warn' || e.level === 'error'), JSON.stringify(serve.logs().filter((e) => e.level !== 'info' && e.level !== 'debug')));
  } finally {
    await serve.stop();
    await home.cleanup();
  }
});
