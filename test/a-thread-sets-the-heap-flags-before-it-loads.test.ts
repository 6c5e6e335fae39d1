/**
 * On Node 20 starting a worker thread puts V8's heap flags back to their defaults for the whole
 * process, until that thread sets them again (src/heap-growth.ts); meanwhile the main thread's
 * young generation may grow, and V8 keeps it grown. So the module each thread starts with sets
 * them before anything else of Gardener loads: its static imports are heap-growth alone (which
 * imports only Node's own modules), and it calls keepHeapsSmall() before its first import().
 * Read from the modules the pool and the store writer really start their threads with.
 *
 * Why it matters, measured: the hash+extract entry's module graph takes 205 ms to load on an idle
 * machine, the store writer's 279 ms; flags set at the end of those, 6 of 24 runs of a busy
 * machine saw the main thread's new space grow from 2 to 4 MB while the two threads started.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { POOL_THREAD_FILE } from '../src/pool/worker-pool.js';
import { WRITER_THREAD_URL } from '../src/pool/store-writer-client.js';

const HEAP_GROWTH = fileURLToPath(new URL('../src/heap-growth.js', import.meta.url));

/** The specifiers a compiled module imports statically, in order. */
function staticImports(source: string): string[] {
  return [...source.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => (m[1] ?? m[2])!);
}

for (const [thread, file] of [
  ['a pool thread', POOL_THREAD_FILE],
  ['the store writer', fileURLToPath(WRITER_THREAD_URL)],
] as const) {
  test(`${thread} starts with a module that sets the heap flags before anything else of Gardener loads`, () => {
    const source = readFileSync(file, 'utf8');
    const imports = staticImports(source);
    assert.deepEqual(
      imports.map((s) => fileURLToPath(new URL(s, `file://${file}`))),
      [HEAP_GROWTH],
      `${file} imports ${imports.join(', ')} statically: each loads before the flags are set`,
    );
    const setAt = source.indexOf('keepHeapsSmall()');
    const firstImport = source.search(/\bimport\(/);
    assert.ok(setAt >= 0, `${file} never calls keepHeapsSmall()`);
    assert.ok(firstImport < 0 || setAt < firstImport, `${file} imports a module before it sets the heap flags`);
  });
}

test('heap-growth, loaded first by every thread, imports nothing but Node\'s own modules', () => {
  const imports = staticImports(readFileSync(HEAP_GROWTH, 'utf8'));
  assert.ok(imports.length > 0 && imports.every((s) => s.startsWith('node:')), `heap-growth imports ${imports.join(', ')}`);
});
