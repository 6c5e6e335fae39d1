/**
 * The stored form of a file's references (src/ingest/reference-codec.ts): uses grouped by name in
 * first-use order, each as its kind letter, line and enclosing definition's index, whatever the
 * names' alphabet, and read back by name unchanged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeReferences, namesIn, usesIn } from '../src/ingest/index.js';
import type { Reference, SymbolDef } from '../src/ingest/extract/types.js';

const symbols: SymbolDef[] = [
  { name: 'load', kind: 'function', line: 1, exported: false },
  { name: 'run', kind: 'method', line: 10, exported: false },
  { name: 'run', kind: 'method', line: 20, exported: false },
];

test('references are stored grouped by name in first-use order, the caller as an index of the nearest definition so named', () => {
  const references: Reference[] = [
    { name: 'Parser', line: 2, kind: 'new', in: 'load' },
    { name: 'parse', line: 3, kind: 'member', in: 'load' },
    { name: 'Parser', line: 12, kind: 'type', in: 'run' },
    { name: 'parse', line: 1234567, kind: 'call', in: 'run' },
    { name: 'Token', line: 30, kind: 'inherit' },
    { name: 'parse', line: 31, kind: 'decorator', in: 'gone' },
  ];
  const encoded = encodeReferences(symbols, references);
  assert.equal(encoded, '\nParser\tn2:0,t12:1\nparse\tm3:0,c1234567:2,d31\nToken\ti30\n');
  assert.deepEqual(namesIn(encoded), ['Parser', 'parse', 'Token']);
  assert.deepEqual(usesIn(encoded, 'parse'), [{ line: 3, kind: 'member', in: 0 }, { line: 1234567, kind: 'call', in: 2 }, { line: 31, kind: 'decorator' }]);
  assert.equal(encodeReferences(symbols, []), '');
});

test('a name outside ASCII is stored and found like any other', () => {
  const references: Reference[] = [
    { name: 'Ünïcode', line: 4, kind: 'call', in: 'load' },
    { name: 'x', line: 5, kind: 'type' },
    { name: 'Ünïcode', line: 9, kind: 'new' },
    { name: '变量', line: 11, kind: 'member', in: 'run' },
  ];
  const encoded = encodeReferences(symbols, references);
  assert.equal(encoded, '\nÜnïcode\tc4:0,n9\nx\tt5\n变量\tm11:1\n');
  assert.deepEqual(usesIn(encoded, '变量'), [{ line: 11, kind: 'member', in: 1 }]);
});

test('a file with more uses than the first buffer holds is encoded whole', () => {
  const references: Reference[] = [];
  for (let i = 0; i < 20000; i++) references.push({ name: `name${i % 500}`, line: i + 1, kind: 'call' });
  const encoded = encodeReferences([], references);
  assert.equal(namesIn(encoded).length, 500);
  assert.equal(usesIn(encoded, 'name499').length, 40);
  assert.deepEqual(usesIn(encoded, 'name7').at(-1), { line: 19508, kind: 'call' });
});
