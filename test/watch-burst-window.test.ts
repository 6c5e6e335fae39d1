import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BurstWindow, BURST_COALESCE_CAP_MS, BURST_COALESCE_WINDOW_MS } from '../src/watch/index.js';
import { ManualClock } from './helpers/manual-clock.js';

test('a single event fires after the silence window, not before', () => {
  const clock = new ManualClock();
  let fired = 0;
  const w = new BurstWindow(() => fired++, { timers: clock });
  w.hint();
  clock.advance(BURST_COALESCE_WINDOW_MS - 1);
  assert.equal(fired, 0);
  clock.advance(1);
  assert.equal(fired, 1);
  clock.advance(60_000);
  assert.equal(fired, 1, 'one burst, one detection');
});

test('events inside the window fold into one detection', () => {
  const clock = new ManualClock();
  let fired = 0;
  const w = new BurstWindow(() => fired++, { timers: clock });
  for (let i = 0; i < 10; i++) {
    w.hint();
    clock.advance(BURST_COALESCE_WINDOW_MS - 100);
  }
  assert.equal(fired, 0, 'still inside the burst (under its cap)');
  clock.advance(BURST_COALESCE_WINDOW_MS);
  assert.ok(fired >= 1);
});

test('continuous churn still fires at least every cap', () => {
  const clock = new ManualClock();
  const firedAt: number[] = [];
  const start = clock.now();
  const w = new BurstWindow(() => firedAt.push(clock.now() - start), { timers: clock });
  // A file rewritten every 100 ms for 12 s.
  for (let t = 0; t < 12_000; t += 100) {
    w.hint();
    clock.advance(100);
  }
  assert.deepEqual(firedAt.slice(0, 2), [BURST_COALESCE_CAP_MS, 2 * BURST_COALESCE_CAP_MS]);
  for (let i = 1; i < firedAt.length; i++) assert.ok(firedAt[i]! - firedAt[i - 1]! <= BURST_COALESCE_CAP_MS + 100);
});

test('a closed window never fires', () => {
  const clock = new ManualClock();
  let fired = 0;
  const w = new BurstWindow(() => fired++, { timers: clock });
  w.hint();
  w.close();
  w.hint();
  clock.advance(BURST_COALESCE_CAP_MS * 2);
  assert.equal(fired, 0);
});

test('options are checked once, naming the option', () => {
  assert.throws(() => new BurstWindow(() => {}, { windowMs: 0 }), /options\.windowMs must be a positive integer/);
  assert.throws(() => new BurstWindow(() => {}, { windowMs: 500, capMs: 100 }), /options\.capMs must be an integer ≥ windowMs/);
});
