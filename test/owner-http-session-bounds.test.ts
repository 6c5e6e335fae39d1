import { test } from 'node:test';
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { makeTempDir, type TempDir } from './helpers/git-repo.js';
import { OwnerBrains } from '../src/owner/owner-brains.js';
import { createLogger } from '../src/log.js';
import { HttpListener, type HttpListenerOptions } from '../src/transports/http/http-listener.js';
import { HTTP_SESSION_IDLE_MS, UNUSED_SESSION_IDLE_MS } from '../src/transports/http/session-bounds.js';

const TOKEN = 'e'.repeat(64);

interface Fixture {
  url: string;
  http: HttpListener;
  brains: OwnerBrains;
  clock: { now: number };
  folder(): Promise<string>;
  rest(folder: string, name?: string): Promise<{ status: number; headers: Headers; value: { error?: { code: string; message: string } } }>;
  /** A bare `initialize` and nothing after, as a host's health check does; the session id. */
  initialize(folder: string): Promise<{ status: number; id: string | null; text: string }>;
  /** An SDK client that connects and lists tools (a call after initialize). */
  client(folder: string): Promise<Client>;
}

async function withListener(options: Partial<HttpListenerOptions>, fn: (f: Fixture) => Promise<void>): Promise<void> {
  const home = await makeTempDir('gardener-home-');
  const folders: TempDir[] = [];
  const clients: Client[] = [];
  const log = createLogger('silent');
  const brains = new OwnerBrains({ home: home.dir, maxThreads: 1, log });
  const clock = { now: 1_000_000 };
  const http = new HttpListener({
    host: '127.0.0.1',
    port: 0,
    token: TOKEN,
    log,
    startedAt: clock.now,
    now: () => clock.now,
    brains: () => brains.describe(),
    sessionHost: brains,
    ...options,
  });
  const url = await http.listen();
  const auth = { authorization: `Bearer ${TOKEN}` };
  try {
    await fn({
      url,
      http,
      brains,
      clock,
      folder: async () => {
        const d = await makeTempDir();
        folders.push(d);
        return d.dir;
      },
      rest: async (folder, name = 'session_handshake') => {
        const r = await fetch(`${url}/api/tools/${name}`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', 'x-gardener-folder': folder }, body: '{}' });
        return { status: r.status, headers: r.headers, value: (await r.json()) as { error?: { code: string; message: string } } };
      },
      initialize: async (folder) => {
        const r = await fetch(`${url}/mcp?folder=${encodeURIComponent(folder)}`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'health-check', version: '0' } } }),
        });
        return { status: r.status, id: r.headers.get('mcp-session-id'), text: await r.text() };
      },
      client: async (folder) => {
        const client = new Client({ name: 'bounds-test', version: '0' });
        clients.push(client);
        await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp?folder=${encodeURIComponent(folder)}`), { requestInit: { headers: auth } }));
        assert.ok((await client.listTools()).tools.length > 0);
        return client;
      },
    });
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    await http.stopAccepting();
    await http.endSessions();
    await brains.close();
    await home.cleanup();
    await Promise.allSettled(folders.map((d) => d.cleanup()));
  }
}

async function mcpListTools(url: string, id: string): Promise<number> {
  const r = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });
  await r.text();
  return r.status;
}

test('REST sessions are keyed by the folder\'s real path: spellings and a symlink of one folder share one session', async () => {
  await withListener({}, async (f) => {
    const dir = await f.folder();
    const links = await f.folder();
    symlinkSync(dir, join(links, 'link'));
    const spellings = [dir, `${dir}/`, `${dir}//`, `${dir}/./.`, `${dir}/././.`, `${dir}/./`, join(links, 'link'), `${join(links, 'link')}/./`];
    for (const s of spellings) {
      const r = await f.rest(s);
      assert.equal(r.status, 200, JSON.stringify(r.value));
    }
    assert.equal(f.brains.sessionCount, 1, `${spellings.length} spellings of one folder are one session`);
  });
});

