/**
 * Notes that say when they went stale (issue 18, item 4): a note tied to files or definitions
 * records the content of those files when it is written; `boot_memory`, `seek {scope: notes}` and
 * `delegate` mark a note whose files changed since (which, and when the map saw it), and never
 * drop it. Through a real MCP client over stdio, on a real git repository.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { makeGitRepo, makeTempDir, type GitRepo } from './helpers/git-repo.js';
import { connectGardener, type GardenerClient } from './helpers/mcp-client.js';
import { APPLICATION_ID, SCHEMA_VERSION, marksOf, openDatabase, openStore } from '../src/store/index.js';
import { MIGRATIONS } from '../src/store/schema.js';

const CONFIG = [
  'export function parseConfig(text: string): string[] {',
  '  return text.split("=");',
  '}',
  '',
  'export function loadConfig(path: string): string {',
  '  return path;',
  '}',
  '',
].join('\n');

const FILES = {
  'src/config.ts': CONFIG,
  'src/other.ts': 'export const otherThing = 1;\n',
  'src/stay.ts': 'export function stayHere(): number {\n  return 1;\n}\n',
  'src/old-name.ts': 'export const renamedConstant = 7;\n',
};

async function withSession(fn: (c: GardenerClient, repo: GitRepo) => Promise<void>): Promise<void> {
  const repo = await makeGitRepo(FILES);
  const home = await makeTempDir('gardener-home-');
  const c = await connectGardener(repo.dir, { ...process.env, GARDENER_HOME: home.dir, GARDENER_NO_OWNER: '1' });
  try {
    const ingest = await c.call('ingest');
    assert.equal(ingest.isError, false, JSON.stringify(ingest.value));
    await fn(c, repo);
  } finally {
    await c.close();
    await repo.cleanup();
    await home.cleanup();
  }
}

async function remember(c: GardenerClient, args: Record<string, unknown>): Promise<number> {
  const r = await c.call('remember', args);
  assert.equal(r.isError, false, JSON.stringify(r.value));
  return r.value.id as number;
}

type NoteOut = { id: number; stale?: Record<string, unknown>[]; definitions?: { path: string; name: string }[] };
const byId = (notes: NoteOut[]) => new Map(notes.map((n) => [n.id, n]));

test('a note tied to a file or a definition is marked stale once the map sees the change, in boot_memory, seek and delegate', { timeout: 120_000 }, async () => {
  await withSession(async (c, repo) => {
    const fileNote = await remember(c, { text: 'settings parsing splits each line on the equals sign', files: ['src/config.ts'] });
    const movedDef = await remember(c, { text: 'settings loading takes a path', definitions: [{ path: 'src/config.ts', name: 'loadConfig' }] });
    const keptDef = await remember(c, { text: 'settings parsing returns the pieces', definitions: [{ path: 'src/config.ts', name: 'parseConfig' }] });
    const goneDef = await remember(c, { text: 'settings other thing is one', definitions: [{ path: 'src/other.ts', name: 'otherThing' }] });
    const removedFile = await remember(c, { text: 'settings other file holds a constant', files: ['src/other.ts'] });
    const untouched = await remember(c, { text: 'settings stay here', files: ['src/stay.ts'] });
    const renamedFile = await remember(c, { text: 'settings renamed constant lives here', files: ['src/old-name.ts'] });

    const before = await c.call('boot_memory');
    assert.equal(before.isError, false, JSON.stringify(before.value));
    for (const n of before.value.notes as NoteOut[]) assert.equal(n.stale, undefined, `note ${n.id} is fresh before any change`);
    assert.deepEqual(byId(before.value.notes).get(movedDef)!.definitions, [{ path: 'src/config.ts', name: 'loadConfig' }]);
    assert.equal(byId(before.value.notes).get(fileNote)!.definitions, undefined, 'no definitions field without definitions');

    // parseConfig changes but stays in its file; loadConfig moves to a file of its own; other.ts goes.
    const written = Date.now();
    repo.write('src/config.ts', 'export function parseConfig(text: string): string[] {\n  return text.split(":");\n}\n');
    repo.write('src/load.ts', 'export function loadConfig(path: string): string {\n  return path.trim();\n}\n');
    repo.remove('src/other.ts');
    repo.write('src/new-name.ts', FILES['src/old-name.ts']);
    repo.remove('src/old-name.ts');
    assert.equal((await c.call('ingest')).isError, false);

    const after = await c.call('boot_memory');
    const notes = byId(after.value.notes);
    assert.equal(notes.size, 7, 'no note is dropped');
    const changed = notes.get(fileNote)!.stale!;
    assert.equal(changed.length, 1);
    assert.equal(changed[0]!.path, 'src/config.ts');
    const at = Date.parse(changed[0]!.changed_at as string);
    assert.ok(at >= written && at <= Date.now(), `changed_at ${changed[0]!.changed_at} is when the map saw the change`);
    assert.deepEqual(notes.get(movedDef)!.stale, [{ path: 'src/config.ts', name: 'loadConfig', changed_at: changed[0]!.changed_at, moved_to: 'src/load.ts:1' }]);
    assert.equal(notes.get(keptDef)!.stale, undefined, 'a definition still in its changed file is not stale');
    assert.deepEqual(notes.get(goneDef)!.stale, [{ path: 'src/other.ts', name: 'otherThing', removed: true }]);
    assert.deepEqual(notes.get(removedFile)!.stale, [{ path: 'src/other.ts', removed: true }]);
    assert.equal(notes.get(untouched)!.stale, undefined);
    assert.deepEqual(notes.get(renamedFile)!.stale, [{ path: 'src/old-name.ts', moved_to: 'src/new-name.ts' }], 'a file renamed with its content kept is traced by its hash');

    const seek = await c.call('seek', { query: 'settings', scope: 'notes', limit: 20 });
    assert.equal(seek.isError, false, JSON.stringify(seek.value));
    const seen = byId(seek.value.notes);
    assert.equal(seen.size, 7);
    assert.deepEqual(seen.get(fileNote)!.stale, notes.get(fileNote)!.stale);
    assert.deepEqual(seen.get(movedDef)!.stale, notes.get(movedDef)!.stale);
    assert.equal(seen.get(untouched)!.stale, undefined);

    const delegate = await c.call('delegate', { task: 'change how settings parsing splits each line' });
    assert.equal(delegate.isError, false, JSON.stringify(delegate.value));
    const packed = byId(delegate.value.notes);
    assert.ok(packed.has(fileNote), 'the stale note is packed, not dropped');
    assert.deepEqual(packed.get(fileNote)!.stale, notes.get(fileNote)!.stale);
  });
});

test('a note written right after an edit the map has not seen is not stale once the map catches up', { timeout: 120_000 }, async () => {
  await withSession(async (c, repo) => {
    repo.write('src/stay.ts', 'export function stayHere(): number {\n  return 2;\n}\n');
    const id = await remember(c, { text: 'stayHere now returns two', files: ['src/stay.ts'], definitions: [{ path: 'src/stay.ts', name: 'stayHere' }] });
    const pending = await c.call('boot_memory');
    assert.equal(byId(pending.value.notes).get(id)!.stale, undefined, 'the map is behind the note, not the note behind the file');
    assert.deepEqual(pending.value.freshness.pending, ['src/stay.ts'], "the note's file waiting for re-ingest is named");
    assert.equal((await c.call('ingest')).isError, false);
    const caught = await c.call('boot_memory');
    assert.equal(byId(caught.value.notes).get(id)!.stale, undefined);
    assert.deepEqual(caught.value.freshness.pending, []);
  });
});

test('remember refuses a file the map does not hold and a definition it cannot find, naming them', { timeout: 120_000 }, async () => {
  await withSession(async (c, repo) => {
    const missing = await c.call('remember', { text: 'x', files: ['src/nope.ts'] });
    assert.equal(missing.isError, true);
    assert.equal(missing.value.error.code, 'GDN_INVALID_ARGUMENT');
    assert.match(missing.value.error.message, /src\/nope\.ts is not in this brain's map/);

    repo.write('src/new.ts', 'export const fresh = 1;\n');
    const unmapped = await c.call('remember', { text: 'x', files: ['src/new.ts'] });
    assert.equal(unmapped.isError, true);
    assert.match(unmapped.value.error.message, /src\/new\.ts is not in this brain's map.*scan/);

    const noDef = await c.call('remember', { text: 'x', definitions: [{ path: 'src/config.ts', name: 'parseConfigs' }] });
    assert.equal(noDef.isError, true);
    assert.match(noDef.value.error.message, /no definition named parseConfigs in src\/config\.ts/);
    assert.match(noDef.value.error.message, /parseConfig, loadConfig/, 'the file\'s definitions are listed');

    const noDefFile = await c.call('remember', { text: 'x', definitions: [{ path: 'src/nope.ts', name: 'x' }] });
    assert.equal(noDefFile.isError, true);
    assert.match(noDefFile.value.error.message, /src\/nope\.ts is not in this brain's map/);

    const badShape = await c.call('remember', { text: 'x', definitions: [{ path: 'src/config.ts' }] });
    assert.equal(badShape.isError, true);
    assert.match(badShape.value.error.message, /name/);

    const boot = await c.call('boot_memory');
    assert.equal(boot.value.summary.notes, 0, 'a refused note is not kept');
  });
});

test('a note written before notes kept ties loads unmarked: nothing is known of what it saw', async () => {
  const dir = await makeTempDir('gardener-store-');
  try {
    const file = join(dir.dir, 'brain.db');
    const old = openDatabase(file);
    for (const m of MIGRATIONS.slice(0, 5)) old.exec(m);
    old.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
    old.exec('PRAGMA user_version = 5');
    old.exec("INSERT INTO roots (id, path, added_at) VALUES (1, '/r', 1)");
    old.exec("INSERT INTO files (root_id, path, size, mtime_ms, hash, language, ingested_at) VALUES (1, 'src/a.ts', 1, 1, 'h2', 'typescript', 50)");
    old.exec(`INSERT INTO notes (id, text, files, created_at) VALUES (1, 'about a', '["src/a.ts"]', 10)`);
    old.close();
    const db = openStore(file);
    try {
      assert.equal(db.prepare('PRAGMA user_version').get<{ user_version: number }>()!.user_version, SCHEMA_VERSION);
      assert.deepEqual([...marksOf(db, [1]).entries()], [], 'no ties, no marks: the file changed after the note, but nothing says what the note saw');
    } finally {
      db.close();
    }
  } finally {
    await dir.cleanup();
  }
});
