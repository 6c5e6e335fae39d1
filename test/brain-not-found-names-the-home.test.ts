/**
 * "No brain covers …" names the Gardener home it searched and how to point at another
 * (issue 17: a host that dropped GARDENER_HOME sent the server to the default home, which
 * answered "run gardener init" for a folder that had a brain elsewhere).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { makeTempDir } from './helpers/git-repo.js';
import { connectGardener, CLI } from './helpers/mcp-client.js';

test('the CLI refusal names the home it searched and GARDENER_HOME', async () => {
  const home = await makeTempDir('gardener-home-');
  const plain = await makeTempDir();
  try {
    const r = spawnSync(process.execPath, [CLI, 'status', plain.dir], { env: { ...process.env, GARDENER_HOME: home.dir }, encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.ok(r.stderr.includes(`no brain covers ${plain.dir} in the Gardener home ${home.dir}`), r.stderr);
    assert.match(r.stderr, /GARDENER_HOME/);
    assert.match(r.stderr, /GDN_BRAIN_NOT_FOUND/);
  } finally {
    await home.cleanup();
    await plain.cleanup();
  }
});

test('the handshake hint names the home it searched and GARDENER_HOME', async () => {
  const home = await makeTempDir('gardener-home-');
  const plain = await makeTempDir();
  const env = { ...process.env, GARDENER_HOME: home.dir, GARDENER_NO_OWNER: '1' };
  const g = await connectGardener(plain.dir, env);
  try {
    const { value } = await g.call('session_handshake');
    assert.equal(value.brain, null);
    assert.ok(value.hint.includes(home.dir), value.hint);
    assert.match(value.hint, /GARDENER_HOME/);
  } finally {
    await g.close();
    await home.cleanup();
    await plain.cleanup();
  }
});
