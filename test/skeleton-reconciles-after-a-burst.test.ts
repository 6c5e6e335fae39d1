/**
 * The auto-reconciler's laws, on real brains and real ticks, with an injected clock and timers:
 * nothing here waits on wall-clock time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { makeGitRepo, type GitRepo } from './helpers/git-repo.js';
import { makeTestBrains, type TestBrains } from './helpers/brains.js';
import { ManualClock } from './helpers/manual-clock.js';
import { writeCandidate, writeRatified } from './helpers/skeleton.js';
import { runTick, Vigils } from '../src/vigil/index.js';
import { listAlerts } from '../src/store/index.js';
import {
  AUTO_RECONCILE_QUIET_WINDOW_MS as WINDOW, Reconciler, readSkeleton, readSkeletonMeta, unrefused,
  type ReconcileOutcome, type ReconcileStore, type Room,
} from '../src/skeleton/index.js';
import type { Brain } from '../src/brain/index.js';

const ROOMS: Room[] = [
  { name: 'a', globs: ['src/a/**'], purpose: 'the a side', may_use: [] },
  { name: 'b', globs: ['src/b/**'], purpose: 'the b side' },
];

const FILES = {
  'src/a/x.ts': 'export const x = 1;\n',
  'src/a/w.ts': "import { x } from './x.js';\nexport const w = x;\n",
  'src/b/y.ts': 'export const y = 2;\n',
};

interface World {
  repo: GitRepo;
  t: TestBrains;
  brain: Brain;
  clock: ManualClock;
}

async function world(opts: { ratify?: boolean } = {}): Promise<World> {
  const repo = await makeGitRepo(FILES);
  const t = await makeTestBrains();
  const clock = new ManualClock(1_800_000_000_000);
  const { brain } = await t.brains.ensure(repo.dir);
  await runTick(brain, { inventory: true, now: clock.now });
  if (opts.ratify !== false) await writeRatified(brain, ROOMS, clock.now());
  // Start from a quiet brain: the inventory's own deadline is not what these tests are about.
  await brain.writer.skeletonClearDeadline(Number.MAX_SAFE_INTEGER);
  return { repo, t, brain, clock };
}

async function done(w: World): Promise<void> {
  await w.t.cleanup();
  await w.repo.cleanup();
}

function vigilsFor(w: World): Vigils {
  return new Vigils({ log: () => {}, now: w.clock.now, tickOptions: { now: w.clock.now }, reconcile: { now: w.clock.now, timers: w.clock } });
}

/** One tick that changes the map, waiting until the reconciler has re-armed for it. */
async function burstTick(w: World, vigils: Vigils, file: string, content: string): Promise<void> {
  w.repo.write(file, content);
  const vigil = vigils.get(w.brain);
  const r = vigils.reconciler(w.brain.id)!;
  const scheduled = once(r, 'scheduled');
  const outcome = await vigil.request();
  assert.ok(outcome.ok && outcome.report.drained > 0, 'the tick changed the map');
  await scheduled;
}

/** The brain's reconciler once it has scheduled on start, and the outcomes it reports from then on. */
async function watchReconciles(w: World, vigils: Vigils): Promise<{ r: Reconciler; outcomes: ReconcileOutcome[] }> {
  vigils.get(w.brain);
  const r = vigils.reconciler(w.brain.id)!;
  await once(r, 'scheduled');
  const outcomes: ReconcileOutcome[] = [];
  r.on('reconcile', (o: ReconcileOutcome) => outcomes.push(o));
  return { r, outcomes };
}

test('the quiet window coalesces a burst of ticks into one reconcile', async () => {
  const w = await world();
  const vigils = vigilsFor(w);
  try {
    const { r, outcomes } = await watchReconciles(w, vigils);
    const start = w.clock.now();
    await burstTick(w, vigils, 'src/a/n1.ts', 'export const n1 = 1;\n');
    w.clock.advance(10_000);
    await burstTick(w, vigils, 'src/a/n2.ts', 'export const n2 = 2;\n');
    w.clock.advance(10_000);
    await burstTick(w, vigils, 'src/b/n3.ts', 'export const n3 = 3;\n');
    const lastTickAt = w.clock.now();
    assert.equal(readSkeletonMeta(w.brain.reader).reconcileDueAt, lastTickAt + WINDOW, 'every tick pushed the persisted deadline');
    w.clock.advanceTo(lastTickAt + WINDOW - 1);
    await r.idle();
    assert.equal(outcomes.length, 0, 'nothing before the window after the last tick has passed');
    w.clock.advanceTo(lastTickAt + WINDOW);
    await r.idle();
    w.clock.advanceTo(start + 10 * WINDOW);
    await r.idle();
    assert.deepEqual(outcomes.map((o) => o.kind), ['reconciled'], 'one reconcile for the whole burst');
    assert.equal(readSkeleton(w.brain.reader, 'ratified')!.derived.rooms[0]!.files, 4, 'derived data refreshed: room a has its new files');
    assert.equal(readSkeletonMeta(w.brain.reader).reconcileDueAt, null, 'the deadline is settled');
  } finally {
    await vigils.close();
    await done(w);
  }
});

