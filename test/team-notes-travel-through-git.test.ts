/**
 * Team notes travel through git (issue 30): A shares a note tied to a file and a definition,
 * commits and pushes; B pulls and after B's next tick B's boot_memory has it with its ties; B
 * edits the tied file and the note is stale for B; A removes the note, pushes, B pulls and it is
 * gone. Two real clones, a bare remote, two Gardener homes, in-process sessions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTestBrains } from './helpers/brains.js';
import { makeTestSession } from './helpers/session.js';
import { makeTeamClones } from './helpers/team-clones.js';

const FILES = {
  'config/limits.ts': 'export const RETRY_BUDGET = 3;\n\nexport function retryBudget(): number {\n  return RETRY_BUDGET;\n}\n',
  'src/client.ts': 'import { retryBudget } from "../config/limits.js";\nexport const tries = retryBudget();\n',
};

const ok = (r: { isError?: boolean; value: unknown }) => assert.ok(!r.isError, JSON.stringify(r.value));

type NoteOut = { id: number; text: string; scope?: string; file?: string; files: string[]; definitions?: { path: string; name: string }[]; stale?: { path: string }[] };

test('a team note shared by A reaches B through a push and a pull, goes stale for B on an edit, and leaves when A removes it', { timeout: 120_000 }, async () => {
  const clones = await makeTeamClones(FILES);
  const homeA = await makeTestBrains();
  const homeB = await makeTestBrains();
  const a = await makeTestSession(homeA.brains, clones.a.dir);
  const b = await makeTestSession(homeB.brains, clones.b.dir);
  try {
    ok(await a.dispatch('ingest'));
    ok(await b.dispatch('ingest'));
    const text = 'the retry budget lives in config/limits.ts; never hard-code it';
    const shared = await a.dispatch('remember', { text, scope: 'team', files: ['config/limits.ts'], definitions: [{ path: 'config/limits.ts', name: 'retryBudget' }], tags: ['retry'] });
    ok(shared);
    const file = shared.value.file as string;
    assert.match(file, /^\.gardener\/notes\/[\w-]+\.md$/);
    const body = readFileSync(join(clones.a.dir, file), 'utf8');
    assert.match(body, /^---\nid: /);
    assert.match(body, /author: Ada Lovelace <ada@example\.invalid>/);
    assert.ok(body.includes(text));

    clones.a.commit('a note on the retry budget');
    clones.a.git('push', '-q');
    clones.b.git('pull', '-q', '--ff-only');
    ok(await b.dispatch('scan'));
    const bootB = await b.dispatch('boot_memory');
    const got = (bootB.value.notes as NoteOut[]).find((n) => n.text === text);
    assert.ok(got, `B's boot_memory has A's note: ${JSON.stringify(bootB.value.notes)}`);
    assert.equal(got.scope, 'team');
    assert.equal(got.file, file);
    assert.deepEqual(got.files, ['config/limits.ts']);
    assert.deepEqual(got.definitions, [{ path: 'config/limits.ts', name: 'retryBudget' }]);
    assert.equal(got.stale, undefined, 'fresh for B: B has the content A tied it to');
    const seekB = await b.dispatch('seek', { query: 'retry budget', scope: 'notes' });
    assert.ok((seekB.value.notes as NoteOut[]).some((n) => n.id === got.id), 'seek finds it');
    const code = await b.dispatch('seek', { query: 'hard-code', scope: 'code' });
    assert.ok(!(code.value.code as { path: string }[]).some((h) => h.path.startsWith('.gardener/')), 'a note file is a note, not code');

    clones.b.write('config/limits.ts', 'export const RETRY_BUDGET = 5;\n\nexport function retryBudget(): number {\n  return RETRY_BUDGET;\n}\n');
    ok(await b.dispatch('scan'));
    const staleB = ((await b.dispatch('boot_memory')).value.notes as NoteOut[]).find((n) => n.id === got.id)!;
    assert.deepEqual(staleB.stale?.map((s) => s.path), ['config/limits.ts'], JSON.stringify(staleB));
    clones.b.git('checkout', '-q', '--', 'config/limits.ts');

    const forgot = await a.dispatch('forget', { id: shared.value.id });
    ok(forgot);
    assert.equal(forgot.value.file, file);
    assert.equal(existsSync(join(clones.a.dir, file)), false, "forget removes the team note's file");
    clones.a.commit('drop the note');
    clones.a.git('push', '-q');
    clones.b.git('pull', '-q', '--ff-only');
    ok(await b.dispatch('scan'));
    const after = (await b.dispatch('boot_memory')).value.notes as NoteOut[];
    assert.equal(after.find((n) => n.text === text), undefined, 'gone for B after the pull');
  } finally {
    await a.close();
    await b.close();
    await homeA.cleanup();
    await homeB.cleanup();
    await clones.cleanup();
  }
});
