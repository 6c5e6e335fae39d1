import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readlinkSync, readdirSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { sourceFiles } from './helpers/brains.js';
import { connectGardener, type GardenerClient } from './helpers/mcp-client.js';
import { mcpToolsSuite } from './helpers/mcp-tools-suite.js';
import { homeToken, listenStandIn, ownerEnv, runCli, startServe, type ServeProcess } from './helpers/owner.js';
import { armedRepo, trafficTicksTheArmedBrain } from './helpers/traffic-law.js';
import { VERSION as VERSION_OF_TEST } from '../src/version.js';

/** Sessions the owner holds on its socket now (asked with `serve --status`). */
async function socketSessions(home: string): Promise<number> {
  const r = await runCli(['serve', '--status', '--json'], ownerEnv(home));
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).sessions.socket;
}

/** Connects through a proxy, and checks the owner really holds the session. */
async function viaOwner(owner: ServeProcess, home: string, root: string): Promise<GardenerClient> {
  const before = await socketSessions(home);
  const c = await connectGardener(root, ownerEnv(home));
  assert.equal(await socketSessions(home), before + 1, 'the session lives in the owner');
  return c;
}

/** Files under `dir` the process has open (Linux /proc). */
function openFilesUnder(pid: number, dir: string): string[] {
  const out: string[] = [];
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (target.startsWith(dir)) out.push(target);
    } catch {
      // closed meanwhile
    }
  }
  return out;
}

mcpToolsSuite('through a proxy to an owner', async (root, env) => {
  const home = env.GARDENER_HOME!;
  const owner = await startServe(home);
  try {
    const c = await viaOwner(owner, home, root);
    return {
      ...c,
      close: async () => {
        await c.close();
        await owner.stop();
      },
    };
  } catch (err) {
    await owner.stop();
    throw err;
  }
});

test('two proxies on one brain share a note at once, and only the owner opens the store', async () => {
  const repo = await makeGitRepo(sourceFiles(3));
  const home = await makeTempDir('gardener-home-');
  const owner = await startServe(home.dir);
  const a = await viaOwner(owner, home.dir, repo.dir);
  const b = await viaOwner(owner, home.dir, repo.dir);
  try {
    assert.equal((await a.call('ingest')).isError, false);
    const note = await a.call('remember', { text: 'shared between windows', pinned: true });
    assert.equal(note.isError, false, JSON.stringify(note.value));
    const boot = await b.call('boot_memory', {});
    assert.ok(JSON.stringify(boot.value).includes('shared between windows'), JSON.stringify(boot.value));
    const brains = join(home.dir, 'brains');
    assert.ok(openFilesUnder(owner.pid, brains).length > 0, 'the owner holds the store');
    assert.deepEqual(openFilesUnder(a.pid, brains), [], 'proxy a never opens it');
    assert.deepEqual(openFilesUnder(b.pid, brains), [], 'proxy b never opens it');
    const status = JSON.parse((await runCli(['serve', '--status', '--json'], ownerEnv(home.dir))).stdout);
    assert.equal(status.brains.length, 1);
    assert.equal(status.brains[0].sessions, 2);
  } finally {
    await a.close();
    await b.close();
    await owner.stop();
    await repo.cleanup();
    await home.cleanup();
  }
});

test('a SIGKILLed owner leaves the proxy answering, in-process', async () => {
  const repo = await makeGitRepo(sourceFiles(3));
  const home = await makeTempDir('gardener-home-');
  const owner = await startServe(home.dir);
  const c = await viaOwner(owner, home.dir, repo.dir);
  try {
    assert.equal((await c.call('ingest')).isError, false);
    assert.equal((await c.call('remember', { text: 'kept across the owner dying' })).isError, false);
    owner.proc.kill('SIGKILL');
    await owner.exited;
    const after = await c.call('seek', { query: 'fn1' });
    assert.equal(after.isError, false, JSON.stringify(after.value));
    assert.ok(JSON.stringify(after.value).includes('src/f1.ts'));
    const boot = await c.call('boot_memory', {});
    assert.ok(JSON.stringify(boot.value).includes('kept across the owner dying'));
    assert.match(c.stderr(), /serving in-process from here/);
  } finally {
    await c.close();
    await owner.stop();
    await repo.cleanup();
    await home.cleanup();
  }
});

test('a request in flight when the owner dies is re-sent in-process, after initialize is replayed', async () => {
  const repo = await makeGitRepo(sourceFiles(2));
  const home = await makeTempDir('gardener-home-');
  // A stand-in owner: proves itself, says hello, answers initialize, then hangs up on the first tool call.
  let sawCall!: () => void;
  const called = new Promise<void>((r) => (sawCall = r));
  const fake = await listenStandIn(join(home.dir, 'run', 'owner.sock'), { token: homeToken(home.dir) }, (line, s, index) => {
    if (index === 0) {
      s.write(JSON.stringify({ gardener: JSON.parse(line).gardener, ok: true, pid: process.pid }) + '\n');
      return;
    }
    const m = JSON.parse(line);
    if (m.method === 'initialize') {
      s.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'stand-in', version: '0' } } }) + '\n');
    } else if (m.method === 'tools/call') {
      sawCall();
      s.destroy();
    }
  });
  const c = await connectGardener(repo.dir, ownerEnv(home.dir));
  try {
    const answer = c.call('session_handshake');
    await called;
    const r = await answer;
    assert.equal(r.isError, false, JSON.stringify(r.value));
    assert.equal(r.value.session_folder, repo.dir);
    assert.match(c.stderr(), /proxying to the owner/);
  } finally {
    await c.close();
    await fake.close();
    await repo.cleanup();
    await home.cleanup();
  }
});