test('a live candidate lease makes the reconciler yield and reschedule one window later', async () => {
  const w = await world();
  const r = new Reconciler(w.brain.id, w.brain.writer, { now: w.clock.now, timers: w.clock, log: () => {} });
  try {
    const before = readSkeletonMeta(w.brain.reader).storeVersion;
    const lease = unrefused(await w.brain.writer.skeletonLease('take', 'editor-1', 600, w.clock.now()));
    assert.equal(lease.held, true);
    const outcome = await r.reconcileNow();
    assert.equal(outcome.kind, 'yielded');
    assert.ok(outcome.kind === 'yielded' && outcome.holder === 'editor-1');
    assert.equal(r.dueAt, w.clock.now() + WINDOW, 'rescheduled one window later');
    assert.equal(readSkeletonMeta(w.brain.reader).reconcileDueAt, w.clock.now() + WINDOW, 'and persisted');
    assert.equal(readSkeletonMeta(w.brain.reader).storeVersion, before, 'nothing was written');
    unrefused(await w.brain.writer.skeletonLease('release', 'editor-1', 600, w.clock.now()));
    const next = once(r, 'reconcile');
    w.clock.advance(WINDOW);
    const [later] = (await next) as [ReconcileOutcome];
    assert.equal(later.kind, 'reconciled', 'the lease gone, the next window reconciles');
  } finally {
    await r.close();
    await done(w);
  }
});

test('a candidate-only brain is skipped: a candidate is refreshed by a re-scan, not a reconcile', async () => {
  const w = await world({ ratify: false });
  const r = new Reconciler(w.brain.id, w.brain.writer, { now: w.clock.now, timers: w.clock, log: () => {} });
  try {
    await writeCandidate(w.brain, ROOMS, w.clock.now());
    const before = readSkeletonMeta(w.brain.reader).storeVersion;
    await w.brain.writer.skeletonSetDeadline(w.clock.now());
    const outcome = await r.reconcileNow();
    assert.deepEqual(outcome, { kind: 'skipped', reason: 'candidate_only' });
    assert.equal(readSkeletonMeta(w.brain.reader).storeVersion, before, 'the candidate was not touched');
    assert.equal(readSkeletonMeta(w.brain.reader).reconcileDueAt, null);
    assert.equal(r.dueAt, null, 'and nothing is rescheduled');
  } finally {
    await r.close();
    await done(w);
  }
});

test('a version conflict gets exactly one retry, then an auto_reconcile_conflict alert, never a loop', async () => {
  const w = await world();
  let reads = 0;
  let writes = 0;
  // Someone else writes the skeleton between every read and write of the reconciler.
  const store: ReconcileStore = {
    skeletonMeta: () => w.brain.writer.skeletonMeta(),
    skeletonReadForReconcile: async (now) => {
      reads++;
      const read = await w.brain.writer.skeletonReadForReconcile(now);
      unrefused(await w.brain.writer.skeletonPropose(now, 'ratified'));
      return read;
    },
    skeletonWriteReconciled: (v, d, now) => {
      writes++;
      return w.brain.writer.skeletonWriteReconciled(v, d, now);
    },
    skeletonSetDeadline: (at) => w.brain.writer.skeletonSetDeadline(at),
    skeletonClearDeadline: (at) => w.brain.writer.skeletonClearDeadline(at),
    recordAlert: (a, now) => w.brain.writer.recordAlert(a, now),
  };
  const r = new Reconciler(w.brain.id, store, { now: w.clock.now, timers: w.clock, log: () => {} });
  try {
    const outcome = await r.reconcileNow();
    assert.equal(outcome.kind, 'conflict');
    assert.equal(reads, 2, 'read twice: the first try and exactly one retry');
    assert.equal(writes, 2);
    const alerts = listAlerts(w.brain.reader).filter((a) => a.code === 'auto_reconcile_conflict');
    assert.equal(alerts.length, 1);
    assert.match(alerts[0]!.message, /store_version/);
    assert.equal(r.dueAt, null, 'no retry is scheduled');
    assert.equal(w.clock.pending, 0);
  } finally {
    await r.close();
    await done(w);
  }
});

test('a conflict that clears on the retry reconciles, once', async () => {
  const w = await world();
  let reads = 0;
  const store: ReconcileStore = {
    ...pick(w.brain),
    skeletonReadForReconcile: async (now) => {
      const read = await w.brain.writer.skeletonReadForReconcile(now);
      if (reads++ === 0) unrefused(await w.brain.writer.skeletonPropose(now, 'ratified'));
      return read;
    },
  };
  const r = new Reconciler(w.brain.id, store, { now: w.clock.now, timers: w.clock, log: () => {} });
  try {
    const outcome = await r.reconcileNow();
    assert.ok(outcome.kind === 'reconciled' && outcome.retried);
    assert.equal(reads, 2);
    assert.equal(listAlerts(w.brain.reader).filter((a) => a.code === 'auto_reconcile_conflict').length, 0);
  } finally {
    await r.close();
    await done(w);
  }
});

