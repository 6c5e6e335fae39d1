import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains } from './helpers/brains.js';
import { makeTestSession } from './helpers/session.js';
import { runTick } from '../src/vigil/index.js';

/** Two rooms whose files match the task's words equally: only the room the task names differs. */
const FILES = {
  'src/billing/parse-invoice.ts': 'export function parseInvoiceTotal(input: string): number {\n  return Number(input);\n}\n',
  'src/shipping/parse-invoice.ts': 'export function parseInvoiceTotal(input: string): number {\n  return Number(input) * 2;\n}\n',
};

test('delegate names the ratified room of each packed file and boosts the room the task names', async () => {
  const repo = await makeGitRepo(FILES);
  const t = await makeTestBrains();
  const { brain } = await t.brains.ensure(repo.dir);
  await runTick(brain, { inventory: true });
  const s = await makeTestSession(t.brains, repo.dir);
  try {
    const before = await s.dispatch('delegate', { task: 'parse invoice total in shipping' });
    assert.equal(before.isError, undefined, JSON.stringify(before.value));
    assert.ok(before.value.files.every((f: { room?: string }) => f.room === undefined), 'no ratified skeleton: no rooms named');

    const proposed = await s.dispatch('skeleton_candidate', {});
    const edits = [
      ...proposed.value.rooms.map((r: { name: string }) => ({ op: 'remove_room', room: r.name })),
      { op: 'add_room', name: 'billing', globs: ['src/billing/**'], purpose: 'invoices' },
      { op: 'add_room', name: 'shipping', globs: ['src/shipping/**'], purpose: 'parcels' },
    ];
    const edited = await s.dispatch('skeleton_edit', { store_version: proposed.value.store_version, edits });
    assert.equal(edited.isError, undefined, JSON.stringify(edited.value));
    assert.equal((await s.dispatch('skeleton_ratify', { store_version: edited.value.store_version })).isError, undefined);

    for (const room of ['shipping', 'billing']) {
      const r = await s.dispatch('delegate', { task: `parse invoice total in ${room}` });
      assert.equal(r.isError, undefined, JSON.stringify(r.value));
      const files = r.value.files as { path: string; room: string }[];
      assert.equal(files[0]!.room, room, `the room the task names comes first: ${JSON.stringify(files.map((f) => [f.path, f.room]))}`);
      assert.deepEqual(new Set(files.map((f) => f.room)), new Set(['billing', 'shipping']), 'every packed file names its room');
    }
  } finally {
    await s.close();
    await t.cleanup();
    await repo.cleanup();
  }
});
