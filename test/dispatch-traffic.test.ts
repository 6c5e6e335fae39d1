import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains, sourceFiles } from './helpers/brains.js';
import { makeTestSession } from './helpers/session.js';
import { runTick } from '../src/vigil/index.js';
import { listAlerts, readVigil } from '../src/store/index.js';

async function armedBrain() {
  const repo = await makeGitRepo(sourceFiles(4));
  const t = await makeTestBrains();
  const { brain } = await t.brains.ensure(repo.dir);
  await runTick(brain, { inventory: true });
  await brain.writer.setArmed(true, Date.now());
  return { repo, t, brain, cleanup: async () => (await t.cleanup(), await repo.cleanup()) };
}

/** Counts the traffic ticks the seam schedules. */
function countTraffic(s: Awaited<ReturnType<typeof makeTestSession>>) {
  let n = 0;
  const original = s.session.trafficTick.bind(s.session);
  s.session.trafficTick = () => {
    n++;
    original();
  };
  return () => n;
}

test('a recall verb never ticks', async () => {
  const f = await armedBrain();
  const s = await makeTestSession(f.t.brains, f.repo.dir);
  try {
    const traffic = countTraffic(s);
    for (const [name, args] of [['seek', { query: 'fn1' }], ['north', {}], ['boot_memory', {}], ['delegate', { task: 'change fn2' }], ['refs', { name: 'fn1' }], ['impact', { name: 'fn1' }]] as const) {
      const r = await s.dispatch(name, args);
      assert.equal(r.isError, undefined, `${name}: ${JSON.stringify(r.value)}`);
    }
    assert.equal(traffic(), 0);
  } finally {
    await s.close();
    await f.cleanup();
  }
});

test('a skip-list verb never ticks', async () => {
  const f = await armedBrain();
  const s = await makeTestSession(f.t.brains, f.repo.dir);
  try {
    const traffic = countTraffic(s);
    for (const name of ['session_handshake', 'alerts_list', 'daemon_status', 'daemon_start']) {
      const r = await s.dispatch(name);
      assert.equal(r.isError, undefined, `${name}: ${JSON.stringify(r.value)}`);
    }
    assert.equal(traffic(), 0);
  } finally {
    await s.close();
    await f.cleanup();
  }
});

test('a heavy verb does not tick inline', async () => {
  const f = await armedBrain();
  const s = await makeTestSession(f.t.brains, f.repo.dir);
  try {
    const traffic = countTraffic(s);
    f.repo.write('src/new.ts', 'export function newOne() {}\n');
    const r = await s.dispatch('scan');
    assert.equal(r.isError, undefined, JSON.stringify(r.value));
    assert.equal(r.value.drained, 1);
    assert.deepEqual(r.value.changed.map((c: { path: string }) => c.path), ['src/new.ts']);
    assert.equal((await s.dispatch('ingest')).isError, undefined);
    assert.equal(traffic(), 0);
  } finally {
    await s.close();
    await f.cleanup();
  }
});

test('any other verb ticks an armed brain, without waiting for the tick', async () => {
  const f = await armedBrain();
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let ticks = 0;
  const s = await makeTestSession(f.t.brains, f.repo.dir, {
    tick: async (b, o) => {
      ticks++;
      await gate; // the tick cannot finish until we say so: the call must not wait for it
      return runTick(b, o);
    },
  });
  try {
    f.repo.write('src/edited.ts', 'export function seenByTraffic() {}\n');
    const r = await s.dispatch('remember', { text: 'traffic advances freshness' });
    assert.equal(r.isError, undefined);
    assert.equal(ticks, 1, 'the call scheduled a tick and returned while it was parked');
    release();
    await s.vigils.get(f.brain).idle();
    assert.equal(readVigil(f.brain.reader).ticks, 2, 'the init tick and the traffic tick');
  } finally {
    release();
    await s.close();
    await f.cleanup();
  }
});

test('a disarmed brain is not ticked by traffic', async () => {
  const f = await armedBrain();
  let ticks = 0;
  const s = await makeTestSession(f.t.brains, f.repo.dir, { tick: async (b, o) => (ticks++, runTick(b, o)) });
  try {
    await f.brain.writer.setArmed(false, Date.now());
    await s.dispatch('remember', { text: 'no tick for me' });
    assert.equal(ticks, 0);
  } finally {
    await s.close();
    await f.cleanup();
  }
});

test('a throwing tick never fails the call', async () => {
  const f = await armedBrain();
  const s = await makeTestSession(f.t.brains, f.repo.dir, {
    tick: async () => {
      throw new Error('tick exploded');
    },
  });
  try {
    const r = await s.dispatch('remember', { text: 'still remembered' });
    assert.equal(r.isError, undefined);
    assert.equal(typeof r.value.id, 'number');
    await s.vigils.get(f.brain).idle();
    const alerts = listAlerts(f.brain.reader);
    assert.equal(alerts[0]?.code, 'tick_failed');
    assert.match(alerts[0]!.message, /tick exploded/);
  } finally {
    await s.close();
    await f.cleanup();
  }
});

test('bad input is an isError result that names the field, and nothing stored is lost', async () => {
  const f = await armedBrain();
  const s = await makeTestSession(f.t.brains, f.repo.dir);
  try {
    const kept = await s.dispatch('remember', { text: 'keep me' });
    const bad = await s.dispatch('remember', { text: 42 });
    assert.equal(bad.isError, true);
    assert.match(bad.value.error.message, /text/);
    const unknown = await s.dispatch('no_such_tool');
    assert.equal(unknown.isError, true);
    const outside = await s.dispatch('scan', { paths: ['/etc/passwd'] });
    assert.equal(outside.isError, true);
    assert.match(outside.value.error.message, /outside this session's brain roots/);
    const notes = await s.dispatch('seek', { query: 'keep', scope: 'notes' });
    assert.equal(notes.value.notes[0].id, kept.value.id);
  } finally {
    await s.close();
    await f.cleanup();
  }
});
