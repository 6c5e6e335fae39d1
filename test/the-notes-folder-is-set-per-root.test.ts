/**
 * The team notes folder is a root's setting (issue 30): `.gardener/config.json` names it, so the
 * whole team reads the root the same way. `remember {scope: "team"}` writes there, the pipeline
 * reads its files as notes (not code); a change of folder moves what is a note on the next tick
 * (a note whose file moved with it keeps its id); a config that is not valid is one alert naming
 * the file and why, and the root keeps the folder it had.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from './helpers/git-repo.js';
import { makeTestBrains } from './helpers/brains.js';
import { makeTestSession, withMappedSession, type TestSession } from './helpers/session.js';
import { MAX_ROOT_CONFIG_BYTES, parseRootConfig, checkNotesDir } from '../src/detect/index.js';

const ok = (r: { isError?: boolean; value: unknown }) => assert.ok(!r.isError, JSON.stringify(r.value));
const CONFIG = '.gardener/config.json';
const note = (id: string, text: string) => `---\nid: ${id}\ncreated: 2026-12-01T10:00:00Z\n---\n${text}\n`;

type NoteOut = { id: number; text: string };
type Alert = { code: string; message: string; path: string | null };
const notes = async (s: TestSession): Promise<NoteOut[]> => (await s.dispatch('boot_memory')).value.notes as NoteOut[];
const codePaths = async (s: TestSession, query: string): Promise<string[]> => [...new Set(((await s.dispatch('seek', { query, scope: 'code' })).value.code as { path: string }[]).map((h) => h.path))];
const configAlerts = async (s: TestSession): Promise<Alert[]> => ((await s.dispatch('alerts_list')).value.alerts as Alert[]).filter((a) => a.code === 'root_config_invalid');

test('a root whose config names a notes folder gets its team notes written there and read back as notes, not code', { timeout: 120_000 }, async () => {
  await withMappedSession({ 'src/a.ts': 'export const a = 1;\n', [CONFIG]: '{"notesDir": "docs/decisions"}\n' }, async (s, repo) => {
    const r = await s.dispatch('remember', { text: 'the zephyr budget lives in src/a.ts', scope: 'team', files: ['src/a.ts'] });
    ok(r);
    assert.match(r.value.file as string, /^docs\/decisions\/[^/]+\.md$/, 'written in the configured folder');
    assert.ok(existsSync(join(repo.dir, r.value.file as string)));
    assert.equal(existsSync(join(repo.dir, '.gardener/notes')), false, 'nothing in the default folder');
    repo.commit('a team note');
    ok(await s.dispatch('scan'));
    assert.deepEqual((await notes(s)).map((n) => n.text), ['the zephyr budget lives in src/a.ts'], 'one note, read back once');
    assert.deepEqual(await codePaths(s, 'zephyr'), [], 'the note file is not code');

    // A teammate's note arriving in that folder (a pull) is a note after the next tick.
    repo.write('docs/decisions/from-b.md', note('from-b', 'the quokka cache is per tenant'));
    ok(await s.dispatch('scan'));
    assert.ok((await notes(s)).some((n) => n.text === 'the quokka cache is per tenant'));
    assert.deepEqual(await codePaths(s, 'quokka'), []);
  });
});

test('a folder that is not a git work tree reads its config too', { timeout: 120_000 }, async () => {
  const dir = await makeTempDir();
  const home = await makeTestBrains();
  mkdirSync(join(dir.dir, '.gardener'), { recursive: true });
  mkdirSync(join(dir.dir, 'notes'), { recursive: true });
  writeFileSync(join(dir.dir, CONFIG), '{"notesDir": "notes"}');
  writeFileSync(join(dir.dir, 'notes/n1.md'), note('n1', 'the walrus flag is off in staging'));
  writeFileSync(join(dir.dir, 'main.py'), 'def main():\n    pass\n');
  const s = await makeTestSession(home.brains, dir.dir);
  try {
    ok(await s.dispatch('ingest'));
    assert.deepEqual((await notes(s)).map((n) => n.text), ['the walrus flag is off in staging']);
    assert.deepEqual(await codePaths(s, 'walrus'), []);
  } finally {
    await s.close();
    await home.cleanup();
    await dir.cleanup();
  }
});

test('a new notes folder turns its files into notes and the old folder\'s out of notes; a note whose file moved keeps its id', { timeout: 120_000 }, async () => {
  await withMappedSession({
    'src/a.ts': 'export const a = 1;\n',
    'docs/decisions/d1.md': note('d1', 'the narwhal queue is drained nightly'),
    '.gardener/notes/n2.md': note('n2', 'the okapi service owns billing'),
  }, async (s, repo) => {
    const before = await notes(s);
    assert.deepEqual(before.map((n) => n.text), ['the okapi service owns billing'], 'only the default folder holds notes');
    assert.deepEqual(await codePaths(s, 'narwhal'), ['docs/decisions/d1.md'], 'a file elsewhere is code');

    repo.write(CONFIG, '{"notesDir": "docs/decisions"}\n');
    repo.git('mv', '.gardener/notes/n2.md', 'docs/decisions/n2.md');
    repo.commit('notes live in docs/decisions');
    ok(await s.dispatch('scan'));
    const after = await notes(s);
    assert.deepEqual(after.map((n) => n.text).sort(), ['the narwhal queue is drained nightly', 'the okapi service owns billing']);
    assert.equal(after.find((n) => n.text === 'the okapi service owns billing')!.id, before[0]!.id, 'the moved note keeps its id');
    assert.deepEqual(await codePaths(s, 'narwhal'), [], 'the new folder\'s file is a note now, not code');

    // Back to the default folder, which is empty now: the files stay, as code again.
    repo.remove(CONFIG);
    repo.commit('default notes folder');
    ok(await s.dispatch('scan'));
    assert.deepEqual(await notes(s), [], 'no note file in .gardener/notes');
    assert.deepEqual((await codePaths(s, 'okapi')), ['docs/decisions/n2.md'], 'the files are code again');
    ok(await s.dispatch('scan'));
    assert.deepEqual(await notes(s), [], 'and it stays so');
  });
});

test('a config that is not valid is one alert naming the file and why; the root keeps its notes folder and the tick goes on', { timeout: 120_000 }, async () => {
  await withMappedSession({ 'src/a.ts': 'export const a = 1;\n', [CONFIG]: '{"notesDir": "docs/decisions"}\n', 'docs/decisions/d1.md': note('d1', 'the ibis flag stays on') }, async (s, repo) => {
    assert.deepEqual((await notes(s)).map((n) => n.text), ['the ibis flag stays on']);
    repo.write(CONFIG, '{"notesDir": "../elsewhere"}\n');
    repo.write('src/b.ts', 'export const heron = 2;\n');
    ok(await s.dispatch('scan'));
    ok(await s.dispatch('scan'));
    const alerts = await configAlerts(s);
    assert.equal(alerts.length, 1, `raised once over two ticks: ${JSON.stringify(alerts)}`);
    assert.match(alerts[0]!.message, /\.gardener\/config\.json: notesDir "\.\.\/elsewhere" is outside the root; name a folder in it; the notes folder stays docs\/decisions$/);
    assert.ok(alerts[0]!.message.startsWith(repo.dir), 'the alert names the root');
    assert.deepEqual((await notes(s)).map((n) => n.text), ['the ibis flag stays on'], 'the notes are kept');
    assert.deepEqual(await codePaths(s, 'heron'), ['src/b.ts'], 'the tick went on');

    // An unknown key is reported, and the keys known still apply.
    repo.write(CONFIG, '{"notesDir": "docs/decisions", "notesdir": "x"}\n');
    ok(await s.dispatch('scan'));
    const unknown = (await configAlerts(s)).filter((a) => a.message.includes('unknown key'));
    assert.equal(unknown.length, 1);
    assert.match(unknown[0]!.message, /: unknown key "notesdir" \(known: notesDir\); ignored$/);
    assert.deepEqual((await notes(s)).map((n) => n.text), ['the ibis flag stays on']);
  });
});

test('every way a config can be wrong is named', () => {
  const problem = (text: string) => parseRootConfig(text).problem;
  assert.match(problem('{"notesDir": ')!, /^not valid JSON/);
  assert.match(problem('["docs"]')!, /must be a JSON object/);
  assert.match(problem('{"notesDir": 3}')!, /notesDir must be a string .* not number/);
  assert.match(problem('{"notesDir": "/etc/notes"}')!, /is absolute/);
  assert.match(problem('{"notesDir": "a/../../b"}')!, /is outside the root/);
  assert.match(problem('{"notesDir": "."}')!, /names the root itself/);
  assert.match(problem('{"notesDir": "a//b"}')!, /empty or "\." folder name/);
  assert.match(problem('{"notesDir": "team notes"}')!, /may hold only letters, digits/);
  assert.match(problem('{"notesDir": "docs/*"}')!, /may hold only letters, digits/);
  assert.match(problem('{"notesDir": "node_modules/notes"}')!, /inside node_modules, a folder the map never reads/);
  assert.match(problem('{"notesDir": ".git/notes"}')!, /inside \.git/);
  assert.match(problem(`{"notesDir": "${'a'.repeat(201)}"}`)!, /at most 200/);
  assert.equal(parseRootConfig('{"notesDir": "docs/notes/"}').notesDir, 'docs/notes', 'a trailing slash is fine');
  assert.equal(parseRootConfig('{}').notesDir, '.gardener/notes');
  assert.equal(checkNotesDir('.gardener/team'), '.gardener/team', 'another folder inside .gardener is allowed');
  assert.ok(MAX_ROOT_CONFIG_BYTES >= 1024);
});

test('a config over its size bound is named with the bound', { timeout: 60_000 }, async () => {
  await withMappedSession({ 'src/a.ts': 'export const a = 1;\n' }, async (s, repo) => {
    repo.write(CONFIG, `{"notesDir": "docs", "pad": "${'x'.repeat(MAX_ROOT_CONFIG_BYTES)}"}`);
    ok(await s.dispatch('scan'));
    const alerts = await configAlerts(s);
    assert.equal(alerts.length, 1);
    assert.match(alerts[0]!.message, new RegExp(`is \\d+ bytes, more than the ${MAX_ROOT_CONFIG_BYTES} a config may have; the notes folder stays \\.gardener/notes$`));
  });
});
