/**
 * Bad input on the tree-sitter path costs bounded time and memory per file, raises an alert
 * naming the file, and loses nothing else: the file still reaches the full-text index and the
 * rest of the batch is ingested with its definitions. Through the real pool and writer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains } from './helpers/brains.js';
import { runTick } from '../src/vigil/index.js';
import { listAlerts, type Database } from '../src/store/index.js';
import { seek } from '../src/ranking/index.js';
import { extractFile } from '../src/ingest/extraction.js';
import { grammarLoads, grammarRowOf, loadGrammar, TREE_SITTER_MAX_BYTES, type LoadedGrammar } from '../src/ingest/tree-sitter/index.js';

const definedIn = (db: Database, name: string) => seek(db, name).filter((h) => h.symbol === name).map((h) => h.path);

test('a file past the parse bound is indexed as text with an alert naming it, and the batch goes on', async () => {
  // A generated C file over the bound, and a Ruby file that is one long line over it.
  const generated = 'int generated_marker;\n' + 'int g(int x) { return x; }\n'.repeat(Math.ceil((TREE_SITTER_MAX_BYTES * 2) / 27));
  const oneLine = 'x = [' + '1, '.repeat(Math.ceil(TREE_SITTER_MAX_BYTES / 3)) + '] # oneline_marker\n';
  const repo = await makeGitRepo({
    'src/gen.c': generated,
    'lib/line.rb': oneLine,
    'src/ok.c': 'int healthy_c(void) { return 0; }\n',
    'src/Ok.kt': 'class HealthyKotlin\n',
  });
  // NUL bytes make it binary: no text, no grammar, no alert.
  repo.write('src/blob.c', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1, 2, 3]));
  // Invalid UTF-8 inside a string literal: decoded with replacement characters, parsed as usual.
  repo.write('src/bytes.c', Buffer.concat([Buffer.from('const char *s = "'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('";\nint after_bad_bytes(void) { return 1; }\n')]));
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    const r = await runTick(brain, { inventory: true, maxIndexBytes: 8 * TREE_SITTER_MAX_BYTES });
    assert.equal(r.drained, 6);
    assert.deepEqual(definedIn(brain.reader, 'healthy_c'), ['src/ok.c']);
    assert.deepEqual(definedIn(brain.reader, 'HealthyKotlin'), ['src/Ok.kt']);
    assert.deepEqual(definedIn(brain.reader, 'after_bad_bytes'), ['src/bytes.c']);
    // The oversized files are in the full-text index all the same.
    assert.ok(seek(brain.reader, 'generated_marker').some((h) => h.path === 'src/gen.c'));
    assert.ok(seek(brain.reader, 'oneline_marker').some((h) => h.path === 'lib/line.rb'));
    const alerts = listAlerts(brain.reader);
    assert.deepEqual(alerts.map((a) => [a.code, a.path]).sort(), [['extract_skipped', 'lib/line.rb'], ['extract_skipped', 'src/gen.c']]);
    for (const a of alerts) assert.match(a.message, new RegExp(`^${a.path}: .*bound`));
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});

test('a parse that runs past its time bound is cancelled, and the next file parses normally', async () => {
  const source = 'int f(int x) { return x; }\n'.repeat(4000);
  // A clock that jumps a second every time it is read: the first progress check is over budget.
  let clock = 0;
  const bounds = { maxBytes: TREE_SITTER_MAX_BYTES, budgetMs: 500, now: () => (clock += 1000) };
  const cut = await extractFile('c', source, source.length, { bounds });
  assert.equal(cut.note?.code, 'extract_skipped');
  assert.match(cut.note!.message, /took over 500 ms/);
  assert.deepEqual(cut.extraction.symbols, []);
  const next = await extractFile('c', 'int g(void) { return 0; }\n', 26);
  assert.equal(next.note, undefined);
  assert.deepEqual(next.extraction.symbols.map((s) => s.name), ['g']);
});

test('a grammar that fails to load fails its files with a note, and other languages are untouched', async () => {
  const broken = { ...grammarRowOf('c')!, wasm: 'tree-sitter-no-such-language.wasm' };
  const failed = await extractFile('c', 'int f(void);\n', 13, { row: broken });
  assert.equal(failed.note?.code, 'extract_failed');
  assert.match(failed.note!.message, /^c grammar failed: /);
  const again = await extractFile('c', 'int f(void);\n', 13, { row: broken });
  assert.equal(again.note?.code, 'extract_failed', 'the failure is remembered, not retried per file');
  const ruby = await extractFile('ruby', 'def fine; end\n', 14);
  assert.deepEqual(ruby.extraction.symbols.map((s) => s.name), ['fine']);
});

test('a grammar that throws mid-parse fails that file with a note, and the next file gets a fresh parser', async () => {
  const row = grammarRowOf('ruby')!;
  const real = await loadGrammar(row);
  const throwing: LoadedGrammar = {
    ...real,
    parser: { parse: () => { throw new RuntimeError('memory access out of bounds'); }, reset: () => {}, delete: () => {} } as unknown as LoadedGrammar['parser'],
  };
  const failed = await extractFile('ruby', 'def boom; end\n', 14, { load: async () => throwing });
  assert.equal(failed.note?.code, 'extract_failed');
  assert.match(failed.note!.message, /^ruby grammar threw: memory access out of bounds/);
  const next = await extractFile('ruby', 'def fine_again; end\n', 20);
  assert.deepEqual(next.extraction.symbols.map((s) => s.name), ['fine_again']);
  assert.equal(grammarLoads('ruby'), 1, 'a fresh parser, not a second copy of the grammar');
});

class RuntimeError extends Error {}
