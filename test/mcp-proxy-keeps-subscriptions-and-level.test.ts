/**
 * A session proxied to the owner keeps what the host set when the owner dies and the proxy
 * serves in-process (issue 28): its resource subscriptions and its logging level are replayed
 * with initialize, their answers swallowed (the host already had them), so the host goes on
 * hearing updates, at the level it chose, from a session that kept answering.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { sourceFiles } from './helpers/brains.js';
import { connectGardener } from './helpers/mcp-client.js';
import { ownerEnv, runCli, startServe } from './helpers/owner.js';

test('after the owner dies, the in-process session still sends the subscribed updates, and only at the level the host set', { timeout: 120_000 }, async () => {
  const repo = await makeGitRepo(sourceFiles(3));
  const home = await makeTempDir('gardener-home-');
  const owner = await startServe(home.dir);
  const c = await connectGardener(repo.dir, ownerEnv(home.dir));
  const updates: string[] = [];
  const logs: string[] = [];
  c.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
  c.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.level));
  try {
    const status = await runCli(['serve', '--status', '--json'], ownerEnv(home.dir));
    assert.equal(JSON.parse(status.stdout).sessions.socket, 1, 'the session lives in the owner');
    assert.equal((await c.call('ingest')).isError, false);
    await c.client.subscribeResource({ uri: 'gardener://status' });
    await c.client.setLoggingLevel('warning');
    repo.write('src/owned.ts', 'export const owned = 1;\n');
    assert.equal((await c.call('scan')).isError, false);
    assert.deepEqual(updates, ['gardener://status'], 'the owner sent the update');

    owner.proc.kill('SIGKILL');
    await owner.exited;
    repo.write('src/local.ts', 'export const local = 1;\n');
    const scan = await c.call('scan');
    assert.equal(scan.isError, false, JSON.stringify(scan.value));
    assert.match(c.stderr(), /serving in-process from here/);
    assert.deepEqual(updates, ['gardener://status', 'gardener://status'], 'the in-process session sent the update too');
    assert.deepEqual(logs.filter((l) => l === 'info'), [], 'and kept the level: no info message');
    assert.ok((await c.client.ping()) !== undefined, 'the session goes on');
  } finally {
    await c.close();
    await owner.stop();
    await repo.cleanup();
    await home.cleanup();
  }
});
