/**
 * Progress and cancellation are carried by every transport (issue 28), not only stdio in-process:
 * through the proxy to the owner's socket, and over the owner's Streamable HTTP. The same two
 * laws as test/mcp-progress-and-cancel.test.ts, run on each: an ingest with a progress token
 * reports increasing progress ending at the total; a scan cancelled at its first progress stops
 * between batches and loses nothing. Over HTTP too, a subscriber to the status hears
 * notifications/resources/updated after a tick (on the session's own event stream).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { makeGitRepo, makeTempDir, type GitRepo } from './helpers/git-repo.js';
import { sourceFiles } from './helpers/brains.js';
import { connectGardener, progressOnTheWire } from './helpers/mcp-client.js';
import { homeToken, ownerEnv, runCli, startServe } from './helpers/owner.js';

type Call = (name: string, args?: Record<string, unknown>) => Promise<{ isError: boolean; value: any }>;

async function httpClient(url: string, token: string, folder: string): Promise<{ client: Client; call: Call }> {
  const client = new Client({ name: 'gardener-test', version: '0.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp?folder=${encodeURIComponent(folder)}`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  const call: Call = async (name, args = {}) => {
    const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
    return { isError: r.isError === true, value: JSON.parse(r.content[0]!.text) };
  };
  return { client, call };
}

/** Both laws, on one connected client over some transport. */
async function progressAndCancel(client: Client, call: Call, repo: GitRepo): Promise<void> {
  const seen = progressOnTheWire(client);
  // onprogress makes the call carry a progress token; what arrived is read off the wire.
  const r = (await client.callTool({ name: 'ingest', arguments: {} }, undefined, { onprogress: () => {} })) as { isError?: boolean; content: { text: string }[] };
  assert.equal(r.isError, undefined, r.content[0]!.text);
  assert.ok(seen.length >= 1, 'at least one progress notification');
  assert.deepEqual(seen.at(-1), { progress: 300, total: 300 }, 'the last one says everything is done');
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i]!.progress > seen[i - 1]!.progress, 'progress only grows');

  for (const [p, body] of Object.entries(sourceFiles(3000, 'burst/b'))) repo.write(p, body);
  const controller = new AbortController();
  const scan = client.callTool({ name: 'scan', arguments: {} }, undefined, { onprogress: () => controller.abort(), signal: controller.signal });
  await assert.rejects(scan, /abort|cancel/i);
  const status = await call('north');
  assert.equal(status.isError, false);
  const finish = await call('scan');
  assert.equal(finish.isError, false, JSON.stringify(finish.value));
  assert.equal(finish.value.backlog_left, 0);
  const hits = await call('seek', { query: 'fn2999', scope: 'code' });
  assert.equal(hits.value.code[0]?.path, 'burst/b2999.ts', 'the tail of the burst is in the map');
  assert.ok(status.value.freshness.backlog > 0, `the cancelled scan left work in the backlog (${status.value.freshness.backlog})`);
}

test('through the proxy to the owner: progress during an ingest, and a cancelled scan that loses nothing', { timeout: 170_000 }, async () => {
  const repo = await makeGitRepo(sourceFiles(300));
  const home = await makeTempDir('gardener-home-');
  const owner = await startServe(home.dir);
  try {
    const c = await connectGardener(repo.dir, ownerEnv(home.dir));
    try {
      const sessions = await runCli(['serve', '--status', '--json'], ownerEnv(home.dir));
      assert.equal(JSON.parse(sessions.stdout).sessions.socket, 1, 'the session lives in the owner');
      await progressAndCancel(c.client, c.call, repo);
    } finally {
      await c.close();
    }
  } finally {
    await owner.stop();
    await repo.cleanup();
    await home.cleanup();
  }
});

test("over the owner's Streamable HTTP: progress, a cancel that loses nothing, and a resource update after a tick", { timeout: 170_000 }, async () => {
  const repo = await makeGitRepo(sourceFiles(300));
  const home = await makeTempDir('gardener-home-');
  const owner = await startServe(home.dir);
  const { client, call } = await httpClient(owner.ready.url!, homeToken(home.dir), repo.dir);
  try {
    await progressAndCancel(client, call, repo);
    let resolveUpdate!: (uri: string) => void;
    const updated = new Promise<string>((r) => (resolveUpdate = r));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolveUpdate(n.params.uri));
    await client.subscribeResource({ uri: 'gardener://status' });
    repo.write('src/late.ts', 'export const late = 1;\n');
    assert.equal((await call('scan')).isError, false);
    assert.equal(await updated, 'gardener://status');
  } finally {
    await client.close().catch(() => {});
    await owner.stop();
    await repo.cleanup();
    await home.cleanup();
  }
});
