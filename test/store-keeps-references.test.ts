/**
 * References in the store: written with their file row, found by name with their callers, and
 * an older store gains the column and queues its files to be read again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, openDatabase, ensureRoot, commitResults, pushChanges, peekBacklog, usesOf, definitionsOf, APPLICATION_ID, SCHEMA_VERSION } from '../src/store/index.js';
import { MIGRATIONS } from '../src/store/schema.js';
import { extractDefinitions } from '../src/ingest/extract/index.js';
import { extractionFields, type FileResult } from '../workers/types.js';

function tempFile() {
  const dir = mkdtempSync(join(tmpdir(), 'gardener-refs-'));
  return { file: join(dir, 'brain.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function ingested(id: number, rootId: number, path: string, content: string): FileResult {
  const e = extractDefinitions('typescript', content);
  return {
    id, rootId, path, status: 'ingested', size: content.length, mtimeMs: 1000, hash: `h-${path}`,
    language: 'typescript', lines: content.split('\n').length, text: new TextEncoder().encode(content),
    ...extractionFields(e.symbols, e.imports, e.references),
  };
}

test('a file\'s references are stored with it and found by name, with their callers', () => {
  const { file, cleanup } = tempFile();
  try {
    const db = openStore(file);
    const root = ensureRoot(db, '/r', 1);
    pushChanges(db, root, { backend: 'git', head: 'a', inventory: false, entries: [{ path: 'a.ts', size: 1, mtimeMs: 1, deleted: false }, { path: 'b.ts', size: 1, mtimeMs: 1, deleted: false }], dirty: [], fallback: null, gitMs: 0 }, 1);
    const [a, b] = peekBacklog(db, 0, 10);
    commitResults(db, [
      ingested(a!.id, root, 'a.ts', 'export function parse(s: string) {\n  return s;\n}\n'),
      ingested(b!.id, root, 'b.ts', "import { parse } from './a.js';\nexport function run() {\n  // parse in a comment\n  return parse('x') + parse('y');\n}\n"),
    ], 2);
    assert.deepEqual(definitionsOf(db, 'parse').map((d) => [d.path, d.line, d.kind]), [['a.ts', 1, 'function']]);
    const found = usesOf(db, 'parse');
    assert.deepEqual(found.files.map((f) => [f.path, f.uses]), [['b.ts', [{ line: 1, kind: 'other' }, { line: 4, kind: 'call', in: 'run' }]]]);
    assert.deepEqual(usesOf(db, 'Parse').files, [], 'names are exact');
    db.close();
  } finally {
    cleanup();
  }
});

test('an older store gains references and queues its source files to be read again', () => {
  const { file, cleanup } = tempFile();
  try {
    const old = openDatabase(file);
    // A store at 4, the last schema before references (4 itself re-queues everything).
    for (const m of MIGRATIONS.slice(0, 4)) old.exec(m);
    old.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
    old.exec('PRAGMA user_version = 4');
    old.exec("INSERT INTO roots (id, path, added_at) VALUES (1, '/r', 1)");
    old.exec("INSERT INTO files (root_id, path, size, mtime_ms, hash, language, ingested_at) VALUES (1, 'a.ts', 1, 1, 'h1', 'typescript', 1), (1, 'README.md', 1, 1, 'h2', 'markdown', 1)");
    old.close();
    const db = openStore(file);
    assert.equal(db.prepare('PRAGMA user_version').get<{ user_version: number }>()!.user_version, SCHEMA_VERSION);
    const queued = peekBacklog(db, 0, 10);
    assert.deepEqual(queued.map((q) => [q.path, q.knownHash]), [['a.ts', '']], 'a source file is read again (its hash forgotten); other files are not');
    assert.equal(usesOf(db, 'anything').unknown, 0);
    db.close();
  } finally {
    cleanup();
  }
});
