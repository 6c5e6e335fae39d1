import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { makeTempDir } from './helpers/git-repo.js';
import { OwnerBrains } from '../src/owner/owner-brains.js';
import { createLogger } from '../src/log.js';
import { HttpListener } from '../src/transports/http/http-listener.js';
import { HTTP_SESSION_IDLE_MS } from '../src/transports/http/mcp-http-sessions.js';

test('an HTTP MCP session idle past HTTP_SESSION_IDLE_MS is reaped; its id then gets 404', async () => {
  const home = await makeTempDir('gardener-home-');
  const folder = await makeTempDir();
  const log = createLogger('silent');
  const brains = new OwnerBrains({ home: home.dir, maxThreads: 1, log });
  let now = 1_000_000;
  const token = 'f'.repeat(64);
  const http = new HttpListener({
    host: '127.0.0.1',
    port: 0,
    token,
    log,
    startedAt: now,
    now: () => now,
    brains: () => brains.describe(),
    sessionHost: brains,
  });
  const url = await http.listen();
  const client = new Client({ name: 'idle-test', version: '0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp?folder=${encodeURIComponent(folder.dir)}`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  try {
    await client.connect(transport);
    assert.ok((await client.listTools()).tools.length > 0);
    now += HTTP_SESSION_IDLE_MS - 1;
    await http.sessions.reap();
    assert.equal(http.sessions.size('mcp'), 1, 'not idle long enough yet');
    assert.ok((await client.listTools()).tools.length > 0, 'and it was used again');
    now += HTTP_SESSION_IDLE_MS + 1;
    await http.sessions.reap();
    assert.equal(http.sessions.size('mcp'), 0);
    assert.equal(brains.sessionCount, 0, 'the session behind it was closed');
    await assert.rejects(client.listTools(), /404|Session not found/);
  } finally {
    await client.close().catch(() => {});
    await http.stopAccepting();
    await http.endSessions();
    await brains.close();
    await home.cleanup();
    await folder.cleanup();
  }
});
