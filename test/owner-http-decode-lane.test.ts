import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DecodeLane } from '../src/transports/http/decode-lane.js';

test('large bodies are decoded one per turn of the event loop: what waits between two decodes runs before the second', async () => {
  const lane = new DecodeLane();
  const order: string[] = [];
  const first = lane.run(() => {
    order.push('decode 1');
    // Another client's request, arriving while the first body is decoded.
    setImmediate(() => order.push('other client'));
    return 1;
  });
  const second = lane.run(() => (order.push('decode 2'), 2));
  assert.deepEqual(await Promise.all([first, second]), [1, 2]);
  assert.deepEqual(order, ['decode 1', 'other client', 'decode 2']);
});

test('a decode that throws rejects its own caller only; the lane goes on', async () => {
  const lane = new DecodeLane();
  const bad = lane.run(() => {
    throw new Error('boom');
  });
  const good = lane.run(() => 'ok');
  await assert.rejects(bad, /boom/);
  assert.equal(await good, 'ok');
});

test('after a decode of d ms the lane leaves the thread to others for d ms: at least half of it is theirs', async () => {
  let now = 0;
  const waits: number[] = [];
  const lane = new DecodeLane({
    now: () => now,
    defer: (ms, fn) => {
      waits.push(ms);
      setImmediate(fn);
    },
  });
  const decode = (ms: number) => () => {
    now += ms;
    return ms;
  };
  assert.deepEqual(await Promise.all([lane.run(decode(30)), lane.run(decode(5)), lane.run(decode(0))]), [30, 5, 0]);
  // Before the first: nothing to give back; after each: its own time.
  assert.deepEqual(waits, [0, 30, 5]);
});
