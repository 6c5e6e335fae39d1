/**
 * The skeleton's verbs through the dispatch seam: optimistic concurrency on store_version,
 * the advisory lease, and bad input answered with errors that name the field (nothing stored
 * is lost).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains } from './helpers/brains.js';
import { makeTestSession, type TestSession } from './helpers/session.js';
import { readSkeleton, unrefused } from '../src/skeleton/index.js';
import type { Brain } from '../src/brain/index.js';

const FILES = {
  'src/a/x.ts': "import { y } from '../b/y.js';\nexport const x = y;\n",
  'src/b/y.ts': 'export const y = 2;\n',
  'src/c/z.ts': 'export const z = 3;\n',
};

async function withSession(fn: (s: TestSession, brain: Brain) => Promise<void>): Promise<void> {
  const repo = await makeGitRepo(FILES);
  const t = await makeTestBrains();
  const { brain } = await t.brains.ensure(repo.dir);
  const s = await makeTestSession(t.brains, repo.dir);
  try {
    await fn(s, brain);
  } finally {
    await s.close();
    await t.cleanup();
    await repo.cleanup();
  }
}

/** A candidate with rooms a, b, c (one folder each); returns its store_version. */
async function abc(s: TestSession): Promise<number> {
  const proposed = await s.dispatch('skeleton_candidate', {});
  assert.equal(proposed.isError, undefined, JSON.stringify(proposed.value));
  const edits = [
    ...proposed.value.rooms.map((r: { name: string }) => ({ op: 'remove_room', room: r.name })),
    { op: 'add_room', name: 'a', globs: ['src/a/**'], purpose: 'a' },
    { op: 'add_room', name: 'b', globs: ['src/b/**'], purpose: 'b' },
    { op: 'add_room', name: 'c', globs: ['src/c/**'], purpose: 'c' },
  ];
  const edited = await s.dispatch('skeleton_edit', { store_version: proposed.value.store_version, edits });
  assert.equal(edited.isError, undefined, JSON.stringify(edited.value));
  return edited.value.store_version;
}

const errorOf = (r: { isError?: boolean; value: any }) => {
  assert.equal(r.isError, true, `expected an error, got ${JSON.stringify(r.value)}`);
  return r.value.error as { code: string; message: string };
};

test('a stale store_version on edit or ratify is refused with the current version, and nothing changes', async () => {
  await withSession(async (s, brain) => {
    const v = await abc(s);
    const ok = await s.dispatch('skeleton_edit', { store_version: v, edits: [{ op: 'set_purpose', room: 'a', purpose: 'the a side' }] });
    assert.equal(ok.value.store_version, v + 1, 'every write bumps store_version');
    const stale = errorOf(await s.dispatch('skeleton_edit', { store_version: v, edits: [{ op: 'rename', room: 'a', to: 'alpha' }] }));
    assert.equal(stale.code, 'GDN_SKELETON_CONFLICT');
    assert.match(stale.message, new RegExp(`store_version ${v} is stale.*store_version ${v + 1}`));
    assert.deepEqual(readSkeleton(brain.reader, 'candidate')!.rooms.map((r) => r.name), ['a', 'b', 'c'], 'the stale edit changed nothing');
    const staleRatify = errorOf(await s.dispatch('skeleton_ratify', { store_version: v }));
    assert.equal(staleRatify.code, 'GDN_SKELETON_CONFLICT');
    assert.equal(readSkeleton(brain.reader, 'ratified'), null);
    const ratified = await s.dispatch('skeleton_ratify', { store_version: v + 1 });
    assert.equal(ratified.value.state, 'ratified');
    assert.equal(ratified.value.rooms[0].purpose, 'the a side');
  });
});

