/**
 * A pool thread's WebAssembly memory never shrinks, so the pool gives back the grammars it
 * loaded by ending its threads once it has run nothing for `grammarReleaseIdleMs`; the next
 * task starts a fresh thread that holds none. A pool that never parsed with tree-sitter arms
 * no such release, and work before the deadline pushes it back. Driven by a manual clock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkerPool } from '../src/pool/index.js';
import type { BacklogItem } from '../workers/types.js';
import { makeTempDir } from './helpers/git-repo.js';
import { ManualClock } from './helpers/manual-clock.js';

const IDLE_MS = 1_000;

test('a pool whose thread loaded grammars ends it after the idle time, and the next thread holds none', async () => {
  const dir = await makeTempDir('gardener-release-');
  const clock = new ManualClock();
  const pool = new WorkerPool({ maxThreads: 1, grammarReleaseIdleMs: IDLE_MS, timers: clock });
  try {
    writeFileSync(join(dir.dir, 'Main.kt'), 'package app\n\nfun main() {\n    println("hi")\n}\n');
    writeFileSync(join(dir.dir, 'b.ts'), 'export function b() {}\n');
    const batch = (path: string) => ({ roots: { 1: dir.dir }, items: [{ id: 1, rootId: 1, path, knownHash: null }] as BacklogItem[], maxIndexBytes: 1 << 20 });

    const scanned = await pool.hashExtract(batch('b.ts'));
    assert.equal(scanned.holdsGrammars, false);
    assert.equal(clock.pending, 0, 'no release is armed for a pool without grammars');

    const kotlin = await pool.hashExtract(batch('Main.kt'));
    assert.equal(kotlin.results[0]!.status === 'ingested' && kotlin.results[0]!.symbolNames, 'main');
    assert.equal(kotlin.holdsGrammars, true);
    assert.equal(pool.holdsGrammars, true);

    clock.advance(IDLE_MS - 1);
    const before = await pool.hashExtract(batch('b.ts'));
    assert.equal(before.holdsGrammars, true, 'the same thread, grammars still loaded');
    clock.advance(IDLE_MS - 1);
    assert.equal(pool.holdsGrammars, true, 'work before the deadline pushed it back');

    clock.advance(1);
    assert.equal(pool.holdsGrammars, false);
    const after = await pool.hashExtract(batch('b.ts'));
    assert.equal(after.holdsGrammars, false, 'a fresh thread holds no grammar');
    assert.equal(clock.pending, 0);
  } finally {
    await pool.close();
    await dir.cleanup();
  }
});

test('options.grammarReleaseIdleMs is checked once, at construction', () => {
  assert.throws(() => new WorkerPool({ grammarReleaseIdleMs: 0 }), /options\.grammarReleaseIdleMs must be a positive integer, got 0 \(number\)/);
});
