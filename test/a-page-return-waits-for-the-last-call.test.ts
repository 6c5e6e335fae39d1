/**
 * The owner's main thread stops its loop for a page return (a compacting collection: 100-150 ms
 * on a 2-core box), so it runs one just after the last tool call in flight has left, never while
 * a call is being answered (src/dispatch/calls-in-flight.ts, src/page-return.ts): the calls
 * through the real dispatcher, the heap and the clock the test's own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { dispatchTool, callsInFlight, CallsInFlight, QUIET_WAIT_MS, type ToolContext, type ToolDef } from '../src/dispatch/index.js';
import { PageReturn, PAGE_RETURN_CHECK_MS, PAGE_RETURN_GROWTH_BYTES, type PageProbe } from '../src/page-return.js';
import { ManualClock } from './helpers/manual-clock.js';

const MB = 1 << 20;

class FakeHeap implements PageProbe {
  bytes = 40 * MB;
  returned = 0;
  heapBytes = () => this.bytes;
  now = () => 0;
  returnPages = () => {
    this.returned++;
    this.bytes = 30 * MB;
  };
}

/** A tool whose answer the test releases. */
function heldTool(): { tool: ToolDef; release: () => void; started: Promise<void> } {
  let release!: () => void;
  let started!: () => void;
  const startedP = new Promise<void>((r) => (started = r));
  const held = new Promise<void>((r) => (release = r));
  const tool: ToolDef = {
    name: 'held',
    description: 'answers when the test says',
    input: z.object({}),
    traffic: 'recall',
    handler: async () => {
      started();
      await held;
      return { ok: true };
    },
  };
  return { tool, release, started: startedP };
}

/** A page return found due at its first check, waiting on calls counted on the test's clock. */
function dueReturn(): { clock: ManualClock; calls: CallsInFlight; heap: FakeHeap; pr: PageReturn } {
  const clock = new ManualClock();
  const calls = new CallsInFlight(clock, (fn) => fn());
  const heap = new FakeHeap();
  const pr = new PageReturn({ timers: clock, probe: heap, moment: calls.afterLastCall }).start();
  heap.bytes += PAGE_RETURN_GROWTH_BYTES;
  clock.advance(PAGE_RETURN_CHECK_MS);
  return { clock, calls, heap, pr };
}

const ctx = { session: { trafficTick: () => {} }, signal: new AbortController().signal, progress: () => {} } as unknown as ToolContext;
const nextMacrotask = () => new Promise<void>((r) => setImmediate(r));

test('a due page return on the main thread waits while a tool call is answered, and runs once just after its answer left', async () => {
  const clock = new ManualClock();
  const heap = new FakeHeap();
  const pr = new PageReturn({ timers: clock, probe: heap, moment: callsInFlight.afterLastCall }).start();
  const { tool, release, started } = heldTool();
  const answer = dispatchTool(new Map([[tool.name, tool]]), tool.name, {}, ctx);
  await started;
  assert.equal(callsInFlight.count, 1, 'the dispatcher counts the call it is answering');

  heap.bytes += PAGE_RETURN_GROWTH_BYTES;
  clock.advance(PAGE_RETURN_CHECK_MS);
  clock.advance(PAGE_RETURN_CHECK_MS); // a second check while the first return still waits
  await nextMacrotask();
  assert.equal(heap.returned, 0, 'no return while the call is answered');

  release();
  const result = await answer;
  assert.equal(heap.returned, 0, 'the answer is out before the return runs');
  assert.deepEqual(result.value, { ok: true });
  await nextMacrotask();
  assert.equal(heap.returned, 1, 'one return, just after the last call left');
  assert.equal(pr.returns.count, 1);
  assert.equal(callsInFlight.count, 0);
  // The deadline the wait set was cleared: nothing runs again when it would have fallen due.
  clock.advance(QUIET_WAIT_MS);
  assert.equal(heap.returned, 1);
  pr.stop();
});

test('with no call in flight a due return waits for the next call to end, and at most QUIET_WAIT_MS', async () => {
  const { clock, calls, heap, pr } = dueReturn();
  assert.equal(heap.returned, 0, 'due, but it waits for the moment after an answer');
  calls.enter();
  calls.enter();
  calls.leave();
  assert.equal(heap.returned, 0, 'one call still in flight');
  calls.leave();
  assert.equal(heap.returned, 1, 'the last call left');

  // A thread whose calls never pause (or that has none) still returns its pages.
  heap.bytes += PAGE_RETURN_GROWTH_BYTES;
  clock.advance(PAGE_RETURN_CHECK_MS);
  calls.enter();
  clock.advance(QUIET_WAIT_MS - 1);
  assert.equal(heap.returned, 1);
  clock.advance(1);
  assert.equal(heap.returned, 2, 'the wait is bounded');
  calls.leave();
  assert.equal(heap.returned, 2, 'and the work ran once');
  pr.stop();
});

test('a return still waiting when its thread stops does not run', () => {
  const { clock, calls, heap, pr } = dueReturn();
  pr.stop();
  clock.advance(QUIET_WAIT_MS);
  assert.equal(heap.returned, 0);
});

test('a call that throws leaves the count too', async () => {
  const failing: ToolDef = { ...heldTool().tool, name: 'x', handler: async () => { throw new Error('boom'); } };
  const r = await dispatchTool(new Map([['x', failing]]), 'x', {}, ctx);
  assert.equal(r.isError, true);
  assert.equal(callsInFlight.count, 0);
});
