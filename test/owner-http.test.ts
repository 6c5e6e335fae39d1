import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { sourceFiles } from './helpers/brains.js';
import { ownerEnv, runCli, startServe, type ServeProcess } from './helpers/owner.js';
import { armedRepo, trafficTicksTheArmedBrain, type Call } from './helpers/traffic-law.js';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request with any headers (fetch will not send a Host header of our choosing). */
function raw(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

async function withOwner(fn: (o: { owner: ServeProcess; url: string; token: string; home: string }) => Promise<void>, args: string[] = []): Promise<void> {
  const home = await makeTempDir('gardener-home-');
  const owner = await startServe(home.dir, args);
  try {
    const token = readFileSync(join(home.dir, 'token'), 'utf8').trim();
    await fn({ owner, url: owner.ready.url!, token, home: home.dir });
  } finally {
    await owner.stop();
    await home.cleanup();
  }
}

function restCall(url: string, token: string, folder: string): Call {
  return async (name, args = {}) => {
    const r = await fetch(`${url}/api/tools/${name}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-gardener-folder': folder },
      body: JSON.stringify(args),
    });
    return { isError: r.status !== 200, value: await r.json() };
  };
}

async function mcpClient(url: string, token: string, folder: string): Promise<{ client: Client; call: Call }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp?folder=${encodeURIComponent(folder)}`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'gardener-test', version: '0.0.0' });
  await client.connect(transport);
  const call: Call = async (name, args = {}) => {
    const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
    return { isError: r.isError === true, value: JSON.parse(r.content[0]!.text) };
  };
  return { client, call };
}

test('/healthz answers without a token; everything else needs the right one (401)', async () => {
  await withOwner(async ({ url, token }) => {
    const health = await fetch(`${url}/healthz`);
    assert.equal(health.status, 200);
    const h = (await health.json()) as { version: string; uptime_s: number };
    assert.equal(typeof h.version, 'string');
    assert.equal(typeof h.uptime_s, 'number');
    assert.equal((await fetch(`${url}/api/brains`)).status, 401);
    const wrong = await fetch(`${url}/api/brains`, { headers: { authorization: `Bearer ${'0'.repeat(64)}` } });
    assert.equal(wrong.status, 401);
    assert.match(wrong.headers.get('www-authenticate') ?? '', /^Bearer realm="gardener", error="invalid_token", error_description="[^"]*gardener token[^"]*"$/);
    const none = await fetch(`${url}/api/brains`);
    assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="gardener"');
    assert.equal((await fetch(`${url}/mcp`, { method: 'POST', body: '{}' })).status, 401);
    assert.equal((await fetch(`${url}/api/tools/seek`, { method: 'POST', body: '{}' })).status, 401);
    const ok = await fetch(`${url}/api/brains`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { brains: [] });
  });
});

test('OAuth discovery gets a 404 that says bearer tokens only, with no token needed, so hosts stop looking for OAuth', async () => {
  await withOwner(async ({ url }) => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp?folder=/x', '/.well-known/oauth-authorization-server', '/.well-known/openid-configuration', '/mcp/.well-known/oauth-authorization-server']) {
      const r = await fetch(`${url}${path}`);
      assert.equal(r.status, 404, path);
      const body = (await r.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'GDN_NO_OAUTH', path);
      assert.match(body.error.message, /gardener token/);
    }
    const register = await fetch(`${url}/register`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    assert.equal(register.status, 401, 'dynamic registration stays behind the token: the host ends on a 401, not a 404');
  });
});

test('gardener token prints the token the owner checks', async () => {
  await withOwner(async ({ url, home }) => {
    const printed = await runCli(['token'], ownerEnv(home));
    assert.equal(printed.code, 0, printed.stderr);
    const r = await fetch(`${url}/api/brains`, { headers: { authorization: `Bearer ${printed.stdout.trim()}` } });
    assert.equal(r.status, 200);
  });
});

test('a Host that is not loopback (DNS rebinding) or a foreign Origin gets 403', async () => {
  await withOwner(async ({ url, token }) => {
    const auth = { authorization: `Bearer ${token}` };
    assert.equal((await raw(`${url}/api/brains`, { headers: { ...auth, host: 'evil.example:80' } })).status, 403);
    assert.equal((await raw(`${url}/healthz`, { headers: { host: 'evil.example' } })).status, 403);
    assert.equal((await raw(`${url}/api/brains`, { headers: { ...auth, origin: 'https://evil.example' } })).status, 403);
    assert.equal((await raw(`${url}/api/brains`, { headers: { ...auth, origin: 'null' } })).status, 403);
    assert.equal((await raw(`${url}/api/brains`, { headers: { ...auth, origin: 'http://localhost:3000' } })).status, 200);
    assert.equal((await raw(`${url}/api/brains`, { headers: { ...auth, host: `localhost:${new URL(url).port}` } })).status, 200);
  });
});