test('edits: rename, merge, split by globs, move globs, may_use; overlapping globs go to the first room', async () => {
  await withSession(async (s) => {
    let v = await abc(s);
    const step = async (edits: unknown[]) => {
      const r = await s.dispatch('skeleton_edit', { store_version: v, edits });
      assert.equal(r.isError, undefined, JSON.stringify(r.value));
      v = r.value.store_version;
      return r.value;
    };
    let view = await step([{ op: 'rename', room: 'c', to: 'core' }, { op: 'set_may_use', room: 'a', may_use: ['core'] }]);
    assert.deepEqual(view.rooms.map((r: any) => r.name), ['a', 'b', 'core']);
    assert.equal(view.violations.count, 1, 'a imports b, and a may only use core');
    assert.deepEqual(view.violations.items[0], { file: 'src/a/x.ts', line: 1, module: '../b/y.js', from: 'a', to: 'b' });
    view = await step([{ op: 'merge', rooms: ['b', 'core'], into: 'shared' }]);
    assert.deepEqual(view.rooms.map((r: any) => [r.name, r.files]), [['a', 1], ['shared', 2]]);
    assert.deepEqual(view.rooms[0].may_use, ['shared'], 'may_use follows the merge');
    view = await step([{ op: 'split', room: 'shared', into: [{ name: 'z', globs: ['src/c/**'] }] }]);
    assert.deepEqual(view.rooms.map((r: any) => [r.name, r.files]), [['a', 1], ['z', 1], ['shared', 1]]);
    // Overlap: `src/**` in a later room does not take files from earlier rooms.
    view = await step([{ op: 'add_room', name: 'everything', globs: ['src/**'], purpose: 'the rest' }]);
    assert.deepEqual(view.rooms.map((r: any) => r.files), [1, 1, 1, 0]);
    view = await step([{ op: 'move_globs', globs: ['src/c/**'], to: 'a' }, { op: 'remove_room', room: 'z' }]);
    assert.deepEqual(view.rooms.map((r: any) => [r.name, r.files]), [['a', 2], ['shared', 1], ['everything', 0]]);
  });
});

test('globs that match nothing are accepted and reported', async () => {
  await withSession(async (s) => {
    const v = await abc(s);
    const r = await s.dispatch('skeleton_edit', { store_version: v, edits: [{ op: 'add_room', name: 'later', globs: ['src/not-yet/**'] }] });
    assert.equal(r.isError, undefined);
    assert.deepEqual(r.value.empty_globs, [{ room: 'later', glob: 'src/not-yet/**' }]);
  });
});

test('bad edits name the field, and nothing stored is lost', async () => {
  await withSession(async (s, brain) => {
    const v = await abc(s);
    const cases: [unknown[], RegExp][] = [
      [[{ op: 'set_may_use', room: 'a', may_use: ['nowhere'] }], /edits\[0\]\.may_use\[0\]: "nowhere" is not a room/],
      [[{ op: 'add_room', name: 'd', globs: ['x/**'], may_use: ['ghost'] }], /rooms\[3\]\.may_use\[0\]: "ghost" is not a room/],
      [[{ op: 'rename', room: 'a', to: 'B' }], /edits\[0\]\.to: "B" collides with the existing room "b"/],
      [[{ op: 'add_room', name: 'c', globs: ['x/**'] }], /edits\[0\]\.name: "c" collides/],
      [[{ op: 'rename', room: 'nope', to: 'x' }], /edits\[0\]\.room: "nope" is not a room of the candidate/],
      [[{ op: 'add_room', name: 'd', globs: ['/abs/**'] }], /rooms\[3\]\.globs\[0\]: "\/abs\/\*\*" is absolute/],
      [[{ op: 'add_room', name: 'bad name!', globs: ['x/**'] }], /edits\[0\]\.name: "bad name!" is not a usable room name/],
      [[{ op: 'set_purpose', room: 'a', purpose: 'two\nlines' }], /edits\[0\]\.purpose: a purpose is one line/],
    ];
    for (const [edits, message] of cases) {
      const e = errorOf(await s.dispatch('skeleton_edit', { store_version: v, edits }));
      assert.equal(e.code, 'GDN_INVALID_ARGUMENT', e.message);
      assert.match(e.message, message);
    }
    const shape = errorOf(await s.dispatch('skeleton_edit', { store_version: v, edits: [{ op: 'explode', room: 'a' }] }));
    assert.match(shape.message, /edits\.0\.op/);
    const missing = errorOf(await s.dispatch('skeleton_edit', { edits: [{ op: 'remove_room', room: 'a' }] }));
    assert.match(missing.message, /store_version/);
    assert.deepEqual(readSkeleton(brain.reader, 'candidate')!.rooms.map((r) => r.name), ['a', 'b', 'c'], 'the candidate is as it was');
    const view = await s.dispatch('skeleton', { which: 'candidate' });
    assert.equal(view.value.store_version, v, 'no refused edit bumped the version');
  });
});

