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
import { BUN_COLLECT_GROWTH_BYTES } from '../src/bun-heap.js';
import { TREE_SITTER_BENCH_LANGUAGES } from '../bench/fixtures/tree-sitter-sources.js';
import { deliverBatch, withOnePoolThread, writeTreeSitterFiles } from './helpers/pool-batch.js';

const FILES = 640;
const BATCH = 32;
/** What one batch of these files may leave behind before the end-of-task check sees it, in bytes. */
const ONE_BATCH_SLACK = 8 << 20;
const MB = 1 << 20;

test('a pool thread holds little garbage after a burst of tree-sitter files', { timeout: 180_000 }, () =>
  withOnePoolThread('gardener-pool-garbage-', async (pool, root) => {
    const items = writeTreeSitterFiles(
      root,
      Array.from({ length: FILES }, (_, i) => ({ lang: TREE_SITTER_BENCH_LANGUAGES[i % TREE_SITTER_BENCH_LANGUAGES.length]!, seed: 9100 + i })),
    );
    let definitions = 0;
    for (let b = 0; b < FILES; b += BATCH) {
      for (const r of await deliverBatch(pool, root, items.slice(b, b + BATCH))) if (r.status === 'ingested') definitions += r.symbolCount;
    }
    assert.ok(definitions > FILES, `${definitions} definitions in ${FILES} files`);
    const heap = await pool.heapStats();
    const garbage = heap.heap - heap.used;
    assert.ok(
      garbage <= BUN_COLLECT_GROWTH_BYTES + ONE_BATCH_SLACK,
      `the pool thread's heap is ${(heap.heap / MB).toFixed(1)} MB with ${(heap.used / MB).toFixed(1)} MB live after ${FILES} files ` +
        `(bound: ${((BUN_COLLECT_GROWTH_BYTES + ONE_BATCH_SLACK) / MB).toFixed(0)} MB past the live set)`,
    );
  }));
