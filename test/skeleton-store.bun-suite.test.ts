/**
 * The skeleton's store functions on both adapters: `npm test` runs this under Node
 * (better-sqlite3) and again under Bun (bun:sqlite), Louvain (graphology) included.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, ensureRoot, type Database } from '../src/store/index.js';
import {
  proposeCandidate, editCandidate, ratifyCandidate, candidateLease, readForReconcile, writeReconciled, readSkeletonMeta,
  setReconcileDeadline, clearReconcileDeadline, readSkeleton, loadCodeGraph,
} from '../src/skeleton/index.js';
import { SkeletonConflictError } from '../src/errors.js';

function withStore(fn: (db: Database) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'gardener-skeleton-'));
  const db = openStore(join(dir, 'brain.db'));
  try {
    const root = ensureRoot(db, dir, 1);
    const insert = db.prepare(
      `INSERT INTO files (root_id, path, size, mtime_ms, hash, language, lines, symbols, imports, ingested_at) VALUES (?, ?, 1, 1, 'h', 'typescript', 1, ?, ?, 1)`,
    );
    const file = (path: string, imports: string[]) =>
      insert.run(root, path, JSON.stringify([{ name: path.replace(/\W/g, '_'), kind: 'const', line: 1, exported: true }]), JSON.stringify(imports.map((module) => ({ module, line: 1 }))));
    for (let i = 0; i < 8; i++) file(`src/ui/v${i}.ts`, [`./v${(i + 1) % 8}.js`, '../data/d0.js']);
    for (let i = 0; i < 8; i++) file(`src/data/d${i}.ts`, [`./d${(i + 1) % 8}.js`]);
    fn(db);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('propose, edit, ratify: every write bumps store_version, a stale one is refused', () => {
  withStore((db) => {
    const tx = <T>(f: () => T) => db.transaction(f)();
    const p = tx(() => proposeCandidate(db, 10, 'code'));
    assert.ok(p.skeleton.rooms.length >= 2, JSON.stringify(p.skeleton.rooms));
    const rooms = p.skeleton.rooms.map((r) => r.name);
    const ui = rooms.find((n) => n.includes('ui'))!;
    const e = tx(() => editCandidate(db, p.storeVersion, [{ op: 'set_may_use', room: ui, may_use: [] }], 11));
    assert.equal(e.storeVersion, p.storeVersion + 1);
    assert.throws(() => tx(() => editCandidate(db, p.storeVersion, [{ op: 'rename', room: ui, to: 'x' }], 12)), SkeletonConflictError);
    const r = tx(() => ratifyCandidate(db, e.storeVersion, 13));
    assert.equal(r.skeleton.derived.violations.length, 8, 'each ui file imports data, which ui may not use');
    assert.equal(readSkeleton(db, 'candidate'), null);
  });
});

test('lease, deadline and the reconcile read/write keyed on the version', () => {
  withStore((db) => {
    const tx = <T>(f: () => T) => db.transaction(f)();
    const p = tx(() => proposeCandidate(db, 10, 'code'));
    tx(() => ratifyCandidate(db, p.storeVersion, 11));
    assert.equal(tx(() => candidateLease(db, 'take', 'a', 60, 100)).held, true);
    assert.deepEqual(tx(() => candidateLease(db, 'take', 'b', 60, 200)), { held: false, holder: 'a', until: 60_100 });
    assert.equal(readForReconcile(db, 300).kind, 'yield');
    tx(() => candidateLease(db, 'release', 'a', 60, 400));
    setReconcileDeadline(db, 1000);
    const read = readForReconcile(db, 500);
    assert.equal(read.kind, 'derived');
    if (read.kind !== 'derived') return;
    assert.deepEqual(tx(() => writeReconciled(db, read.storeVersion - 1, read.derived, 600)), { ok: false, current: read.storeVersion });
    assert.deepEqual(tx(() => writeReconciled(db, read.storeVersion, read.derived, 600)), { ok: true, storeVersion: read.storeVersion + 1 });
    clearReconcileDeadline(db, 999);
    assert.equal(readSkeletonMeta(db).reconcileDueAt, 1000, 'a deadline pushed past the reconcile stays');
    clearReconcileDeadline(db, 1000);
    assert.equal(readSkeletonMeta(db).reconcileDueAt, null);
  });
});

test('the code graph remembers unchanged files, yet sees an import resolve when its target appears', () => {
  withStore((db) => {
    const root = db.prepare('SELECT id FROM roots').get<{ id: number }>()!.id;
    db.prepare(`INSERT INTO files (root_id, path, size, mtime_ms, hash, language, lines, imports, ingested_at) VALUES (?, 'src/late/user.ts', 1, 1, 'u', 'typescript', 1, ?, 1)`)
      .run(root, JSON.stringify([{ module: '../later/thing.js', line: 3 }]));
    const before = loadCodeGraph(db);
    assert.deepEqual(before.byPath.get('src/late/user.ts')!.imports, []);
    assert.equal(loadCodeGraph(db).byPath.get('src/ui/v0.ts')!.imports.length, 2, 'a second load answers the same from memory');
    db.prepare(`INSERT INTO files (root_id, path, size, mtime_ms, hash, language, lines, ingested_at) VALUES (?, 'src/later/thing.ts', 1, 1, 't', 'typescript', 1, 1)`).run(root);
    const after = loadCodeGraph(db);
    assert.deepEqual(after.byPath.get('src/late/user.ts')!.imports, [{ target: 'src/later/thing.ts', line: 3, module: '../later/thing.js' }]);
    db.prepare(`UPDATE files SET hash = 'u2', imports = '[]' WHERE path = 'src/late/user.ts'`).run();
    assert.deepEqual(loadCodeGraph(db).byPath.get('src/late/user.ts')!.imports, [], 'a changed file is read again');
  });
});