test('GARDENER_NO_OWNER=1, or an owner of another version: the client serves in-process and says so', async () => {
  const repo = await makeGitRepo(sourceFiles(2));
  const home = await makeTempDir('gardener-home-');
  const owner = await startServe(home.dir);
  try {
    const c = await connectGardener(repo.dir, ownerEnv(home.dir, { GARDENER_NO_OWNER: '1' }));
    assert.equal((await c.call('session_handshake')).isError, false);
    await c.close();
    assert.match(c.stderr(), /serving in-process \(GARDENER_NO_OWNER=1\)/);
    assert.equal(await socketSessions(home.dir), 0);
  } finally {
    await owner.stop();
  }
  // A stand-in owner of another version, refusing as a real one does.
  const fake = await listenStandIn(join(home.dir, 'run', 'owner.sock'), { token: homeToken(home.dir) }, (_hello, s) =>
    s.end(JSON.stringify({ gardener: '9.9.9', ok: false, pid: process.pid, error: 'the owner runs Gardener 9.9.9' }) + '\n'),
  );
  try {
    const c = await connectGardener(repo.dir, ownerEnv(home.dir));
    assert.equal((await c.call('session_handshake')).isError, false);
    await c.close();
    assert.match(c.stderr(), /serving in-process \(the owner answered but refused: the owner runs Gardener 9\.9\.9\)/);
  } finally {
    await fake.close();
    await repo.cleanup();
    await home.cleanup();
  }
});

test('socket: traffic ticks an armed brain, as over stdio', { timeout: 60_000 }, async () => {
  const home = await makeTempDir('gardener-home-');
  const repo = await armedRepo(ownerEnv(home.dir));
  const owner = await startServe(home.dir);
  const c = await viaOwner(owner, home.dir, repo.dir);
  try {
    await trafficTicksTheArmedBrain(repo, c.call);
  } finally {
    await c.close();
    await owner.stop();
    await repo.cleanup();
    await home.cleanup();
  }
});

test('SIGTERM on the owner with a session open: it exits 0 and the proxy falls back in-process', async () => {
  const repo = await makeGitRepo(sourceFiles(2));
  const home = await makeTempDir('gardener-home-');
  const owner = await startServe(home.dir);
  const c = await viaOwner(owner, home.dir, repo.dir);
  try {
    assert.equal((await c.call('ingest')).isError, false);
    assert.equal((await owner.stop()).code, 0);
    const after = await c.call('seek', { query: 'fn1' });
    assert.equal(after.isError, false, JSON.stringify(after.value));
    assert.match(c.stderr(), /serving in-process from here/);
  } finally {
    await c.close();
    await repo.cleanup();
    await home.cleanup();
  }
});

test('an owner that dies before answering initialize: the host still gets its initialize answer, in-process', async () => {
  const repo = await makeGitRepo(sourceFiles(2));
  const home = await makeTempDir('gardener-home-');
  mkdirSync(join(home.dir, 'run'), { mode: 0o700 });
  const fake = await listenStandIn(join(home.dir, 'run', 'owner.sock'), { token: homeToken(home.dir) }, (_line, s, index) => {
    if (index === 0) s.write(JSON.stringify({ gardener: VERSION_OF_TEST, ok: true, pid: process.pid }) + '\n');
    else s.destroy(); // the initialize line: hang up without answering
  });
  try {
    const c = await connectGardener(repo.dir, ownerEnv(home.dir));
    const h = await c.call('session_handshake');
    assert.equal(h.isError, false);
    await c.close();
    assert.match(c.stderr(), /proxying to the owner/);
    assert.match(c.stderr(), /serving in-process from here/);
  } finally {
    await fake.close();
    await repo.cleanup();
    await home.cleanup();
  }
});

test('an owner started with another XDG_RUNTIME_DIR is still found, through the socket owner.json names', async () => {
  const repo = await makeGitRepo(sourceFiles(2));
  const home = await makeTempDir('gardener-home-');
  const runtime = await makeTempDir('gardener-runtime-');
  const owner = await startServe(home.dir, [], { XDG_RUNTIME_DIR: runtime.dir });
  try {
    assert.ok(owner.ready.socket.startsWith(join(runtime.dir, 'gardener')), owner.ready.socket);
    const c = await connectGardener(repo.dir, ownerEnv(home.dir));
    assert.equal((await c.call('session_handshake')).isError, false);
    await c.close();
    assert.match(c.stderr(), /proxying to the owner/);
  } finally {
    await owner.stop();
    await repo.cleanup();
    await home.cleanup();
    await runtime.cleanup();
  }
});
