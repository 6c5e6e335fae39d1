/**
 * A long-lived thread gives its heap's garbage pages back once the heap grew past what its last
 * page return left, and a thread whose heap stays put only reads it (src/page-return.ts). The
 * policy on a manual clock and a probe the test moves; the real collection on each runtime is
 * a-page-return-leaves-the-heap-near-its-live-set.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageReturn, PAGE_RETURN_CHECK_MS, PAGE_RETURN_GROWTH_BYTES, type PageProbe } from '../src/page-return.js';
import { ManualClock } from './helpers/manual-clock.js';

const MB = 1 << 20;

/** A heap the test sizes; a return leaves `keepsAfterReturn` of it and takes `returnMs`. */
class FakeHeap implements PageProbe {
  bytes = 40 * MB;
  keepsAfterReturn = 30 * MB;
  returned = 0;
  clock = 0;
  returnMs = 12;
  heapBytes = () => this.bytes;
  now = () => this.clock;
  returnPages = () => {
    this.returned++;
    this.clock += this.returnMs;
    this.bytes = this.keepsAfterReturn;
  };
}

test('a thread whose heap did not grow returns no pages, however often it checks', () => {
  const clock = new ManualClock();
  const heap = new FakeHeap();
  const pr = new PageReturn({ timers: clock, probe: heap }).start();
  clock.advance(PAGE_RETURN_CHECK_MS * 100);
  assert.equal(heap.returned, 0);
  heap.bytes += PAGE_RETURN_GROWTH_BYTES - 1;
  clock.advance(PAGE_RETURN_CHECK_MS * 10);
  assert.equal(heap.returned, 0, 'a heap one byte short of the bound is left alone');
  assert.deepEqual(pr.returns, { count: 0, ms: 0 });
  pr.stop();
});

test('a thread returns pages at the first check after its heap grew the bound, and counts from what that return left', () => {
  const clock = new ManualClock();
  const heap = new FakeHeap();
  const pr = new PageReturn({ timers: clock, probe: heap }).start();
  heap.bytes += PAGE_RETURN_GROWTH_BYTES;
  clock.advance(PAGE_RETURN_CHECK_MS - 1);
  assert.equal(heap.returned, 0, 'nothing before the check');
  clock.advance(1);
  assert.equal(heap.returned, 1);
  assert.deepEqual(pr.returns, { count: 1, ms: 12 });
  // The return left 30 MB: growth is measured from there, not from the 40 MB the thread started at.
  heap.bytes = 30 * MB + PAGE_RETURN_GROWTH_BYTES - 1;
  clock.advance(PAGE_RETURN_CHECK_MS);
  assert.equal(heap.returned, 1);
  heap.bytes = 30 * MB + PAGE_RETURN_GROWTH_BYTES;
  clock.advance(PAGE_RETURN_CHECK_MS);
  assert.equal(heap.returned, 2);
  assert.deepEqual(pr.returns, { count: 2, ms: 24 });
  pr.stop();
});

test('a busy thread returns pages at most once a check, and none after stop()', () => {
  const clock = new ManualClock();
  const heap = new FakeHeap();
  heap.keepsAfterReturn = 40 * MB;
  const pr = new PageReturn({ timers: clock, probe: heap, checkMs: 1000, growthBytes: MB }).start();
  for (let i = 0; i < 5; i++) {
    heap.bytes += 100 * MB; // grows far past the bound between checks
    clock.advance(1000);
  }
  assert.equal(heap.returned, 5);
  pr.stop();
  assert.equal(clock.pending, 0, 'stop() clears its timer');
  heap.bytes += 100 * MB;
  clock.advance(10_000);
  assert.equal(heap.returned, 5);
});


test('growth is measured from the least the heap held since the last return, not from its first reading', () => {
  const clock = new ManualClock();
  const heap = new FakeHeap();
  heap.bytes = 15 * MB; // a thread's heap while its modules compile
  heap.keepsAfterReturn = 8 * MB;
  const pr = new PageReturn({ timers: clock, probe: heap }).start();
  heap.bytes = 8 * MB; // V8's own collection gave the compile's garbage back
  clock.advance(PAGE_RETURN_CHECK_MS);
  assert.equal(heap.returned, 0);
  heap.bytes = 8 * MB + PAGE_RETURN_GROWTH_BYTES; // then it creeps, still far below its first reading
  clock.advance(PAGE_RETURN_CHECK_MS);
  assert.equal(heap.returned, 1);
  pr.stop();
});
