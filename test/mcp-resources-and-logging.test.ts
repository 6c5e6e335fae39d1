/**
 * Resources and logging (issue 28), over stdio from a real `gardener mcp`: the status, the
 * skeleton, every note, a file's outline and a name's uses, read; paths confined and a secret
 * file served by its path only; an update for a subscribed resource after a tick that changed
 * the map; alerts as log messages, filtered by logging/setLevel.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSurface, NOTE_TEXT, type SurfaceSession } from './helpers/mcp-surface-repo.js';

let s: SurfaceSession;
before(async () => {
  s = await openSurface();
});
after(async () => {
  await s?.close();
});

const textOf = async (uri: string) => {
  const r = await s.c.client.readResource({ uri });
  assert.equal(r.contents.length, 1);
  assert.equal(r.contents[0]!.uri, uri);
  return { text: (r.contents[0] as { text: string }).text, mimeType: r.contents[0]!.mimeType };
};

const refusedAsNotFound = (err: Error & { code?: number }) => {
  assert.equal(err.code, -32002, err.message);
  return true;
};

test('resources/list holds the status, the skeleton and one resource per note', async () => {
  const { resources } = await s.c.client.listResources();
  const uris = resources.map((r) => r.uri);
  assert.deepEqual(uris, ['gardener://status', 'gardener://skeleton', `gardener://notes/${s.noteId}`]);
  for (const r of resources) assert.ok(r.name && r.mimeType, `${r.uri} has a name and a type`);
  assert.equal(resources[2]!.title, NOTE_TEXT.slice(0, 79) + '…');
  const { resourceTemplates } = await s.c.client.listResourceTemplates();
  assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), ['gardener://outline/{+path}', 'gardener://uses/{name}']);
});

test('the status resource gives the counts and the freshness', async () => {
  const { text, mimeType } = await textOf('gardener://status');
  assert.equal(mimeType, 'application/json');
  const status = JSON.parse(text);
  assert.ok(status.files >= 3 && status.symbols >= 4, text);
  assert.equal(status.notes, 1);
  assert.equal(status.alerts, 0);
  assert.match(status.freshness.fresh_as_of, /^\d{4}-/);
});

test('the skeleton resource is Markdown: none yet, then the candidate with its rooms', async () => {
  assert.match((await textOf('gardener://skeleton')).text, /^# Skeleton\n\nNone yet\. no skeleton yet: call skeleton_candidate/);
  assert.equal((await s.c.call('skeleton_candidate')).isError, false);
  const { text, mimeType } = await textOf('gardener://skeleton');
  assert.equal(mimeType, 'text/markdown');
  assert.match(text, /^# Skeleton: candidate/);
  assert.match(text, /\n## \S+/, 'a room heading');
  assert.match(text, /- globs: `/);
  assert.match(text, /Freshness: map fresh as of/);
});

test('a note resource holds the note', async () => {
  const { text } = await textOf(`gardener://notes/${s.noteId}`);
  assert.match(text, new RegExp(`^# Note ${s.noteId} \\(pinned\\)`));
  assert.ok(text.includes(NOTE_TEXT));
  assert.match(text, /Files: src\/config\.ts/);
  await assert.rejects(s.c.client.readResource({ uri: 'gardener://notes/999999' }), refusedAsNotFound);
});

test("a file's outline lists its definitions with their lines", async () => {
  const { text } = await textOf('gardener://outline/src/config.ts');
  assert.match(text, /^# src\/config\.ts \(typescript, \d+ lines\)/);
  assert.match(text, /- function `parseConfig` line 3 \(exported\)/);
  assert.match(text, /- function `parseArgs` line 7 \(exported\)/);
});

test('an outline outside the roots is refused, and a secret file is served by its path only', async () => {
  await assert.rejects(s.c.client.readResource({ uri: 'gardener://outline/../../etc/passwd' }), refusedAsNotFound);
  await assert.rejects(s.c.client.readResource({ uri: 'gardener://outline/%2Fetc%2Fpasswd' }), refusedAsNotFound);
  const { text } = await textOf('gardener://outline/.env');
  assert.match(text, /secret-bearing file/);
  assert.ok(!text.includes('API_KEY') && !text.includes('sk-not'), 'nothing of its content');
});

test("a name's uses resource is the refs answer", async () => {
  const { text, mimeType } = await textOf('gardener://uses/parseConfig');
  assert.equal(mimeType, 'application/json');
  const refs = JSON.parse(text);
  assert.equal(refs.name, 'parseConfig');
  assert.ok(refs.references.some((r: { path: string }) => r.path === 'src/cli.ts'), text);
});

test('an unknown resource is refused as not found', async () => {
  await assert.rejects(s.c.client.readResource({ uri: 'test://static-text' }), refusedAsNotFound);
  await assert.rejects(s.c.client.subscribeResource({ uri: `gardener://notes/${s.noteId}` }), refusedAsNotFound);
});

test('a subscriber to the status hears notifications/resources/updated after a tick that changed the map, before that call answers; not after unsubscribing', async () => {
  await s.c.client.subscribeResource({ uri: 'gardener://status' });
  const before = s.updates.length;
  s.repo.write('src/more.ts', 'export function more(): number {\n  return 1;\n}\n');
  const scan = await s.c.call('scan');
  assert.equal(scan.isError, false, JSON.stringify(scan.value));
  // The tick's notifications go out before the answer of the call that ran it (stdio keeps order).
  assert.deepEqual(s.updates.slice(before), ['gardener://status']);
  await s.c.client.unsubscribeResource({ uri: 'gardener://status' });
  const mark = s.logs.length;
  s.repo.write('src/more2.ts', 'export function more2(): number {\n  return 2;\n}\n');
  assert.equal((await s.c.call('scan')).isError, false);
  assert.ok(s.logs.slice(mark).some((m) => m.data?.event === 'map_advanced'), 'the tick changed the map (its info message came)');
  assert.equal(s.updates.length, before + 1, 'no update after unsubscribing');
});

test('remember and forget send notifications/resources/list_changed (the notes are resources)', async () => {
  const before = s.resourceListChanges();
  const note = await s.c.call('remember', { text: 'a second note' });
  assert.equal((await s.c.call('forget', { id: note.value.id })).isError, false);
  assert.ok(s.resourceListChanges() >= before + 2, `${s.resourceListChanges() - before} list_changed`);
});

test('alerts arrive as log messages at their level, and logging/setLevel filters what is below it', async () => {
  await s.c.client.setLoggingLevel('warning');
  const atWarning = s.logs.length;
  s.repo.write('.gardener/notes/bad-1.md', 'just text, no front matter\n');
  s.repo.write('src/warned.ts', 'export const warned = 1;\n');
  assert.equal((await s.c.call('scan')).isError, false);
  const sinceWarning = s.logs.slice(atWarning);
  const warning = sinceWarning.find((m) => m.data?.code === 'team_note_skipped' && m.data.path === '.gardener/notes/bad-1.md');
  assert.ok(warning, `the skipped note's alert came as a log message: ${JSON.stringify(sinceWarning)}`);
  assert.equal(warning.level, 'warning');
  assert.equal(warning.data.event, 'alert');
  assert.deepEqual(sinceWarning.filter((m) => m.level === 'info'), [], "the tick's info message was held back at warning");

  await s.c.client.setLoggingLevel('error');
  const atError = s.logs.length;
  s.repo.write('.gardener/notes/bad-2.md', 'more text, no front matter\n');
  assert.equal((await s.c.call('scan')).isError, false);
  assert.deepEqual(s.logs.slice(atError), [], 'nothing below error came');
  const alerts = await s.c.call('alerts_list');
  assert.ok(alerts.value.alerts.some((a: { path: string }) => a.path === '.gardener/notes/bad-2.md'), 'the alert was recorded all the same');

  await s.c.client.setLoggingLevel('info');
  const atInfo = s.logs.length;
  s.repo.write('src/after.ts', 'export const after = 1;\n');
  assert.equal((await s.c.call('scan')).isError, false);
  assert.deepEqual(s.logs.slice(atInfo).map((m) => [m.level, m.data.event]), [['info', 'map_advanced']], 'back at info, the next tick is heard');
});
