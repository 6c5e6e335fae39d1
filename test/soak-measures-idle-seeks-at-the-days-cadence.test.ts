/**
 * The soak's idle seeks, whose p99 the day's probes are judged against, come at the day's
 * cadence (bench/soak/seek-prober.ts): a call 50 ms after the last ran a third faster than one
 * 500 ms after on the same idle owner, so idle calls ten times as dense made the load look worse
 * than it was. Here a server stands in for the owner and notes when each seek arrives.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SeekProber } from '../bench/soak/seek-prober.js';

const EVERY_MS = 40;

test('idle seeks are a probe period apart, as the probes of the day are', async () => {
  const arrivals: number[] = [];
  const server = createServer((req, res) => {
    arrivals.push(performance.now());
    req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"code":[],"notes":[]}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const prober = new SeekProber({ url: `http://127.0.0.1:${port}`, token: 't', folder: '/nowhere', words: ['invoice'], everyMs: EVERY_MS });
  try {
    const ms = await prober.idle(6, 1);
    assert.equal(ms.length, 6, 'six measured calls after one unmeasured');
    assert.equal(arrivals.length, 7);
    const gaps = arrivals.slice(1).map((t, i) => t - arrivals[i]!);
    // A timer fires no earlier than asked; a millisecond of slack for the clocks of two threads.
    for (const gap of gaps) assert.ok(gap >= EVERY_MS - 1, `idle seeks ${gaps.map((g) => g.toFixed(1)).join(', ')} ms apart: each at least ${EVERY_MS}`);
  } finally {
    await prober.stop();
    await new Promise((resolve) => server.close(resolve));
  }
});