test('a process restarted inside the window still reconciles when it comes back', async () => {
  const w = await world();
  let first = vigilsFor(w); // one process's vigils…
  try {
    first.get(w.brain);
    await once(first.reconciler(w.brain.id)!, 'scheduled');
    await burstTick(w, first, 'src/b/late.ts', 'export const late = 1;\n');
    const due = w.clock.now() + WINDOW;
    w.clock.advance(10_000);
    await first.close(); // …ends inside the window (its timer is gone with it)
    assert.equal(w.clock.pending, 0);
    w.clock.advance(10_000);
    first = vigilsFor(w); // the process comes back
    first.get(w.brain);
    const r = first.reconciler(w.brain.id)!;
    await once(r, 'scheduled');
    assert.equal(r.dueAt, due, 'armed for the persisted deadline');
    const next = once(r, 'reconcile');
    w.clock.advanceTo(due);
    const [outcome] = (await next) as [ReconcileOutcome];
    assert.equal(outcome.kind, 'reconciled');
    assert.equal(readSkeleton(w.brain.reader, 'ratified')!.derived.rooms[1]!.files, 2, 'room b has the file made before the restart');
  } finally {
    await first.close();
    await done(w);
  }
});

test('a drift alert names each breaking import and each new file in no room, once per reconcile', async () => {
  const w = await world();
  const r = new Reconciler(w.brain.id, w.brain.writer, { now: w.clock.now, timers: w.clock, log: () => {} });
  try {
    w.repo.write('src/a/x.ts', "import { y } from '../b/y.js';\nexport const x = y;\n");
    w.repo.write('src/a/v.ts', "import { y } from '../b/y.js';\nexport const v = y;\n");
    w.repo.write('tools/gen.ts', 'export const gen = 1;\n');
    await runTick(w.brain, { now: w.clock.now });
    const outcome = await r.reconcileNow();
    assert.ok(outcome.kind === 'reconciled' && outcome.driftAlertId !== null);
    const drift = listAlerts(w.brain.reader).filter((a) => a.code === 'skeleton_drift');
    assert.equal(drift.length, 1, 'one alert for the whole reconcile');
    assert.match(drift[0]!.message, /src\/a\/x\.ts:1 imports \.\.\/b\/y\.js \(src\/b\/y\.ts\): room a may not use room b/);
    assert.match(drift[0]!.message, /src\/a\/v\.ts:1 imports/);
    assert.match(drift[0]!.message, /1 new file in no room: tools\/gen\.ts/);
    const again = await r.reconcileNow();
    assert.ok(again.kind === 'reconciled' && again.driftAlertId === null, 'drift already reported is not reported again');
  } finally {
    await r.close();
    await done(w);
  }
});

function pick(brain: Brain): ReconcileStore {
  const wr = brain.writer;
  return {
    skeletonMeta: () => wr.skeletonMeta(),
    skeletonReadForReconcile: (now) => wr.skeletonReadForReconcile(now),
    skeletonWriteReconciled: (v, d, now) => wr.skeletonWriteReconciled(v, d, now),
    skeletonSetDeadline: (at) => wr.skeletonSetDeadline(at),
    skeletonClearDeadline: (at) => wr.skeletonClearDeadline(at),
    recordAlert: (a, now) => wr.recordAlert(a, now),
  };
}

test('a reconcile run before its deadline settles it: the timer does not reconcile the same map again', async () => {
  const w = await world();
  const vigils = vigilsFor(w);
  try {
    const { r, outcomes } = await watchReconciles(w, vigils);
    await burstTick(w, vigils, 'src/a/n1.ts', 'export const n1 = 1;\n');
    const dueAt = w.clock.now() + WINDOW;
    assert.equal(r.dueAt, dueAt);
    w.clock.advance(10_000);
    assert.equal((await r.reconcileNow()).kind, 'reconciled', 'asked early (a check, a shutdown), it reconciles the map as it is');
    assert.equal(readSkeletonMeta(w.brain.reader).reconcileDueAt, null, 'the deadline it covered is cleared, though not yet due');
    assert.equal(r.dueAt, null, 'and its timer disarmed');
    w.clock.advanceTo(dueAt + WINDOW);
    await r.idle();
    assert.deepEqual(outcomes.map((o) => o.kind), ['reconciled'], 'one reconcile, not a second one of the same map at the old deadline');
    // A tick after the reconcile started still gets its own.
    await burstTick(w, vigils, 'src/b/n2.ts', 'export const n2 = 2;\n');
    w.clock.advance(WINDOW);
    await r.idle();
    assert.deepEqual(outcomes.map((o) => o.kind), ['reconciled', 'reconciled']);
  } finally {
    await vigils.close();
    await done(w);
  }
});
