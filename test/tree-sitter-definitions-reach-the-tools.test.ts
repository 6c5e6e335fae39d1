/**
 * Definitions from the tree-sitter path reach every reader of definitions, through the real
 * pool and writer: `seek` returns them as definition hits, `north` counts each language's files
 * and definitions, and the skeleton candidate sees the C include and the Ruby require as edges.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains } from './helpers/brains.js';
import { makeTestSession } from './helpers/session.js';
import { runTick } from '../src/vigil/index.js';

test('seek, north and the import graph see the definitions and imports of C, Kotlin and Ruby files', async () => {
  const repo = await makeGitRepo({
    'native/store.h': '#pragma once\nint store_get(int key);\n',
    'native/store.c': '#include "store.h"\n\nint store_get(int key)\n{\n  return key;\n}\n',
    'app/src/Queue.kt': 'package app\n\nclass WorkQueue {\n    fun push(x: Int) {}\n}\n',
    'lib/cache.rb': "require_relative 'cache/entry'\n\nmodule Cache\nend\n",
    'lib/cache/entry.rb': 'module Cache\n  class Entry\n    def fetch(key)\n      key\n    end\n  end\nend\n',
  });
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    const s = await makeTestSession(t.brains, repo.dir);
    try {
      const seek = await s.dispatch('seek', { query: 'WorkQueue', scope: 'code' });
      assert.notEqual(seek.isError, true);
      assert.deepEqual(
        seek.value.code.filter((h: { symbol?: string }) => h.symbol === 'WorkQueue').map((h: { path: string; line: number }) => [h.path, h.line]),
        [['app/src/Queue.kt', 3]],
      );
      const north = await s.dispatch('north', {});
      const langs = new Map((north.value.languages as { language: string; files: number; definitions: number }[]).map((l) => [l.language, l]));
      assert.deepEqual({ ...langs.get('ruby') }, { language: 'ruby', files: 2, definitions: 4 });
      assert.deepEqual({ ...langs.get('c') }, { language: 'c', files: 2, definitions: 2 });
      assert.deepEqual({ ...langs.get('kotlin') }, { language: 'kotlin', files: 1, definitions: 2 });
      const imports = brain.reader.prepare("SELECT path, imports FROM files WHERE path IN ('native/store.c', 'lib/cache.rb') ORDER BY path").all<{ path: string; imports: string }>();
      assert.deepEqual(imports.map((r) => [r.path, JSON.parse(r.imports)]), [
        ['lib/cache.rb', [{ module: 'cache/entry', line: 1 }]],
        ['native/store.c', [{ module: 'store.h', line: 1 }]],
      ]);
    } finally {
      await s.close();
    }
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});
