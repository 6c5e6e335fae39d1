/**
 * A grammar that throws mid-parse costs bounded memory and time in its thread: its module (the
 * parse tables copied into the thread's WebAssembly memory, which never shrinks, and V8's copy
 * of its bytes) is loaded once; a throw costs a fresh parser, never another copy of the grammar
 * (measured: each reload of Kotlin's added 7.7 MB for good). After MAX_THROWS_PER_GRAMMAR
 * throws the language's files are failed without parsing, each with a note.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Parser } from 'web-tree-sitter';
import { extractFile } from '../src/ingest/extraction.js';
import { grammarLoads, MAX_THROWS_PER_GRAMMAR } from '../src/ingest/tree-sitter/index.js';

test('a grammar that throws on every file is loaded once per thread and given up after its bound', async () => {
  const first = await extractFile('kotlin', 'class Before\n', 13);
  assert.deepEqual(first.extraction.symbols.map((s) => s.name), ['Before']);
  assert.equal(grammarLoads('kotlin'), 1);
  const original = Parser.prototype.parse;
  let parses = 0;
  Parser.prototype.parse = function () {
    parses++;
    throw new Error('memory access out of bounds');
  };
  const notes: string[] = [];
  try {
    for (let i = 0; i < 3 * MAX_THROWS_PER_GRAMMAR; i++) {
      const r = await extractFile('kotlin', `class K${i}\n`, 9);
      assert.equal(r.note?.code, 'extract_failed');
      assert.deepEqual(r.extraction.symbols, []);
      notes.push(r.note!.message);
    }
  } finally {
    Parser.prototype.parse = original;
  }
  assert.equal(grammarLoads('kotlin'), 1, 'the grammar is never loaded again');
  assert.equal(parses, MAX_THROWS_PER_GRAMMAR, 'past the bound its files are not parsed');
  assert.match(notes[0]!, /^kotlin grammar threw: memory access out of bounds/);
  assert.match(notes.at(-1)!, new RegExp(`^kotlin grammar failed: .*threw ${MAX_THROWS_PER_GRAMMAR} times`));
  // Other languages are untouched.
  const ruby = await extractFile('ruby', 'def fine; end\n', 14);
  assert.deepEqual(ruby.extraction.symbols.map((s) => s.name), ['fine']);
});

test('after one throw the next file of the language parses with a fresh parser on the same grammar', async () => {
  await extractFile('c', 'int before(void);\n', 18);
  const original = Parser.prototype.parse;
  Parser.prototype.parse = function () {
    Parser.prototype.parse = original;
    throw new Error('unreachable');
  };
  const failed = await extractFile('c', 'int boom(void);\n', 16);
  Parser.prototype.parse = original;
  assert.equal(failed.note?.code, 'extract_failed');
  const next = await extractFile('c', 'int fine_again(void) { return 0; }\n', 35);
  assert.deepEqual(next.extraction.symbols.map((s) => s.name), ['fine_again']);
  assert.equal(grammarLoads('c'), 1);
});
