/**
 * The collection a thread runs to give its garbage pages back (src/page-return.ts
 * returnPagesNow) leaves the heap near what is live, on each runtime the owner runs on, in the
 * main thread and in a worker thread; and taking Node's gc function leaves no global gc behind.
 * A real process on each runtime grows its heap past 100 MB with objects that then die (a burst's
 * results, say), keeps 20,000 of them, and reads its heap before and after one page return.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seenInMainAndWorker } from './helpers/thread-child.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGE_RETURN = new URL('../src/page-return.js', import.meta.url).href;
const HEAP_GROWTH = new URL('../src/heap-growth.js', import.meta.url).href;
const RUNTIMES: [string, string][] = [
  ['this node', process.execPath],
  ['node 24', join(ROOT, 'node_modules', 'node', 'bin', 'node')],
  ['bun', join(ROOT, 'node_modules', '.bin', 'bun')],
];
const MB = 1 << 20;
/** Before: the dead objects fill the heap (measured 140-155 MB on Node 20, Node 24 and Bun). */
const MIN_GROWN_MB = 100;
/**
 * After, above what is live: measured 1.2 MB on Node 24, 4.4 on Node 20, under 1 on Bun; a
 * collection that frees the objects but keeps their pages holds 100 MB or more.
 */
const MAX_HELD_ABOVE_LIVE_MB = 12;
/**
 * The process's RSS given back by the return: measured 135-139 MB on Node 24 (60 MB left),
 * 98-142 MB on Node 20, about 100 on Bun. What fails it: Node 24's plain gc() frees the pages
 * into V8's pool, which gives them back only when V8's memory reducer finds the thread idle (8.1 s
 * later, measured; a busy owner may never be), and on Node 20 the options object does not
 * collect at all. Node 20 unmaps freed pages on a background thread, a moment after the
 * collection, with nothing to wait on; the child turns concurrent sweeping off (V8 then unmaps in
 * the collection itself: 192 MB back at once, as 191-195 MB came back 500 ms later with it on),
 * so RSS is read right after the return.
 */
const MIN_RSS_RETURNED_MB = 60;

const CHILD = `
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
if (!process.versions.bun) setFlagsFromString('--no-concurrent-sweeping');
const { returnPagesNow, threadProbe } = await import(${JSON.stringify(PAGE_RETURN)});
const { keepHeapsSmall } = await import(${JSON.stringify(HEAP_GROWTH)});
keepHeapsSmall();
const probe = threadProbe();
let burst = [];
for (let i = 0; i < 1_000_000; i++) burst.push({ path: 'src/file' + i + '.ts', at: [i, i + 1] });
const keep = burst.slice(0, 20_000);
burst = null;
const before = probe.heapBytes();
const rssBefore = process.memoryUsage().rss;
returnPagesNow();
const after = probe.heapBytes();
const rssAfter = process.memoryUsage().rss;
const { getHeapStatistics } = await import('node:v8');
const live = process.versions.bun ? (await import('bun:jsc')).heapStats().heapSize : getHeapStatistics().used_heap_size;
const seen = { before, after, rssReturned: rssBefore - rssAfter, live, kept: keep.length, globalGc: typeof globalThis.gc, newContextGc: runInNewContext('typeof gc') };
`;

for (const [name, runtime] of RUNTIMES) {
  test(`a page return leaves the heap near its live set (${name}, main thread and a worker)`, { skip: existsSync(runtime) ? false : `${runtime} is not installed` }, () => {
    const seen = seenInMainAndWorker<{ before: number; after: number; rssReturned: number; live: number; kept: number; globalGc: string; newContextGc: string }>(runtime, CHILD);
    for (const s of seen) {
      const at = `${name}, ${s.thread}: heap ${(s.before / MB).toFixed(1)} -> ${(s.after / MB).toFixed(1)} MB, live ${(s.live / MB).toFixed(1)} MB`;
      assert.equal(s.kept, 20_000);
      assert.ok(s.before / MB >= MIN_GROWN_MB, `the heap did not grow as the test needs (${at})`);
      assert.ok((s.after - s.live) / MB <= MAX_HELD_ABOVE_LIVE_MB, `the page return kept ${((s.after - s.live) / MB).toFixed(1)} MB above what is live (bound ${MAX_HELD_ABOVE_LIVE_MB}; ${at})`);
      assert.ok(s.rssReturned / MB >= MIN_RSS_RETURNED_MB, `the process got back only ${(s.rssReturned / MB).toFixed(1)} MB of RSS (bound ${MIN_RSS_RETURNED_MB}; ${at})`);
      assert.equal(s.globalGc, 'undefined', `${name}, ${s.thread}: a global gc was left exposed`);
      assert.equal(s.newContextGc, 'undefined', `${name}, ${s.thread}: a new context sees gc`);
    }
  });
}
