import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { sourceFiles } from './helpers/brains.js';
import { connectGardener, progressOnTheWire } from './helpers/mcp-client.js';

test('a 5000-file ingest reports increasing notifications/progress when the request carries a progress token, the last at the total', async () => {
  const repo = await makeGitRepo(sourceFiles(5000));
  const home = await makeTempDir('gardener-home-');
  const c = await connectGardener(repo.dir, { ...process.env, GARDENER_HOME: home.dir });
  try {
    const seen = progressOnTheWire(c.client);
    // onprogress makes the call carry a progress token; what arrived is read off the wire.
    const r = (await c.client.callTool({ name: 'ingest', arguments: {} }, undefined, { onprogress: () => {} })) as { isError?: boolean; content: { text: string }[] };
    assert.equal(r.isError, undefined, r.content[0]!.text);
    assert.ok(seen.length >= 3, `at least three progress notifications (${seen.length})`);
    const last = seen[seen.length - 1]!;
    assert.equal(last.progress, 5000, 'the last one says everything is done');
    assert.equal(last.total, 5000);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i]!.progress > seen[i - 1]!.progress, 'progress only grows');
  } finally {
    await c.close();
    await repo.cleanup();
    await home.cleanup();
  }
});

test('a cancelled scan stops between batches and loses nothing: the rest waits in the backlog', async () => {
  const repo = await makeGitRepo(sourceFiles(2));
  const home = await makeTempDir('gardener-home-');
  const c = await connectGardener(repo.dir, { ...process.env, GARDENER_HOME: home.dir });
  try {
    assert.equal((await c.call('ingest')).isError, false);
    for (const [p, body] of Object.entries(sourceFiles(3000, 'burst/b'))) repo.write(p, body);
    const controller = new AbortController();
    const scan = c.client.callTool({ name: 'scan', arguments: {} }, undefined, {
      // Cancel at the first sign of progress: the drain has started and has far to go.
      onprogress: () => controller.abort(),
      signal: controller.signal,
    });
    await assert.rejects(scan, /abort|cancel/i);
    // The server keeps serving; whatever the cancel left undrained still waits, and a scan finishes it.
    const status = await c.call('north');
    assert.equal(status.isError, false);
    const finish = await c.call('scan');
    assert.equal(finish.isError, false, JSON.stringify(finish.value));
    assert.equal(finish.value.backlog_left, 0);
    const hits = await c.call('seek', { query: 'fn2999', scope: 'code' });
    assert.equal(hits.value.code[0]?.path, 'burst/b2999.ts', 'the tail of the burst is in the map');
    assert.ok(status.value.freshness.backlog > 0, `the cancelled scan left work in the backlog (${status.value.freshness.backlog})`);
  } finally {
    await c.close();
    await repo.cleanup();
    await home.cleanup();
  }
});
