/**
 * Clients verify the owner by the token they read in `<home>/token`. A token file removed from
 * under a running owner is written again with the token the owner holds, so clients verify it as
 * before; a file holding another token is not the owner's to change: it says so once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from './helpers/git-repo.js';
import { logLine, ownerEnv, runCli, startServe } from './helpers/owner.js';

const extra = { GARDENER_OWNER_FILES_CHECK_MS: '50' };

test('a token file removed from under the owner is written again, and clients verify the owner', { timeout: 60_000 }, async () => {
  const home = await makeTempDir('gardener-home-');
  const serve = await startServe(home.dir, ['--no-http'], extra);
  try {
    const file = join(home.dir, 'token');
    const token = readFileSync(file, 'utf8');
    unlinkSync(file);
    await logLine(serve, (e) => typeof e.msg === 'string' && e.msg.includes('token file was removed'));
    assert.equal(readFileSync(file, 'utf8'), token, 'the token the owner holds');
    assert.equal((statSync(file).mode & 0o777).toString(8), '600');
    const status = await runCli(['serve', '--status', '--json'], ownerEnv(home.dir, extra));
    assert.equal(status.code, 0, status.stderr);
    assert.equal((JSON.parse(status.stdout) as { pid: number }).pid, serve.proc.pid);
  } finally {
    await serve.stop();
    await home.cleanup();
  }
});

test('a token file holding another token is left as it is, and said once', { timeout: 60_000 }, async () => {
  const home = await makeTempDir('gardener-home-');
  const serve = await startServe(home.dir, ['--no-http'], extra);
  try {
    const file = join(home.dir, 'token');
    const other = `${'c'.repeat(64)}\n`;
    writeFileSync(file, other, { mode: 0o600 });
    const said = (e: Record<string, unknown>) => typeof e.msg === 'string' && e.msg.includes('no longer holds the token');
    await logLine(serve, said);
    // Three more looks (each logs at debug), the file as it was: still said once.
    for (let i = 0; i < 3; i++) {
      const from = serve.logs().length;
      await logLine(serve, (e) => e.msg === 'owner files looked at', from);
    }
    assert.equal(readFileSync(file, 'utf8'), other, 'not the owner\'s to change');
    assert.equal(serve.logs().filter(said).length, 1, 'said once');
  } finally {
    await serve.stop();
    await home.cleanup();
  }
});
