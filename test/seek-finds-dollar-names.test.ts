/**
 * `$` is part of a JavaScript name (`$ZodType`, `$inject`): the full-text index's tokenizer drops
 * it, so the query keeps it to confirm the definition by its own spelling, exact and as a prefix.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitResults, ensureRoot, openStore, peekBacklog, pushChanges } from '../src/store/index.js';
import { seek } from '../src/ranking/index.js';
import { extractionFields, type FileResult } from '../workers/types.js';

test('a definition named with $ is an exact and a prefix definition hit; a query of only $ finds nothing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gardener-dollar-'));
  try {
    const db = openStore(join(dir, 'brain.db'));
    const root = ensureRoot(db, dir, 1);
    const text = 'export interface $ShapeDef {}\nexport class Shape {}\nexport const $shape = 1;\n';
    pushChanges(db, root, { backend: 'git', head: 'abc', inventory: false, entries: [{ path: 'src/shape.ts', size: 1, mtimeMs: 1, deleted: false }], dirty: [], fallback: null, gitMs: 0 }, 1);
    const [item] = peekBacklog(db, 0, 10);
    const symbols = [
      { name: '$ShapeDef', kind: 'interface' as const, line: 1, exported: true },
      { name: 'Shape', kind: 'class' as const, line: 2, exported: true },
      { name: '$shape', kind: 'const' as const, line: 3, exported: true },
    ];
    const result: FileResult = {
      id: item!.id, rootId: root, path: 'src/shape.ts', status: 'ingested', size: text.length, mtimeMs: 1, hash: 'h',
      language: 'typescript', lines: 4, text: new TextEncoder().encode(text), ...extractionFields(symbols, []),
    };
    commitResults(db, [result], 2);

    const exact = seek(db, '$ShapeDef');
    assert.deepEqual([exact[0]!.symbol, exact[0]!.line, exact[0]!.score], ['$ShapeDef', 1, 3.1]);
    assert.deepEqual(seek(db, '$shape').filter((h) => h.score >= 3).map((h) => h.symbol), ['$shape'], '$shape is not Shape');
    assert.deepEqual(seek(db, 'shape').filter((h) => h.score >= 3).map((h) => h.symbol), ['Shape'], 'Shape is not $shape');
    assert.deepEqual(seek(db, '$Shape').filter((h) => h.symbol !== null).map((h) => h.symbol).sort(), ['$ShapeDef', '$shape'], 'a $ prefix');
    assert.deepEqual(seek(db, '$'), []);
    assert.deepEqual(seek(db, '$$ $'), []);
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
