/**
 * After `gardener hosts install codex`, Codex itself connects to Gardener: driven through
 * `codex app-server` (its JSON-RPC interface), a thread in the project lists the gardener MCP
 * server as connected and a `session_handshake` call answers from this project's brain. The
 * brain lives in a custom GARDENER_HOME, which Codex would not pass on (it hands a server only a
 * whitelist of variables), so the handshake naming it proves install passed the home. Over
 * HTTP the token comes from $GARDENER_TOKEN (`bearer_token_env_var`). Real Codex, private
 * HOME, no model, no account.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chmodSync } from 'node:fs';
import { makeTempDir } from '../helpers/git-repo.js';
import { ownerEnv, runCli, startServe } from '../helpers/owner.js';
import { startCodexAppServer, startThread } from './codex-app-server.js';
import { makeHostWorld, type HostWorld } from './host-world.js';

async function codexSees(w: HostWorld, extraEnv: NodeJS.ProcessEnv = {}, during: () => Promise<unknown> = async () => null) {
  const server = startCodexAppServer(w.repo.dir, { ...w.env, ...extraEnv });
  try {
    const threadId = await startThread(server, w.repo.dir);
    await server.notification('mcpServer/startupStatus/updated', (p) => p.name === 'gardener' && p.status !== 'starting');
    const status = await server.request('mcpServerStatus/list', { threadId, serverName: 'gardener' });
    const entry = status.result?.data?.find((s: { name: string }) => s.name === 'gardener');
    const call = await server.request('mcpServer/tool/call', { threadId, server: 'gardener', tool: 'session_handshake', arguments: {} });
    const text = call.result?.content?.[0]?.text;
    const seenDuring = await during();
    return { runtimeStatus: entry?.runtimeStatus as string | undefined, handshake: text ? JSON.parse(text) : null, status, call, during: seenDuring };
  } finally {
    server.close();
  }
}

test('codex over stdio: Codex reports gardener connected and the handshake answers from the custom home', { timeout: 240_000 }, async () => {
  const w = await makeHostWorld();
  try {
    const brain = JSON.parse(w.gardener(['status', '--json']).stdout).brain;
    const install = w.gardener(['hosts', 'install', 'codex']);
    assert.equal(install.code, 0, install.stderr);
    const config = readFileSync(join(w.home, '.codex', 'config.toml'), 'utf8');
    assert.match(config, /GARDENER_HOME = /);
    const seen = await codexSees(w);
    assert.equal(seen.runtimeStatus, 'connected', JSON.stringify(seen.status).slice(0, 2000));
    assert.equal(seen.handshake?.brain, brain, JSON.stringify(seen.call).slice(0, 2000));
    assert.equal(seen.handshake?.session_folder, w.repo.dir);

    assert.equal(JSON.parse(w.gardener(['hosts', 'install', 'codex', '--json']).stdout).changed, false, 'a second install changes nothing');
    assert.equal(w.gardener(['hosts', 'uninstall', 'codex']).code, 0);
    assert.doesNotMatch(readFileSync(join(w.home, '.codex', 'config.toml'), 'utf8'), /gardener/);
  } finally {
    await w.cleanup();
  }
});

test('codex over HTTP: connected through the owner with the token from $GARDENER_TOKEN, never written', { timeout: 240_000 }, async () => {
  const w = await makeHostWorld();
  const owner = await startServe(w.gardenerHome);
  try {
    const token = w.gardener(['token']).stdout.trim();
    const install = w.gardener(['hosts', 'install', 'codex', '--http']);
    assert.equal(install.code, 0, install.stderr);
    assert.ok(!readFileSync(join(w.home, '.codex', 'config.toml'), 'utf8').includes(token));
    const seen = await codexSees(w, { GARDENER_TOKEN: token });
    assert.equal(seen.runtimeStatus, 'connected', JSON.stringify(seen.status).slice(0, 2000));
    assert.equal(seen.handshake?.session_folder, w.repo.dir);
    const without = await codexSees(w);
    assert.notEqual(without.runtimeStatus, 'connected');
  } finally {
    await owner.stop();
    await w.cleanup();
  }
});

test('codex over stdio goes through the running owner (the home and the runtime dir are passed)', { timeout: 240_000 }, async () => {
  const w = await makeHostWorld();
  const runtime = await makeTempDir('gardener-xdg-');
  chmodSync(runtime.dir, 0o700);
  const xdg = { XDG_RUNTIME_DIR: runtime.dir };
  const owner = await startServe(w.gardenerHome, [], xdg);
  try {
    const install = w.gardener(['hosts', 'install', 'codex'], xdg);
    assert.equal(install.code, 0, install.stderr);
    const socketSessions = async () => {
      const r = await runCli(['serve', '--status', '--json'], ownerEnv(w.gardenerHome, xdg));
      return JSON.parse(r.stdout).sessions.socket as number;
    };
    const seen = await codexSees(w, xdg, socketSessions);
    assert.equal(seen.runtimeStatus, 'connected', JSON.stringify(seen.status).slice(0, 2000));
    assert.equal(seen.during, 1, 'the Codex session lives in the owner, not in-process');
  } finally {
    await owner.stop();
    await w.cleanup();
    await runtime.cleanup();
  }
});
