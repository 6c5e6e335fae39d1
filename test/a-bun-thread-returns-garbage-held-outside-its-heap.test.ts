/**
 * On Bun, a thread whose garbage sits outside JavaScriptCore's heap of cells (the storage of
 * ArrayBuffers and large strings: a store writer receives every file's text as a moved buffer)
 * still gives it back: the page return reads what the thread holds with that memory counted
 * (src/page-return.ts threadProbe). In a 30-minute Bun soak the store writers' external memory
 * rose 3.50 MB/10 min and swung 2.6 -> 14.3 MB while their heaps of cells stayed put, and they
 * returned pages 5 times in all (docs/reliability.md). A real Bun process drops 48 MB of buffers
 * in its main thread and in a worker and runs one check of its real page return.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seenInMainAndWorker } from './helpers/thread-child.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUN = join(ROOT, 'node_modules', '.bin', 'bun');
const PAGE_RETURN = new URL('../src/page-return.js', import.meta.url).href;
const BUN_HEAP = new URL('../src/bun-heap.js', import.meta.url).href;
const MB = 1 << 20;
const DROPPED_MB = 48;

const CHILD = `
const { PageReturn } = await import(${JSON.stringify(PAGE_RETURN)});
const { bunThreadHeap } = await import(${JSON.stringify(BUN_HEAP)});
Bun.gc(true);
const pr = new PageReturn();
let texts = [];
for (let i = 0; i < ${DROPPED_MB * 16}; i++) texts.push(new Uint8Array(64 * 1024).fill(i & 255));
texts = null;
const before = bunThreadHeap();
const returned = pr.check();
const after = bunThreadHeap();
const seen = { returned, externalBefore: before.external, externalAfter: after.external, count: pr.returns.count };
`;

test('a Bun thread returns the garbage it holds outside its heap of cells (main thread and a worker)', { skip: existsSync(BUN) ? false : `${BUN} is not installed` }, () => {
  const seen = seenInMainAndWorker<{ returned: boolean; externalBefore: number; externalAfter: number; count: number }>(BUN, CHILD);
  for (const s of seen) {
    const at = `${s.thread}: external ${(s.externalBefore / MB).toFixed(1)} -> ${(s.externalAfter / MB).toFixed(1)} MB`;
    assert.ok(s.externalBefore / MB >= DROPPED_MB - 4, `the dropped buffers were collected before the check (${at})`);
    assert.equal(s.returned, true, `the check saw no growth in ${DROPPED_MB} MB of dropped buffers (${at})`);
    assert.equal(s.count, 1);
    assert.ok(s.externalAfter / MB < 8, `the return left the buffers held (${at})`);
  }
});
