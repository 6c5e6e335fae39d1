/**
 * A pool thread holds little garbage once a task is done, on every runtime: after a burst of
 * tree-sitter files its heap is within BUN_COLLECT_GROWTH_BYTES (plus one batch) of what is
 * live in it. On Node, V8 sees to it (the worker's resourceLimits, src/pool/worker-pool.ts). On
 * Bun, JavaScriptCore counts the grammars' WebAssembly memory (about 70 MB) as heap and lets the
 * heap grow in proportion before it collects: measured before the law, 1000 files of the bench's
 * tree-sitter burst left the pool thread at 200 MB of heap with 76 MB live, and the process at
 * 270 MB; the thread now collects at the end of a task once its heap grew past the bound
 * (src/bun-heap.ts). `npm test` runs this file on Node; scripts/run-bun-suite.mjs under Bun.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { WorkerPool } from '../src/pool/index.js';
import type { FileResult } from '../workers/types.js';
import { BUN_COLLECT_GROWTH_BYTES } from '../src/bun-heap.js';
import { generateTreeSitterSource, TREE_SITTER_BENCH_LANGUAGES, TREE_SITTER_EXTENSION } from '../bench/fixtures/tree-sitter-sources.js';
import { makeTempDir } from './helpers/git-repo.js';

const FILES = 640;
const BATCH = 32;
/** What one batch of these files may leave behind before the end-of-task check sees it, in bytes. */
const ONE_BATCH_SLACK = 8 << 20;
const MB = 1 << 20;

test('a pool thread holds little garbage after a burst of tree-sitter files', { timeout: 180_000 }, async () => {
  const temp = await makeTempDir('gardener-pool-garbage-');
  const pool = new WorkerPool({ maxThreads: 1 });
  try {
    const items = Array.from({ length: FILES }, (_, i) => {
      const lang = TREE_SITTER_BENCH_LANGUAGES[i % TREE_SITTER_BENCH_LANGUAGES.length]!;
      const path = `src/${lang}/unit_${i}.${TREE_SITTER_EXTENSION[lang]}`;
      mkdirSync(dirname(join(temp.dir, path)), { recursive: true });
      writeFileSync(join(temp.dir, path), generateTreeSitterSource(lang, 9100 + i, i));
      return { id: i + 1, rootId: 1, path, knownHash: null };
    });
    let definitions = 0;
    // As a drain runs its batches: the results go out on a channel of their own (src/vigil/tick.ts).
    for (let b = 0; b < FILES; b += BATCH) {
      const { port1, port2 } = new MessageChannel();
      const delivered = new Promise<FileResult[]>((resolve) => port2.once('message', resolve));
      await pool.hashExtractTo({ roots: { 1: temp.dir }, items: items.slice(b, b + BATCH), maxIndexBytes: 1 << 20 }, port1);
      for (const r of await delivered) if (r.status === 'ingested') definitions += r.symbolCount;
      port2.close();
    }
    assert.ok(definitions > FILES, `${definitions} definitions in ${FILES} files`);
    const heap = await pool.heapStats();
    const garbage = heap.heap - heap.used;
    assert.ok(
      garbage <= BUN_COLLECT_GROWTH_BYTES + ONE_BATCH_SLACK,
      `the pool thread's heap is ${(heap.heap / MB).toFixed(1)} MB with ${(heap.used / MB).toFixed(1)} MB live after ${FILES} files ` +
        `(bound: ${((BUN_COLLECT_GROWTH_BYTES + ONE_BATCH_SLACK) / MB).toFixed(0)} MB past the live set)`,
    );
  } finally {
    await pool.close();
    await temp.cleanup();
  }
});
