/**
 * Grammars load lazily, once per thread, only for the languages a batch holds: hashing files of
 * the scanned languages never starts the tree-sitter runtime, and a C file loads the C grammar
 * and nothing else. Runs hash+extract in this thread, so it sees this thread's loader.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTempDir } from './helpers/git-repo.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashAndExtract } from '../src/ingest/hash-extract.js';
import { requestedGrammars, runtimeStarted } from '../src/ingest/tree-sitter/index.js';
import type { BacklogItem } from '../workers/types.js';

test('a batch with no tree-sitter language loads no grammar; a C file loads only C', async () => {
  const dir = await makeTempDir('gardener-lazy-');
  try {
    const files: Record<string, string> = {
      'a.ts': 'export function a() {}\n',
      'b.py': 'def b():\n  pass\n',
      'c.go': 'package c\nfunc C() {}\n',
      'd.rs': 'pub fn d() {}\n',
      'E.java': 'public class E {}\n',
      'f.md': '# notes\n',
      'App.vue': '<script>\nexport function v() {}\n</script>\n',
    };
    for (const [p, c] of Object.entries(files)) writeFileSync(join(dir.dir, p), c);
    const items = (paths: string[]): BacklogItem[] => paths.map((path, id) => ({ id, rootId: 1, path, knownHash: null }));
    const out = await hashAndExtract({ roots: { 1: dir.dir }, items: items(Object.keys(files)), maxIndexBytes: 1 << 20 });
    assert.equal(out.filter((r) => r.status === 'ingested').length, 7);
    assert.equal(runtimeStarted(), false);
    assert.deepEqual(requestedGrammars(), []);

    writeFileSync(join(dir.dir, 'g.c'), 'int g(void) { return 0; }\n');
    const [c] = await hashAndExtract({ roots: { 1: dir.dir }, items: items(['g.c']), maxIndexBytes: 1 << 20 });
    assert.equal(c!.status === 'ingested' && c!.symbolNames, 'g');
    assert.deepEqual(requestedGrammars(), ['c']);
  } finally {
    await dir.cleanup();
  }
});
