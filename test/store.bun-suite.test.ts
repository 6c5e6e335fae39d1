/**
 * The store suite, run on every driver: `npm test` runs it under Node (better-sqlite3 on Node 20,
 * node:sqlite on Node >= 22.13) and again under Bun (bun:sqlite); CI adds Node 24. Nothing here
 * may depend on which runtime it is on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import {
  openStore, openDatabase, isBun, ensureRoot, pushChanges, peekBacklog, countBacklog, commitResults,
  readVigil, setArmed, acquireTickLease, releaseTickLease, recordAlert, listAlerts, ackAlert, readStatus,
  SCHEMA_VERSION, MAX_ALERTS, countNotes, APPLICATION_ID, deferUpkeep, runUpkeep,
} from '../src/store/index.js';
import { seek } from '../src/ranking/index.js';
import { MIGRATIONS } from '../src/store/schema.js';
import { StoreCorruptError, StoreLockedError, StoreTooNewError } from '../src/errors.js';
import { extractionFields, type DetectResult, type FileResult } from '../workers/types.js';

function tempFile(): { file: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'gardener-store-'));
  return { file: join(dir, 'brain.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function detected(entries: DetectResult['entries'], extra: Partial<DetectResult> = {}): DetectResult {
  return { backend: 'git', head: 'abc', inventory: false, entries, dirty: [], fallback: null, gitMs: 0, ...extra };
}

function ingested(id: number, rootId: number, path: string, content: string, symbols: { name: string; line: number }[] = []): FileResult {
  return {
    id, rootId, path, status: 'ingested', size: content.length, mtimeMs: 1000, hash: `h-${content.length}-${path}`,
    language: 'typescript', lines: content.split('\n').length, text: new TextEncoder().encode(content),
    ...extractionFields(symbols.map((s) => ({ name: s.name, kind: 'function' as const, line: s.line, exported: true })), [{ module: './dep.js', line: 1 }]),
  };
}

/** The driver this runtime should get: Bun's own, Node's own where it has one, else better-sqlite3. */
function expectedDriver(): string {
  if (isBun) return 'bun:sqlite';
  try {
    createRequire(import.meta.url)('node:sqlite');
    return 'node:sqlite';
  } catch {
    return 'better-sqlite3';
  }
}

test(`the adapter in use is the runtime's own (${expectedDriver()}), and says which SQLite it is`, () => {
  const { file, cleanup } = tempFile();
  try {
    const db = openDatabase(file);
    assert.equal(db.driver, expectedDriver());
    assert.match(db.sqliteVersion, /^3\.\d+\.\d+$/);
    assert.equal(db.prepare('SELECT sqlite_version() AS v').get<{ v: string }>()!.v, db.sqliteVersion);
    assert.equal(db.prepare('SELECT 1 AS one WHERE 0').get(), undefined);
    db.close();
  } finally {
    cleanup();
  }
});

test('a transaction commits, rolls back on a throw, and nests', () => {
  const { file, cleanup } = tempFile();
  try {
    const db = openDatabase(file);
    db.exec('CREATE TABLE t (x INTEGER)');
    const insert = (x: number) => db.prepare('INSERT INTO t (x) VALUES (?)').run(x);
    db.transaction(() => insert(1))();
    assert.throws(() => db.transaction(() => { insert(2); throw new Error('boom'); })());
    db.transaction(() => {
      insert(3);
      assert.throws(() => db.transaction(() => { insert(4); throw new Error('inner'); })());
      db.transaction(() => insert(5))();
    })();
    assert.deepEqual(db.prepare('SELECT x FROM t ORDER BY x').all<{ x: number }>().map((r) => r.x), [1, 3, 5]);
    db.close();
  } finally {
    cleanup();
  }
});

test('a new store is migrated to the current schema, in WAL mode', () => {
  const { file, cleanup } = tempFile();
  try {
    const db = openStore(file);
    assert.equal(db.prepare('PRAGMA user_version').get<{ user_version: number }>()!.user_version, SCHEMA_VERSION);
    assert.equal(db.prepare('PRAGMA journal_mode').get<{ journal_mode: string }>()!.journal_mode, 'wal');
    assert.equal(readVigil(db).armed, false, 'arming is off by default');
    db.close();
    // Reopening is a no-op that keeps the data.
    const again = openStore(file);
    assert.equal(readStatus(again).files, 0);
    again.close();
  } finally {
    cleanup();
  }
});