test('ratify with no candidate, and an edit on a ratified skeleton, are refused with what to do', async () => {
  await withSession(async (s) => {
    const none = errorOf(await s.dispatch('skeleton_ratify', { store_version: 0 }));
    assert.equal(none.code, 'GDN_NO_CANDIDATE');
    assert.match(none.message, /skeleton_ratify needs a candidate skeleton and there is none: call skeleton_candidate/);
    const v = await abc(s);
    const ratified = await s.dispatch('skeleton_ratify', { store_version: v });
    const onRatified = errorOf(await s.dispatch('skeleton_edit', { store_version: ratified.value.store_version, edits: [{ op: 'rename', room: 'a', to: 'x' }] }));
    assert.equal(onRatified.code, 'GDN_NO_CANDIDATE');
    assert.match(onRatified.message, /only a ratified skeleton.*skeleton_candidate \{from: "ratified"\}/);
    const again = await s.dispatch('skeleton_candidate', { from: 'ratified' });
    assert.deepEqual(again.value.rooms.map((r: any) => r.name), ['a', 'b', 'c'], 'a candidate started from the ratified rooms');
    const edited = await s.dispatch('skeleton_edit', { store_version: again.value.store_version, edits: [{ op: 'rename', room: 'a', to: 'x' }] });
    assert.equal(edited.isError, undefined);
    const shown = await s.dispatch('skeleton', {});
    assert.equal(shown.value.state, 'ratified');
    assert.deepEqual(shown.value.rooms.map((r: any) => r.name), ['a', 'b', 'c'], 'the ratified rooms change only by ratifying a candidate');
    assert.equal(shown.value.has_candidate, true);
    const north = await s.dispatch('north', {});
    assert.deepEqual(north.value.rooms.map((r: any) => [r.name, r.files]), [['a', 1], ['b', 1], ['c', 1]], 'north shows the ratified rooms');
  });
});

test('the candidate lease is advisory: a second taker is told who holds it and until when', async () => {
  await withSession(async (s, brain) => {
    const mine = await s.dispatch('candidate_lease', { action: 'take', ttl_s: 60 });
    assert.equal(mine.value.held, true);
    const other = unrefused(await brain.writer.skeletonLease('take', 'someone-else', 60, Date.now()));
    assert.deepEqual({ held: other.held, holder: (other as any).holder }, { held: false, holder: mine.value.you });
    assert.ok('until' in other && typeof other.until === 'number' && other.until > Date.now());
    const renewed = await s.dispatch('candidate_lease', { action: 'renew', ttl_s: 120 });
    assert.equal(renewed.value.held, true);
    const released = await s.dispatch('candidate_lease', { action: 'release' });
    assert.equal(released.value.released, true);
    for (const ttl of [-5, 0, 1e9, 1.5]) {
      const e = errorOf(await s.dispatch('candidate_lease', { action: 'take', ttl_s: ttl }));
      assert.match(e.message, /ttl_s/, `ttl_s ${ttl}`);
    }
  });
});

test('skeleton reads and never ticks; it says when there is nothing yet', async () => {
  await withSession(async (s) => {
    const empty = await s.dispatch('skeleton', {});
    assert.equal(empty.value.state, 'none');
    assert.match(empty.value.hint, /skeleton_candidate/);
    assert.equal(s.session.toolsByName.get('skeleton')!.traffic, 'recall');
    assert.equal(s.session.toolsByName.get('skeleton_candidate')!.traffic, 'heavy');
  });
});
