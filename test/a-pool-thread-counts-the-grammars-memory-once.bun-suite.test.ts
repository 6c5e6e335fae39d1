/**
 * A pool thread's external memory counts web-tree-sitter's WebAssembly memory once, on every
 * runtime, so the bench's memory table (bench/memory-breakdown.ts) compares like with like.
 * JavaScriptCore counts a WebAssembly memory twice once its buffer has been read, and
 * web-tree-sitter reads it as it starts: before, Bun's pool thread reported 74 MB of external
 * memory for a 32 MB memory where Node reported 42 MB (workers/hash-extract.ts `heapStats`).
 * `npm test` runs this file on Node; scripts/run-bun-suite.mjs under Bun.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deliverBatch, withOnePoolThread, writeTreeSitterFiles } from './helpers/pool-batch.js';

/** web-tree-sitter's memory as it starts (its INITIAL_MEMORY), which one small file does not grow. */
const TREE_SITTER_MEMORY = 32 << 20;
const MB = 1 << 20;

test("a pool thread counts the grammars' WebAssembly memory once", { timeout: 60_000 }, () =>
  withOnePoolThread('gardener-pool-wasm-', async (pool, root) => {
    const [result] = await deliverBatch(pool, root, writeTreeSitterFiles(root, [{ lang: 'c', seed: 4242 }]));
    assert.equal(result?.status, 'ingested');
    const { external } = await pool.heapStats();
    assert.ok(external >= TREE_SITTER_MEMORY, `external ${(external / MB).toFixed(1)} MB holds the ${TREE_SITTER_MEMORY / MB} MB memory`);
    assert.ok(external < 2 * TREE_SITTER_MEMORY, `external ${(external / MB).toFixed(1)} MB counts the ${TREE_SITTER_MEMORY / MB} MB memory twice`);
  }));
