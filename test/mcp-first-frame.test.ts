/**
 * The first frame never waits (DESIGN.md §7), over real stdio with the SDK's Client, against
 * a fake `git` first on PATH that parks on a named pipe. Nothing here reads a clock: each law
 * is a statement about whether a parked git process is still alive.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeFakeGit, isAlive, waitUntilGone } from './helpers/fake-git.js';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { makeTestBrains, sourceFiles } from './helpers/brains.js';
import { connectGardener } from './helpers/mcp-client.js';
import { runTick } from '../src/vigil/index.js';
import { FolderProbe } from '../src/probe/index.js';
import { Session } from '../src/session/index.js';
import { TOOLS, LATE_TOOL_NAMES } from '../src/tools/index.js';
import { Vigils } from '../src/vigil/index.js';

/** A bound on how long a broken law may hang before the test fails (not a wait). */
const HANG_BOUND_MS = 20_000;

/** A real repository with a brain, made with the real git; the server later sees only the fake. */
async function watchedFolder() {
  const repo = await makeGitRepo(sourceFiles(2));
  const t = await makeTestBrains();
  const { brain } = await t.brains.ensure(repo.dir);
  await runTick(brain, { inventory: true });
  await t.brains.close();
  return {
    dir: repo.dir,
    home: t.home,
    cleanup: async () => {
      await t.cleanup();
      await repo.cleanup();
    },
  };
}

test('building a session does not wait for git: initialize is answered while the probe git is parked', { timeout: HANG_BOUND_MS }, async () => {
  const folder = await watchedFolder();
  const fake = await makeFakeGit({ park: true });
  const c = await connectGardener(folder.dir, { ...fake.env, GARDENER_HOME: folder.home });
  try {
    const [pid] = await fake.waitForLaunches(1);
    assert.ok(isAlive(pid!), 'the probe git is parked');
    // (Closing the session at the end kills the parked git: no release needed.)
    const hello = await c.call('session_handshake');
    assert.equal(hello.value.watched, null, 'the probe has not answered');
    assert.ok(hello.value.brain, 'the session works while git is parked');
    assert.ok(isAlive(pid!), 'and git is still parked after it answered');
  } finally {
    await c.close();
    await fake.cleanup();
    await folder.cleanup();
  }
});

test("a watched folder's late verbs arrive after the probe answers, at the tail, with list_changed; the first list does not wait for a parked git", { timeout: HANG_BOUND_MS }, async () => {
  const folder = await watchedFolder();
  const fake = await makeFakeGit({ park: true });
  const c = await connectGardener(folder.dir, { ...fake.env, GARDENER_HOME: folder.home });
  try {
    const [pid] = await fake.waitForLaunches(1);
    const first = (await c.client.listTools()).tools.map((t) => t.name);
    for (const late of LATE_TOOL_NAMES) assert.ok(!first.includes(late), `${late} is not listed yet`);
    assert.ok(isAlive(pid!), 'the first list went out past its cap, git untouched');
    assert.equal(c.listChanged(), 0);

    const changed = c.nextListChanged();
    await fake.release();
    await changed;
    const after = (await c.client.listTools()).tools.map((t) => t.name);
    assert.deepEqual(after.slice(0, first.length), first, 'nothing ahead of the tail moved');
    assert.deepEqual(after.slice(first.length), LATE_TOOL_NAMES);
    assert.equal((await c.call('daemon_status')).isError, false);
    assert.equal((await fake.pids()).length, 1, 'git was asked once for the folder');
  } finally {
    await c.close();
    await fake.cleanup();
    await folder.cleanup();
  }
});

test('closing one session does not wait behind another session\'s parked git; after close its own git is gone', { timeout: HANG_BOUND_MS }, async () => {
  const folder = await watchedFolder();
  const fake = await makeFakeGit({ park: true });
  const fifoB = fake.makeFifo('b');
  const a = await connectGardener(folder.dir, { ...fake.env, GARDENER_HOME: folder.home });
  const [pidA] = await fake.waitForLaunches(1);
  const b = await connectGardener(folder.dir, { ...fake.env, FAKE_GIT_FIFO: fifoB, GARDENER_HOME: folder.home });
  try {
    const pidB = (await fake.waitForLaunches(2)).find((p) => p !== pidA)!;
    await b.close();
    assert.match(b.stderr(), /shutting down \(stdin ended\)/, 'B ended on its own EOF, not by a kill');
    await waitUntilGone(pidB);
    assert.equal(isAlive(pidB), false, "B's git is gone");
    assert.ok(isAlive(pidA!), "A's git is still parked: B never waited for it");
  } finally {
    await a.close();
    await fake.cleanup();
    await folder.cleanup();
  }
});

test('the first tools/list takes the verbs when a running probe answers within the wait', { timeout: HANG_BOUND_MS }, async () => {
  const folder = await watchedFolder();
  const fake = await makeFakeGit({ park: true });
  const t = await makeTestBrains();
  const brains = new (await import('../src/brain/index.js')).Brains({ home: folder.home });
  const probe = new FolderProbe({
    env: fake.env,
    resolveBrain: async (f) => {
      const hit = brains.registry().resolve(f);
      return hit ? { brainId: hit.brain.id, armed: false } : null;
    },
  });
  // A cap far beyond the test's bound: only the answer can release the first list.
  const session = new Session({ folder: folder.dir, brains, vigils: new Vigils(), probe, tools: TOOLS, firstListWaitMs: 10 * HANG_BOUND_MS });
  try {
    session.start();
    await fake.waitForLaunches(1);
    const list = session.listTools();
    await fake.release();
    const names = (await list).map((tool) => tool.name);
    assert.deepEqual(names.slice(-LATE_TOOL_NAMES.length), LATE_TOOL_NAMES);
  } finally {
    await session.close();
    await probe.close();
    await brains.close();
    await t.cleanup();
    await fake.cleanup();
    await folder.cleanup();
  }
});

test('an unwatched folder never asks twice and never lists the late verbs', { timeout: HANG_BOUND_MS }, async () => {
  const plain = await makeTempDir();
  const home = await makeTempDir('gardener-home-');
  const fake = await makeFakeGit({ answer: 'not-a-repo' });
  const c = await connectGardener(plain.dir, { ...fake.env, GARDENER_HOME: home.dir });
  try {
    await fake.waitForLaunches(1);
    for (;;) {
      if ((await c.call('session_handshake')).value.watched === false) break;
    }
    const names = (await c.client.listTools()).tools.map((t) => t.name);
    for (const late of LATE_TOOL_NAMES) assert.ok(!names.includes(late));
    assert.equal((await fake.pids()).length, 1);
  } finally {
    await c.close();
    await fake.cleanup();
    await plain.cleanup();
    await home.cleanup();
  }
});

test('SIGTERM ends the server cleanly: its parked git does not outlive it', { timeout: HANG_BOUND_MS }, async () => {
  const folder = await watchedFolder();
  const fake = await makeFakeGit({ park: true });
  const c = await connectGardener(folder.dir, { ...fake.env, GARDENER_HOME: folder.home });
  try {
    const [pid] = await fake.waitForLaunches(1);
    const exited = new Promise<void>((resolve) => c.transport.onclose = () => resolve());
    process.kill(c.pid, 'SIGTERM');
    await exited;
    await waitUntilGone(pid!);
    assert.match(c.stderr(), /shutting down \(SIGTERM\)/);
    assert.equal(isAlive(pid!), false);
  } finally {
    await c.close();
    await fake.cleanup();
    await folder.cleanup();
  }
});
