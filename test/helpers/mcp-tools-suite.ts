import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo, makeTempDir } from './git-repo.js';
import { sourceFiles } from './brains.js';
import type { GardenerClient } from './mcp-client.js';
import { openStore, pushChanges, listRoots } from '../../src/store/index.js';
import { detectChanges } from '../../src/detect/index.js';
import { Registry, brainFile } from '../../src/brain/index.js';


/** Connects an MCP client to a session rooted at `root` (in-process, or through an owner). */
export type Connect = (root: string, env: NodeJS.ProcessEnv) => Promise<GardenerClient>;

/** The MCP tool suite, run once per way of reaching a session (stdio in-process, proxy to an owner). */
export function mcpToolsSuite(label: string, connect: Connect): void {
  const LATE = ['daemon_start', 'daemon_stop', 'daemon_status', 'changes'];

  async function toolNames(c: GardenerClient): Promise<string[]> {
    return (await c.client.listTools()).tools.map((t) => t.name);
  }

  /** Waits (on state, not time) until the session's folder probe has answered. */
  async function probeAnswered(c: GardenerClient): Promise<boolean> {
    for (;;) {
      const h = await c.call('session_handshake');
      if (h.value.watched !== null) return h.value.watched;
      await new Promise((r) => setImmediate(r));
    }
  }

  test(`${label}: an unwatched folder never lists the late verbs`, async () => {
    const plain = await makeTempDir();
    const home = await makeTempDir('gardener-home-');
    const c = await connect(plain.dir, { ...process.env, GARDENER_HOME: home.dir });
    try {
      assert.equal(await probeAnswered(c), false);
      const names = await toolNames(c);
      for (const late of LATE) assert.ok(!names.includes(late), `${late} is not listed`);
      assert.equal(c.listChanged(), 0);
    } finally {
      await c.close();
      await plain.cleanup();
      await home.cleanup();
    }
  });

  test(`${label}: ingest to a new watched folder arms the verbs, appended at the tail with list_changed`, async () => {
    const plain = await makeTempDir();
    const repo = await makeGitRepo(sourceFiles(3));
    const home = await makeTempDir('gardener-home-');
    const c = await connect(plain.dir, { ...process.env, GARDENER_HOME: home.dir });
    try {
      const before = await toolNames(c);
      assert.ok(!before.includes('daemon_start'));
      const changed = c.nextListChanged();
      const r = await c.call('ingest', { path: repo.dir });
      assert.equal(r.isError, false, JSON.stringify(r.value));
      assert.equal(r.value.drained, 3);
      await changed;
      const after = await toolNames(c);
      assert.deepEqual(after.slice(0, before.length), before, 'nothing ahead of the tail moved');
      assert.deepEqual(after.slice(before.length), LATE, 'the late verbs are appended at the tail');
      const status = await c.call('daemon_status');
      assert.equal(status.value.armed, false);
      assert.equal(status.value.watch_backend, 'none', 'nothing watches an unarmed brain');
    } finally {
      await c.close();
      await repo.cleanup();
      await plain.cleanup();
      await home.cleanup();
    }
  });

  test(`${label}: recall results name the pending files after an edit that has not been drained`, async () => {
    const repo = await makeGitRepo(sourceFiles(3));
    const home = await makeTempDir('gardener-home-');
    const c = await connect(repo.dir, { ...process.env, GARDENER_HOME: home.dir });
    try {
      assert.equal((await c.call('ingest')).isError, false);
      repo.write('src/f1.ts', 'export function fn1(a: number): number {\n  return a * 100;\n}\n');
      // A vigil saw the edit and queued it, but has not drained it yet.
      const entry = new Registry(home.dir).resolve(repo.dir)!;
      const db = openStore(brainFile(home.dir, entry.brain.id));
      const root = listRoots(db)[0]!;
      const detected = await detectChanges({ root: root.path, backend: 'auto', sinceRef: root.sinceRef, recheck: [], skip: [] });
      db.transaction(() => pushChanges(db, root.id, detected, Date.now()))();
      db.close();

      const hits = await c.call('seek', { query: 'fn1' });
      assert.equal(hits.isError, false);
      assert.ok(hits.value.code.some((h: { path: string }) => h.path === 'src/f1.ts'));
      assert.deepEqual(hits.value.freshness.pending, ['src/f1.ts']);
      assert.equal(hits.value.freshness.backlog, 1);
      const north = await c.call('north');
      assert.equal(north.value.freshness.backlog, 1);
    } finally {
      await c.close();
      await repo.cleanup();
      await home.cleanup();
    }
  });

  test(`${label}: tool failures are isError results that name the problem; the server keeps serving`, async () => {
    const repo = await makeGitRepo(sourceFiles(2));
    const home = await makeTempDir('gardener-home-');
    const c = await connect(repo.dir, { ...process.env, GARDENER_HOME: home.dir });
    try {
      const noBrain = await c.call('seek', { query: 'fn0' });
      assert.equal(noBrain.isError, true);
      assert.match(noBrain.value.error.message, /ingest|gardener init/);
      const missing = await c.call('ingest', { path: '/definitely/not/here' });
      assert.equal(missing.isError, true);
      assert.match(missing.value.error.message, /\/definitely\/not\/here/);
      assert.equal((await c.call('ingest')).isError, false);
      const id = (await c.call('remember', { text: 'the build needs node 20', tags: ['build'], pinned: true })).value.id;
      const boot = await c.call('boot_memory', { budget_tokens: 500 });
      assert.equal(boot.value.notes[0].id, id);
      assert.equal((await c.call('forget', { id })).value.forgotten, true);
      assert.equal((await c.call('forget', { id })).isError, true);
      const bad = await c.call('seek', { query: 'x', limit: 'ten' });
      assert.equal(bad.isError, true);
      assert.match(bad.value.error.message, /limit/);
    } finally {
      await c.close();
      await repo.cleanup();
      await home.cleanup();
    }
  });

  test(`${label}: changes lists an edit since the last tick as pending, until a scan drains it`, async () => {
    const repo = await makeGitRepo(sourceFiles(3));
    const home = await makeTempDir('gardener-home-');
    const c = await connect(repo.dir, { ...process.env, GARDENER_HOME: home.dir });
    try {
      const armed = c.nextListChanged();
      assert.equal((await c.call('ingest')).isError, false);
      await armed;
      repo.write('src/f2.ts', 'export function editedHere() {}\n');
      const before = await c.call('changes');
      assert.equal(before.isError, false, JSON.stringify(before.value));
      assert.deepEqual(before.value.changes.map((x: { path: string; pending: boolean }) => [x.path, x.pending]), [['src/f2.ts', true]]);
      await c.call('scan');
      const after = await c.call('changes');
      assert.equal(after.value.total, 0, 'nothing changed since the last tick');
      const sinceFirst = await c.call('changes', { since: 'HEAD' });
      assert.deepEqual(sinceFirst.value.changes.map((x: { path: string; pending: boolean }) => [x.path, x.pending]), [['src/f2.ts', false]]);
      const bad = await c.call('changes', { since: '--output=/tmp/x' });
      assert.equal(bad.isError, true);
    } finally {
      await c.close();
      await repo.cleanup();
      await home.cleanup();
    }
  });

}