test('an MCP session that made no call after initialize is reaped after UNUSED_SESSION_IDLE_MS; a used one (MCP or REST) lives to HTTP_SESSION_IDLE_MS', async () => {
  await withListener({}, async (f) => {
    const folder = await f.folder();
    const health = await f.initialize(folder);
    assert.equal(health.status, 200, health.text);
    assert.ok(health.id);
    const client = await f.client(folder);
    assert.equal((await f.rest(folder)).status, 200);
    assert.equal(f.brains.sessionCount, 3);
    f.clock.now += UNUSED_SESSION_IDLE_MS - 1;
    await f.http.sessions.reap();
    assert.equal(f.http.sessions.size('mcp'), 2, 'not a minute yet');
    f.clock.now += 2;
    await f.http.sessions.reap();
    assert.equal(f.http.sessions.size('mcp'), 1, 'the health check is gone');
    assert.equal(f.brains.sessionCount, 2, 'the MCP client and the REST session stay');
    assert.equal(await mcpListTools(f.url, health.id), 404);
    assert.ok((await client.listTools()).tools.length > 0);
    f.clock.now += HTTP_SESSION_IDLE_MS + 1;
    await f.http.sessions.reap();
    assert.equal(f.brains.sessionCount, 0, 'idle past the bound: both reaped');
  });
});

test('HTTP sessions are bounded, MCP and REST together: when full, idle ones are reaped first, then a new one is refused (REST 503 GDN_TOO_MANY_SESSIONS, /mcp a JSON-RPC error)', async () => {
  await withListener({ maxSessions: 3 }, async (f) => {
    const [a, b, c, d] = [await f.folder(), await f.folder(), await f.folder(), await f.folder()];
    assert.equal((await f.rest(a)).status, 200);
    assert.equal((await f.rest(b)).status, 200);
    const health = await f.initialize(c);
    assert.equal(health.status, 200, health.text);
    const full = await f.rest(d);
    assert.equal(full.status, 503, JSON.stringify(full.value));
    assert.equal(full.value.error?.code, 'GDN_TOO_MANY_SESSIONS');
    assert.match(full.value.error?.message ?? '', /3 HTTP sessions/);
    assert.ok(Number(full.headers.get('retry-after')) > 0);
    const refused = await f.initialize(d);
    assert.equal(refused.status, 503, refused.text);
    const rpc = JSON.parse(refused.text) as { error: { code: number; message: string; data?: { code: string } } };
    assert.equal(rpc.error.data?.code, 'GDN_TOO_MANY_SESSIONS');
    assert.equal(refused.id, null);
    assert.equal(f.brains.sessionCount, 3, 'a refusal leaves no session behind');
    assert.equal((await f.rest(`${a}/.`)).status, 200, 'a folder that has a session is still served');
    // The health check made no call: a minute later the next new session takes its place,
    // without waiting for the reaper's interval.
    f.clock.now += UNUSED_SESSION_IDLE_MS + 1;
    assert.equal((await f.rest(d)).status, 200);
    assert.equal(f.brains.sessionCount, 3);
    assert.equal(await mcpListTools(f.url, health.id!), 404);
  });
});

test('an MCP session ended by its client (DELETE) frees its place at once', async () => {
  await withListener({ maxSessions: 1 }, async (f) => {
    const folder = await f.folder();
    const client = await f.client(folder);
    assert.equal((await f.initialize(folder)).status, 503);
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    assert.equal((await f.initialize(folder)).status, 200);
  });
});

test('maxSessions is checked once, at construction, with the value received', () => {
  const log = createLogger('silent');
  const base = { host: '127.0.0.1', port: 0, token: TOKEN, log, startedAt: 0, brains: () => [], sessionHost: { openSession: () => assert.fail('no session') } };
  assert.throws(() => new HttpListener({ ...base, maxSessions: 0 }), /options\.maxSessions must be a positive integer, got 0/);
  assert.throws(() => new HttpListener({ ...base, maxSessions: 1.5 }), /got 1\.5/);
});
