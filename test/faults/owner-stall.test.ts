/**
 * A stalled or refusing owner never hangs or splits a session (`gardener mcp` as a proxy to a
 * real `gardener serve`):
 *   - the owner SIGSTOPped with a call in flight: the proxy sees no sign of life within its
 *     liveness bound, falls back in-process, replays the call, and the host gets its answer;
 *   - a request over MAX_LINE_BYTES: -32600 with its id, and the session stays on the owner
 *     (no "serving in-process", the owner still holds the session);
 *   - invalid UTF-8 inside a request: -32700, and nothing runs.
 *
 * The liveness bound is short here (GARDENER_PROXY_LIVENESS_MS) so the test is; the default is
 * PROXY_LIVENESS_MS (10 s). A stopped owner cannot answer whatever the bound, so the bound only
 * decides how long the test takes, never whether it passes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo, makeTempDir } from '../helpers/git-repo.js';
import { sourceFiles } from '../helpers/brains.js';
import { connectGardener } from '../helpers/mcp-client.js';
import { ownerEnv, runCli, startServe } from '../helpers/owner.js';
import { recordFigures } from './fault-config.js';
import { startRawRpc } from './raw-rpc.js';

/** The liveness bound the proxy is given, in ms. */
const LIVENESS_MS = 1500;
/** What the fallback may take beyond the bound, in ms: the in-process server's cold start on a busy 2-core machine. */
const SLACK_MS = 15_000;
/** A line over the one bound (MAX_LINE_BYTES, 4 MiB). */
const OVER_LONG_BYTES = 4 * 1024 * 1024 + 4096;

const figures: Record<string, unknown> = {};

async function socketSessions(home: string): Promise<number> {
  const r = await runCli(['serve', '--status', '--json'], ownerEnv(home));
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).sessions.socket;
}

test('a SIGSTOPped owner: the proxy falls back in-process within its liveness bound and answers the call in flight', { timeout: 120_000 }, async () => {
  const repo = await makeGitRepo(sourceFiles(3));
  const home = await makeTempDir('gardener-home-');
  const owner = await startServe(home.dir, ['--no-http']);
  const c = await connectGardener(repo.dir, ownerEnv(home.dir, { GARDENER_PROXY_LIVENESS_MS: String(LIVENESS_MS) }));
  let stopped = false;
  try {
    assert.match(c.stderr(), /proxying to the owner/);
    assert.equal((await c.call('ingest')).isError, false);
    owner.proc.kill('SIGSTOP');
    stopped = true;
    const started = performance.now();
    const r = await c.call('seek', { query: 'fn1' });
    const ms = Math.round(performance.now() - started);
    assert.equal(r.isError, false, JSON.stringify(r.value));
    assert.ok(JSON.stringify(r.value).includes('src/f1.ts'), JSON.stringify(r.value));
    assert.match(c.stderr(), /no sign of life/);
    assert.match(c.stderr(), /serving in-process from here/);
    assert.ok(ms < LIVENESS_MS + SLACK_MS, `answered in ${ms} ms`);
    figures.stall_liveness_ms = LIVENESS_MS;
    figures.stall_answered_ms = ms;
  } finally {
    if (stopped) owner.proc.kill('SIGCONT');
    await c.close();
    await owner.stop();
    await repo.cleanup();
    await home.cleanup();
  }
});

test('through the proxy, a request over MAX_LINE_BYTES gets -32600 with its id, invalid UTF-8 gets -32700, and the session stays on the owner', { timeout: 120_000 }, async () => {
  const repo = await makeGitRepo(sourceFiles(3));
  const home = await makeTempDir('gardener-home-');
  const owner = await startServe(home.dir, ['--no-http']);
  const rpc = await startRawRpc(repo.dir, ownerEnv(home.dir));
  try {
    await rpc.initialize();
    assert.equal(await socketSessions(home.dir), 1, 'the session is on the owner');
    const ingest = await rpc.request('tools/call', { name: 'ingest', arguments: {} });
    assert.equal(ingest.result?.isError, undefined, JSON.stringify(ingest).slice(0, 300));
    const id = rpc.nextId();
    const huge = 'q'.repeat(OVER_LONG_BYTES);
    // The SDK client's key order: the id comes after the params.
    const over = await rpc.requestRaw(id, `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"seek","arguments":{"query":"${huge}"}},"id":${id}}\n`);
    assert.equal(over.error?.code, -32600, JSON.stringify(over).slice(0, 300));

    const before = rpc.nullIdErrors.length;
    const badId = rpc.nextId();
    await rpc.write(Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","id":${badId},"method":"tools/call","params":{"name":"remember","arguments":{"pinned":true,"text":"bad `), Buffer.from([0xc3, 0x28]), Buffer.from(' bytes"}}}\n')]));
    const seek = await rpc.request('tools/call', { name: 'seek', arguments: { query: 'fn1' } });
    assert.equal(seek.result?.isError, undefined, JSON.stringify(seek).slice(0, 300));
    assert.equal(rpc.nullIdErrors.length, before + 1, 'the invalid UTF-8 line got one id-null error');
    assert.equal(rpc.nullIdErrors[before]!.error!.code, -32700);
    const notes = await rpc.request('tools/call', { name: 'boot_memory', arguments: {} });
    assert.ok(!JSON.stringify(notes).includes('bad '), 'the invalid UTF-8 request never ran');

    assert.equal(await socketSessions(home.dir), 1, 'the session is still on the owner');
    assert.doesNotMatch(rpc.stderr(), /serving in-process/);
    assert.deepEqual(rpc.garbage, []);
    figures.over_long_answered_with_id = true;
    figures.session_stayed_on_owner = true;
    recordFigures('owner-stall', figures);
  } finally {
    await rpc.close();
    await owner.stop();
    await repo.cleanup();
    await home.cleanup();
  }
});