test('a body over 4 MiB gets 413, and the owner carries on', async () => {
  await withOwner(async ({ url, token }) => {
    const big = Buffer.alloc(4 * 1024 * 1024 + 1, 0x20);
    const r = await raw(`${url}/api/tools/seek`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: big });
    assert.equal(r.status, 413);
    assert.equal((await fetch(`${url}/healthz`)).status, 200);
  });
});

test('a non-loopback bind is refused unless asked for', async () => {
  const home = await makeTempDir('gardener-home-');
  try {
    const r = await runCli(['serve', '--port', '0', '--host', '0.0.0.0'], ownerEnv(home.dir));
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--allow-remote/);
  } finally {
    await home.cleanup();
  }
});

test('/mcp: the SDK client over Streamable HTTP gets a session; an unknown session is 404; garbage is 400', async () => {
  const repo = await makeGitRepo(sourceFiles(2));
  try {
    await withOwner(async ({ url, token }) => {
      const { client, call } = await mcpClient(url, token, repo.dir);
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('seek'));
      const h = await call('session_handshake');
      assert.equal(h.value.session_folder, repo.dir);
      await client.close();
      const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const unknown = await fetch(`${url}/mcp`, { method: 'POST', headers: { ...auth, 'mcp-session-id': 'no-such-session' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
      assert.equal(unknown.status, 404);
      const garbage = await fetch(`${url}/mcp`, { method: 'POST', headers: auth, body: '{not json' });
      assert.equal(garbage.status, 400);
      const noFolder = await fetch(`${url}/mcp`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } } }),
      });
      assert.equal(noFolder.status, 400);
      assert.match(await noFolder.text(), /X-Gardener-Folder/);
      const noAccept = await fetch(`${url}/mcp?folder=${encodeURIComponent(repo.dir)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } } }),
      });
      assert.equal(noAccept.status, 406);
      assert.equal((await fetch(`${url}/healthz`)).status, 200);
    });
  } finally {
    await repo.cleanup();
  }
});

test('REST: tool results as JSON; an unknown tool is 404; a folder outside every brain says how to make one', async () => {
  const repo = await makeGitRepo(sourceFiles(2));
  try {
    await withOwner(async ({ url, token }) => {
      const call = restCall(url, token, repo.dir);
      const h = await call('session_handshake');
      assert.equal(h.isError, false);
      assert.equal(h.value.session_folder, repo.dir);
      const noBrain = await call('seek', { query: 'fn0' });
      assert.equal(noBrain.isError, true);
      assert.match(noBrain.value.error.message, /ingest|gardener init/);
      const unknown = await fetch(`${url}/api/tools/nope`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'x-gardener-folder': repo.dir }, body: '{}' });
      assert.equal(unknown.status, 404);
      const badFolder = await fetch(`${url}/api/tools/seek?folder=/definitely/not/here`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{"query":"x"}' });
      assert.equal(badFolder.status, 400);
      assert.match(JSON.stringify(await badFolder.json()), /\/definitely\/not\/here/);
      const relative = await fetch(`${url}/api/tools/seek?folder=src`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{"query":"x"}' });
      assert.equal(relative.status, 400);
      assert.match(JSON.stringify(await relative.json()), /absolute path/);
      assert.equal((await call('ingest')).isError, false);
      const brains = (await (await fetch(`${url}/api/brains`, { headers: { authorization: `Bearer ${token}` } })).json()) as { brains: { id: string; armed: boolean; backlog: number }[] };
      assert.equal(brains.brains.length, 1);
      assert.equal(brains.brains[0]!.armed, false);
      assert.equal(brains.brains[0]!.backlog, 0);
    });
  } finally {
    await repo.cleanup();
  }
});

test('REST: a refusal the caller can act on is a 4xx with its code, not a 500', { timeout: 60_000 }, async () => {
  const repo = await makeGitRepo(sourceFiles(2));
  try {
    await withOwner(async ({ url, token }) => {
      const post = (name: string, args: unknown) =>
        fetch(`${url}/api/tools/${name}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'x-gardener-folder': repo.dir }, body: JSON.stringify(args) });
      assert.equal((await post('ingest', {})).status, 200);
      const secret = await post('remember', { text: `the token ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`, scope: 'team' });
      assert.equal(secret.status, 400, 'a note holding a secret is bad input');
      assert.equal(((await secret.json()) as { error: { code: string } }).error.code, 'GDN_NOTE_SECRET');
      const noCandidate = await post('skeleton_edit', { store_version: 0, edits: [{ op: 'rename', room: 'a', to: 'b' }] });
      const body = (await noCandidate.json()) as { error: { code: string } };
      assert.equal(body.error.code, 'GDN_NO_CANDIDATE');
      assert.equal(noCandidate.status, 409, 'no candidate is a state to change first, not a server fault');
    });
  } finally {
    await repo.cleanup();
  }
});

