/**
 * The pool's memory of paths git now ignores (src/pool/leaving-paths.ts): a drain's batch is
 * told which of its items leave the map unread; a batch that failed gives them back for its
 * retry; a path a later detection lists as present again (no longer ignored) is forgotten.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LeavingPaths } from '../src/pool/leaving-paths.js';
import type { DetectResult } from '../src/detect/index.js';
import type { HashExtractTask } from '../workers/types.js';

const detected = (ignored: string[], present: string[] = []): DetectResult => ({
  backend: 'git',
  head: null,
  inventory: false,
  entries: [...ignored.map((path) => ({ path, size: 0, mtimeMs: 0, deleted: true })), ...present.map((path) => ({ path, size: 1, mtimeMs: 1, deleted: false }))],
  dirty: [],
  fallback: null,
  gitMs: 0,
  ignored,
});
const batch = (...paths: string[]): HashExtractTask => ({ roots: { 1: '/r' }, items: paths.map((path, i) => ({ id: i + 10, rootId: 1, path, knownHash: 'h' })), maxIndexBytes: 1 });

test('a batch is told which items leave unread, once; a failed batch gives them back', () => {
  const leaving = new LeavingPaths();
  leaving.record('/r', detected(['gen/a.ts', 'gen/b.ts']));
  const task = batch('src/x.ts', 'gen/a.ts');
  assert.deepEqual(leaving.take(task), [11]);
  assert.equal(leaving.take(task), undefined, 'handed out once');
  leaving.giveBack(task, [11]);
  assert.deepEqual(leaving.take(task), [11], 'the retry is told again');
  assert.deepEqual(leaving.take(batch('gen/b.ts')), [10]);
});

test('a path listed as present again is no longer ignored: it is read', () => {
  const leaving = new LeavingPaths();
  leaving.record('/r', detected(['gen/a.ts']));
  leaving.record('/r', detected([], ['gen/a.ts']));
  assert.equal(leaving.take(batch('gen/a.ts')), undefined);
});
