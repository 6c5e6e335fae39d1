import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { sourceFiles } from './helpers/brains.js';
import { ownerEnv, runCli, startServe, type ServeProcess, logLine } from './helpers/owner.js';
import { connectGardener } from './helpers/mcp-client.js';

async function statusOf(repo: string, env: NodeJS.ProcessEnv) {
  const r = await runCli(['status', repo, '--json'], env);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as { watch_backend: string; brain: string };
}

test('an armed brain is watched by the owner with no tool call, a save reaches the map, and only a live owner is claimed', { timeout: 120_000 }, async () => {
  const repo = await makeGitRepo(sourceFiles(5));
  const home = await makeTempDir('gardener-home-');
  const env = ownerEnv(home.dir);
  let serve: ServeProcess | undefined;
  try {
    assert.equal((await runCli(['init', repo.dir], env)).code, 0);
    assert.equal((await runCli(['daemon', 'start', repo.dir], env)).code, 0);
    const { brain } = await statusOf(repo.dir, env);
    assert.equal((await statusOf(repo.dir, env)).watch_backend, 'none', 'no owner: nothing watches');

    serve = await startServe(home.dir);
    const watching = await logLine(serve, (e) => e.msg === 'watching' && e.brain === brain);
    assert.equal(watching.watch_backend, 'native');
    assert.equal((await statusOf(repo.dir, env)).watch_backend, 'native', 'status asks the live owner');

    const before = serve.logs().length;
    repo.write('src/saved.ts', 'export function savedWhileWatched(): number {\n  return 7;\n}\n');
    await logLine(serve, (e) => e.msg === 'watch tick' && e.brain === brain && e.reason === 'burst', before);
    const found = await runCli(['seek', 'savedWhileWatched', '--root', repo.dir, '--json'], env);
    assert.ok(JSON.parse(found.stdout).some((h: { symbol: string }) => h.symbol === 'savedWhileWatched'), 'the save is in the map with no tool call');

    serve.proc.kill('SIGKILL');
    await serve.exited;
    assert.equal((await statusOf(repo.dir, env)).watch_backend, 'none', "a dead owner's watcher is never claimed");

    serve = await startServe(home.dir);
    await logLine(serve, (e) => e.msg === 'watching' && e.brain === brain);
    assert.equal((await statusOf(repo.dir, env)).watch_backend, 'native', 'a restarted owner watches the armed brain again by itself');
  } finally {
    await serve?.stop();
    await repo.cleanup();
    await home.cleanup();
  }
});

test('daemon_stop through the owner stops watching at once; daemon_start watches again', { timeout: 120_000 }, async () => {
  const repo = await makeGitRepo(sourceFiles(3));
  const home = await makeTempDir('gardener-home-');
  const env = ownerEnv(home.dir);
  const serve = await startServe(home.dir);
  const c = await connectGardener(repo.dir, env);
  try {
    assert.equal((await c.call('ingest')).isError, false);
    for (;;) {
      const h = await c.call('session_handshake');
      if (h.value.watched !== null) break;
      await new Promise((r) => setImmediate(r));
    }
    const started = await c.call('daemon_start');
    assert.equal(started.isError, false, JSON.stringify(started.value));
    assert.equal(started.value.watch_backend, 'native', 'armed through the owner: watched at once');
    assert.equal((await c.call('session_handshake')).value.watch_backend, 'native');
    const stopped = await c.call('daemon_stop');
    assert.equal(stopped.value.watch_backend, 'none', 'disarmed: no longer watched');
    assert.equal((await statusOf(repo.dir, env)).watch_backend, 'none');
  } finally {
    await c.close();
    await serve.stop();
    await repo.cleanup();
    await home.cleanup();
  }
});