test('a file that is not SQLite is refused with its name, and left untouched', () => {
  const { file, cleanup } = tempFile();
  try {
    writeFileSync(file, 'this is not a database, just some text that is long enough to look like a header'.repeat(20));
    const before = readFileSync(file);
    assert.throws(() => openStore(file), (err: unknown) => {
      assert.ok(err instanceof StoreCorruptError);
      assert.match(err.message, new RegExp(file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      assert.match(err.message, /rebuild/);
      return true;
    });
    assert.ok(existsSync(file));
    assert.deepEqual(readFileSync(file), before);
  } finally {
    cleanup();
  }
});

test("another application's SQLite database is refused, never migrated", () => {
  const { file, cleanup } = tempFile();
  try {
    const foreign = openDatabase(file);
    foreign.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)');
    foreign.close();
    assert.throws(() => openStore(file), StoreCorruptError);
    const check = openDatabase(file);
    assert.equal(check.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'files'").get<{ n: number }>()!.n, 0);
    check.close();
  } finally {
    cleanup();
  }
});

test('a store locked by another connection is a lock error naming the file, never "corrupt"', () => {
  const { file, cleanup } = tempFile();
  try {
    openStore(file).close();
    const holder = openDatabase(file);
    holder.exec('PRAGMA locking_mode = EXCLUSIVE');
    holder.exec('BEGIN EXCLUSIVE');
    for (const readonly of [false, true]) {
      assert.throws(() => openStore(file, { readonly, busyTimeoutMs: 1 }), (err: unknown) => {
        assert.ok(err instanceof StoreLockedError, String(err));
        assert.equal(err.code, 'GDN_STORE_LOCKED');
        assert.ok(err.message.includes(file), err.message);
        assert.match(err.message, /SQLITE_BUSY|SQLITE_LOCKED/);
        assert.doesNotMatch(err.message, /move it aside|rebuild/);
        return true;
      });
    }
    holder.exec('COMMIT');
    holder.close();
    openStore(file).close();
  } finally {
    cleanup();
  }
});

test('a store from a newer Gardener is refused with an upgrade hint', () => {
  const { file, cleanup } = tempFile();
  try {
    openStore(file).close();
    const raw = openDatabase(file);
    raw.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 5}`);
    raw.close();
    assert.throws(() => openStore(file), StoreTooNewError);
  } finally {
    cleanup();
  }
});

test('a path is queued once, and the stat cache drops a file whose size and mtime match the map', () => {
  const { file, cleanup } = tempFile();
  try {
    const db = openStore(file);
    const root = ensureRoot(db, '/repo', 1);
    assert.equal(pushChanges(db, root, detected([{ path: 'a.ts', size: 3, mtimeMs: 1000, deleted: false }]), 1).queued, 1);
    assert.equal(pushChanges(db, root, detected([{ path: 'a.ts', size: 3, mtimeMs: 1000, deleted: false }]), 2).queued, 0, 'already queued');
    const [item] = peekBacklog(db, 0, 10);
    commitResults(db, [ingested(item!.id, root, 'a.ts', 'abc')], 3);
    assert.equal(countBacklog(db), 0);
    // Same size and mtime as the map: not queued again.
    assert.equal(pushChanges(db, root, detected([{ path: 'a.ts', size: 3, mtimeMs: 1000, deleted: false }]), 4).queued, 0);
    // A new mtime: queued.
    assert.equal(pushChanges(db, root, detected([{ path: 'a.ts', size: 3, mtimeMs: 2000, deleted: false }]), 5).queued, 1);
    db.close();
  } finally {
    cleanup();
  }
});

test('an inventory queues map paths that are no longer there; a deleted result removes the file', () => {
  const { file, cleanup } = tempFile();
  try {
    const db = openStore(file);
    const root = ensureRoot(db, '/repo', 1);
    pushChanges(db, root, detected([{ path: 'a.ts', size: 3, mtimeMs: 1000, deleted: false }, { path: 'b.ts', size: 3, mtimeMs: 1000, deleted: false }]), 1);
    const items = peekBacklog(db, 0, 10);
    commitResults(db, items.map((i) => ingested(i.id, root, i.path, 'abc', [{ name: `fn_${i.path[0]}`, line: 1 }])), 2);
    assert.equal(readStatus(db).files, 2);
    const outcome = pushChanges(db, root, detected([{ path: 'a.ts', size: 3, mtimeMs: 1000, deleted: false }], { inventory: true }), 3);
    assert.equal(outcome.queued, 1);
    const [gone] = peekBacklog(db, 0, 10);
    assert.equal(gone!.path, 'b.ts');
    assert.ok(gone!.knownHash, 'the map hash travels with the item');
    commitResults(db, [{ id: gone!.id, rootId: root, path: 'b.ts', status: 'deleted' }], 4);
    assert.equal(readStatus(db).files, 1);
    assert.deepEqual(seek(db, 'fn_b'), []);
    db.close();
  } finally {
    cleanup();
  }
});

test('a result whose backlog item is already gone is skipped, never applied twice', () => {
  const { file, cleanup } = tempFile();
  try {
    const db = openStore(file);
    const root = ensureRoot(db, '/repo', 1);
    pushChanges(db, root, detected([{ path: 'a.ts', size: 3, mtimeMs: 1000, deleted: false }]), 1);
    const [item] = peekBacklog(db, 0, 10);
    assert.equal(commitResults(db, [ingested(item!.id, root, 'a.ts', 'abc', [{ name: 'alpha', line: 1 }])], 2).ingested, 1);
    const second = commitResults(db, [ingested(item!.id, root, 'a.ts', 'abc', [{ name: 'alpha', line: 1 }])], 3);
    assert.equal(second.skipped, 1);
    assert.equal(readStatus(db).symbols, 1);
    db.close();
  } finally {
    cleanup();
  }
});

test('seek ranks symbol definitions before plain text and reads the line of a text hit from the file', () => {
  const { file, cleanup } = tempFile();
  const rootDir = mkdtempSync(join(tmpdir(), 'gardener-root-'));
  try {
    const parser = 'import x\n\nexport function parseConfig() {}\n';
    const notes = 'intro\nwe call parseConfig from main\nparseConfig again parseConfig\n';
    mkdirSync(join(rootDir, 'src'));
    writeFileSync(join(rootDir, 'src/parser.ts'), parser);
    writeFileSync(join(rootDir, 'src/notes.md'), notes);
    const db = openStore(file);
    const root = ensureRoot(db, rootDir, 1);
    pushChanges(db, root, detected([
      { path: 'src/parser.ts', size: 1, mtimeMs: 1, deleted: false },
      { path: 'src/notes.md', size: 1, mtimeMs: 1, deleted: false },
    ]), 1);
    const items = peekBacklog(db, 0, 10);
    commitResults(db, [
      ingested(items[0]!.id, root, 'src/parser.ts', parser, [{ name: 'parseConfig', line: 3 }]),
      ingested(items[1]!.id, root, 'src/notes.md', notes),
    ], 2);
    const hits = seek(db, 'parseConfig');
    assert.equal(hits[0]!.path, 'src/parser.ts');
    assert.equal(hits[0]!.symbol, 'parseConfig');
    assert.equal(hits[0]!.line, 3);
    const text = hits.find((h) => h.path === 'src/notes.md');
    assert.ok(text, 'the text hit is there');
    assert.equal(text!.line, 2);
    assert.ok(hits[0]!.score > text!.score);
    assert.equal(seek(db, 'PARSECONFIG')[0]!.symbol, 'parseConfig', 'names match whatever the case');
    assert.deepEqual(seek(db, 'parse').map((h) => h.symbol)[0], 'parseConfig', 'a prefix finds the definition');
    assert.deepEqual(seek(db, '   '), []);
    assert.equal(readStatus(db).symbols, 1);
    db.close();
  } finally {
    cleanup();
    rmSync(rootDir, { recursive: true, force: true });
  }
});

test('upkeep merges the full-text index until FTS5 finds nothing left to merge, within its budget', () => {
  const { file, cleanup } = tempFile();
  try {
    const db = openStore(file);
    deferUpkeep(db);
    const root = ensureRoot(db, '/repo', 1);
    const words = Array.from({ length: 4000 }, (_, i) => `w${(i * 7919) % 10007}`);
    // As a drain writes them: one transaction, so one new index segment, per batch (fewer
    // batches than FTS5's crisis merge of 16, which would merge inside a commit).
    for (let batch = 0; batch < 15; batch++) {
      const paths = Array.from({ length: 16 }, (_, i) => `src/b${batch}/f${i}.ts`);
      pushChanges(db, root, detected(paths.map((path) => ({ path, size: 1, mtimeMs: 1, deleted: false }))), 1);
      const items = peekBacklog(db, 0, 100);
      db.transaction(() => commitResults(db, items.map((it, i) => ingested(it.id, root, it.path, words.slice(i * 200, i * 200 + 1000).join(' '))), 2))();
    }
    const segments = () => db.prepare('SELECT count(DISTINCT id >> 37) AS n FROM fts_data WHERE id >= 137438953472').get<{ n: number }>()!.n;
    const before = segments();
    const budgetCut = runUpkeep(db, { budgetMs: 10, now: (() => { let t = 0; return () => (t += 10); })() });
    assert.equal(budgetCut.merges, 1, 'a clock past the budget stops after one merge');
    const outcome = runUpkeep(db, { now: () => 0 }); // a clock that never moves: only "nothing left" stops it
    assert.ok(outcome.merges > 1, `merged in ${outcome.merges} transactions`);
    assert.ok(segments() < before, `segments ${before} -> ${segments()}`);
    assert.equal(runUpkeep(db, { now: () => 0 }).merges, 1, 'the next upkeep finds nothing left to merge');
    assert.equal(seek(db, words[5]!).length > 0, true, 'the index still answers');
    db.close();
  } finally {
    cleanup();
  }
});

test('arming persists in the store across reopen', () => {
  const { file, cleanup } = tempFile();
  try {
    const db = openStore(file);
    setArmed(db, true, 42);
    db.close();
    const again = openStore(file, { readonly: false });
    assert.equal(readVigil(again).armed, true);
    assert.equal(readVigil(again).armedAt, 42);
    again.close();
  } finally {
    cleanup();
  }
});

test('a tick lease left by a dead process is taken over; a live one is respected', () => {
  const { file, cleanup } = tempFile();
  try {
    const db = openStore(file);
    assert.deepEqual(acquireTickLease(db, 111, 1000, () => true), { acquired: true, tookOverFrom: null });
    // Process 111 "crashes": the lease stays set.
    assert.deepEqual(acquireTickLease(db, 222, 2000, () => true), { acquired: false, ownerPid: 111 });
    assert.deepEqual(acquireTickLease(db, 222, 2000, () => false), { acquired: true, tookOverFrom: 111 });
    releaseTickLease(db, 222, 3000, { detected: 1, drained: 1, backlogLeft: 0 });
    const v = readVigil(db);
    assert.equal(v.tickInFlight, false);
    assert.equal(v.lastTickAt, 3000);
    assert.equal(v.lastAdvancedAt, 3000);
    db.close();
  } finally {
    cleanup();
  }
});

test('alerts are recorded, listed, acknowledged and bounded', () => {
  const { file, cleanup } = tempFile();
  try {
    const db = openStore(file);
    const id = recordAlert(db, { code: 'tick_failed', message: 'boom' }, 1);
    assert.equal(listAlerts(db).length, 1);
    assert.equal(ackAlert(db, id, 2), true);
    assert.equal(listAlerts(db).length, 0);
    assert.equal(ackAlert(db, 9999, 3), false);
    for (let i = 0; i < MAX_ALERTS + 10; i++) recordAlert(db, { code: 'x', message: String(i) }, i);
    assert.ok(listAlerts(db, { includeAcked: true }).length <= MAX_ALERTS);
    db.close();
  } finally {
    cleanup();
  }
});

test('a read-only connection reads beside the writer', () => {
  const { file, cleanup } = tempFile();
  try {
    const writer = openStore(file);
    const root = ensureRoot(writer, '/repo', 1);
    const reader = openStore(file, { readonly: true });
    pushChanges(writer, root, detected([{ path: 'a.ts', size: 3, mtimeMs: 1000, deleted: false }]), 1);
    assert.equal(countBacklog(reader), 1);
    assert.throws(() => reader.exec('DELETE FROM backlog'));
    reader.close();
    writer.close();
  } finally {
    cleanup();
  }
});

test('a store written by an older version still loads, migrated, and an armed brain stays armed', () => {
  const { file, cleanup } = tempFile();
  try {
    const old = openDatabase(file);
    old.exec(MIGRATIONS[0]!);
    old.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
    old.exec('PRAGMA user_version = 1');
    old.exec('UPDATE vigil SET armed = 1, armed_at = 7 WHERE id = 1');
    old.close();
    // The recall side opens first (read-only): it must not refuse an older store.
    const reader = openStore(file, { readonly: true });
    assert.equal(readVigil(reader).armed, true);
    assert.equal(countNotes(reader), 0, 'the newer tables exist');
    reader.close();
    const writer = openStore(file);
    assert.equal(writer.prepare('PRAGMA user_version').get<{ user_version: number }>()!.user_version, SCHEMA_VERSION);
    writer.close();
  } finally {
    cleanup();
  }
});
