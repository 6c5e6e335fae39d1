/**
 * The proxy's liveness check leans on this: the owner answers an MCP `ping` on a session while
 * a tool call on that same session is still running (the SDK's server handles requests side
 * by side, and a tool's git runs in a worker, not on the main thread). So a long `scan` or
 * `ingest` never looks like a stalled owner. The tool here is held on a parked fake git.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { sourceFiles } from './helpers/brains.js';
import { makeFakeGit } from './helpers/fake-git.js';
import { startServe } from './helpers/owner.js';
import { openOwnerSocket } from './helpers/owner-socket.js';

test('a ping is answered while a tool call on the same session waits on git', { timeout: 120_000 }, async () => {
  const repo = await makeGitRepo(sourceFiles(3));
  const home = await makeTempDir('gardener-home-');
  const fake = await makeFakeGit({ park: true });
  const gitEnv = Object.fromEntries(Object.entries(fake.env).filter(([k, v]) => process.env[k] !== v));
  const owner = await startServe(home.dir, ['--no-http'], gitEnv);
  try {
    const c = await openOwnerSocket(owner.ready.socket, repo.dir);
    assert.equal((await c.next()).ok, true);
    c.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } }) + '\n');
    assert.equal((await c.next()).id, 1);
    c.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    c.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ingest', arguments: {} } }) + '\n');
    await fake.waitForLaunches(1);
    c.send(JSON.stringify({ jsonrpc: '2.0', id: 'proxy-ping', method: 'ping' }) + '\n');
    let m = await c.next();
    while (m.method !== undefined) m = await c.next(); // notifications (list_changed…) may come first
    assert.deepEqual(m, { jsonrpc: '2.0', id: 'proxy-ping', result: {} }, 'the ping is answered before the tool call');
    c.socket.destroy();
  } finally {
    await fake.cleanup(); // releases every parked git without blocking
    await owner.stop();
    await repo.cleanup();
    await home.cleanup();
  }
});
