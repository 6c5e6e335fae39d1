/**
 * On Bun, a pool thread that holds tree-sitter grammars also collects at the end of a task once
 * the process's resident memory grew BUN_COLLECT_RSS_GROWTH_BYTES past what it was after its last
 * collection, although its heap of cells did not grow past BUN_COLLECT_GROWTH_BYTES: the code
 * JavaScriptCore's WebAssembly tiers compile for the grammars' lexers, and the code they retire,
 * live outside that heap and are given back only at a collection (src/bun-heap.ts). A thread that
 * holds no grammars (the scanned languages) does not collect on RSS, so a scanner burst pays
 * nothing. Driven through collectIfGrown with fake readings, on any runtime.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BUN_COLLECT_GROWTH_BYTES, BUN_COLLECT_RSS_GROWTH_BYTES, collectIfGrown, type HeapProbe } from '../src/bun-heap.js';

const MB = 1 << 20;

function fakeBun(start: { heapTotal: number; rss: number }): HeapProbe & { now: { heapTotal: number; rss: number }; collections: number } {
  const probe = {
    onBun: true,
    now: { ...start },
    collections: 0,
    usage: () => ({ ...probe.now }),
    collect: () => {
      probe.collections++;
    },
  };
  return probe;
}

test('a thread holding grammars collects once the process grew past the RSS bound, its heap unchanged', () => {
  const probe = fakeBun({ heapTotal: 8 * MB, rss: 150 * MB });
  const state = { keptHeap: 8 * MB, keptRss: 150 * MB };
  probe.now.rss += BUN_COLLECT_RSS_GROWTH_BYTES - MB;
  assert.equal(collectIfGrown({ holdsGrammars: true }, probe, state), false, 'below the RSS bound: no collection');
  probe.now.rss += 2 * MB;
  assert.equal(collectIfGrown({ holdsGrammars: true }, probe, state), true, 'past the RSS bound: a collection');
  assert.equal(probe.collections, 1);
  assert.equal(state.keptRss, probe.now.rss, 'the RSS after the collection is the next baseline');
});

test('a thread without grammars does not collect on RSS growth, only on heap growth', () => {
  const probe = fakeBun({ heapTotal: 8 * MB, rss: 150 * MB });
  const state = { keptHeap: 8 * MB, keptRss: 150 * MB };
  probe.now.rss += 4 * BUN_COLLECT_RSS_GROWTH_BYTES;
  assert.equal(collectIfGrown({ holdsGrammars: false }, probe, state), false);
  probe.now.heapTotal += BUN_COLLECT_GROWTH_BYTES;
  assert.equal(collectIfGrown({ holdsGrammars: false }, probe, state), true);
  assert.equal(probe.collections, 1);
});

test('nothing collects off Bun', () => {
  const probe = { ...fakeBun({ heapTotal: 8 * MB, rss: 150 * MB }), onBun: false };
  const state = { keptHeap: 0, keptRss: 0 };
  assert.equal(collectIfGrown({ holdsGrammars: true }, probe, state), false);
  assert.equal(probe.collections, 0);
});