test('HTTP MCP: traffic ticks an armed brain, as over stdio', { timeout: 60_000 }, async () => {
  await withOwner(async ({ url, token, home }) => {
    const repo = await armedRepo(ownerEnv(home));
    try {
      const { client, call } = await mcpClient(url, token, repo.dir);
      await trafficTicksTheArmedBrain(repo, call);
      await client.close();
    } finally {
      await repo.cleanup();
    }
  });
});

test('REST: traffic ticks an armed brain, as over stdio', { timeout: 60_000 }, async () => {
  await withOwner(async ({ url, token, home }) => {
    const repo = await armedRepo(ownerEnv(home));
    try {
      await trafficTicksTheArmedBrain(repo, restCall(url, token, repo.dir));
    } finally {
      await repo.cleanup();
    }
  });
});

test('a body nested deeper than MAX_JSON_DEPTH is refused before it is parsed: /mcp -32600, REST GDN_JSON_TOO_DEEP', async () => {
  const folder = await makeTempDir();
  try {
    await withOwner(async ({ url, token }) => {
      const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
      const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-gardener-folder': folder.dir };
      const rest = await raw(`${url}/api/tools/seek`, { method: 'POST', headers: auth, body: `{"query":${deep(64)}}` });
      assert.equal(rest.status, 400);
      const restError = (JSON.parse(rest.body) as { error: { code: string; message: string } }).error;
      assert.equal(restError.code, 'GDN_JSON_TOO_DEEP');
      assert.match(restError.message, /64/);
      const mcp = await raw(`${url}/mcp`, { method: 'POST', headers: auth, body: deep(65) });
      assert.equal(mcp.status, 400);
      assert.equal((JSON.parse(mcp.body) as { error: { code: number } }).error.code, -32600);
      // Exactly the bound (the object and 63 arrays) is decoded and reaches the tool, which judges it.
      const atBound = await raw(`${url}/api/tools/seek`, { method: 'POST', headers: auth, body: `{"query":${deep(63)}}` });
      assert.equal(atBound.status, 400, atBound.body);
      assert.equal((JSON.parse(atBound.body) as { error: { code: string } }).error.code, 'GDN_INVALID_ARGUMENT');
      assert.match(atBound.body, /query/);
    });
  } finally {
    await folder.cleanup();
  }
});

test('invalid UTF-8 in a body is -32700 on /mcp and 400 GDN_INVALID_ARGUMENT on REST: the call is not run', async () => {
  const folder = await makeTempDir();
  try {
    await withOwner(async ({ url, token }) => {
      const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-gardener-folder': folder.dir };
      const bad = (text: string) => Buffer.concat([Buffer.from(text.slice(0, text.indexOf('\u0000'))), Buffer.from([0xff, 0xfe]), Buffer.from(text.slice(text.indexOf('\u0000') + 1))]);
      // The folder has no brain: a seek that ran would say so (GDN_BRAIN_NOT_FOUND).
      const rest = await raw(`${url}/api/tools/seek`, { method: 'POST', headers: auth, body: bad('{"query":"\u0000"}') });
      assert.equal(rest.status, 400, rest.body);
      const restError = (JSON.parse(rest.body) as { error: { code: string; message: string } }).error;
      assert.equal(restError.code, 'GDN_INVALID_ARGUMENT');
      assert.match(restError.message, /UTF-8/);
      const init = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"\u0000","version":"0"}}}`;
      const mcp = await raw(`${url}/mcp`, { method: 'POST', headers: auth, body: bad(init) });
      assert.equal(mcp.status, 400, mcp.body);
      assert.equal((JSON.parse(mcp.body) as { error: { code: number } }).error.code, -32700);
      assert.equal(mcp.headers['mcp-session-id'], undefined, 'no session was made');
    });
  } finally {
    await folder.cleanup();
  }
});

test('a body holding more than MAX_JSON_VALUES values is refused before it is parsed: /mcp -32600, REST GDN_JSON_TOO_MANY_VALUES', async () => {
  const folder = await makeTempDir();
  try {
    await withOwner(async ({ url, token }) => {
      const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-gardener-folder': folder.dir };
      const wide = '[' + '1,'.repeat(100_000) + '1]';
      const rest = await raw(`${url}/api/tools/seek`, { method: 'POST', headers: auth, body: `{"query":${wide}}` });
      assert.equal(rest.status, 400, rest.body);
      const restError = (JSON.parse(rest.body) as { error: { code: string; message: string } }).error;
      assert.equal(restError.code, 'GDN_JSON_TOO_MANY_VALUES');
      assert.match(restError.message, /100000/);
      const mcp = await raw(`${url}/mcp`, { method: 'POST', headers: auth, body: wide });
      assert.equal(mcp.status, 400);
      assert.equal((JSON.parse(mcp.body) as { error: { code: number } }).error.code, -32600);
    });
  } finally {
    await folder.cleanup();
  }
});
