/**
 * The proxy's bounds (GARDENER_PROXY_DIAL_MS, GARDENER_PROXY_LIVENESS_MS) are read by one rule:
 * unset gives the default, a whole number of ms at least the minimum is taken, anything else is
 * said and ignored.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { msFromEnv } from '../src/timers.js';

const NAME = 'GARDENER_TEST_BOUND_MS';

function read(value: string | undefined): { ms: number; said: string[] } {
  const said: string[] = [];
  if (value === undefined) delete process.env[NAME];
  else process.env[NAME] = value;
  try {
    return { ms: msFromEnv(NAME, 100, 4, (line) => said.push(line)), said };
  } finally {
    delete process.env[NAME];
  }
}

test('a bound from the environment: unset or empty is the default, a whole number of ms is taken', () => {
  assert.deepEqual(read(undefined), { ms: 100, said: [] });
  assert.deepEqual(read(''), { ms: 100, said: [] });
  assert.deepEqual(read('2500'), { ms: 2500, said: [] });
  assert.deepEqual(read('4'), { ms: 4, said: [] });
});

test('a bound that is not a whole number of ms at least the minimum is named, said and ignored', () => {
  for (const bad of ['fast', '1.5', '-10', '3', '10ms']) {
    const r = read(bad);
    assert.equal(r.ms, 100, bad);
    assert.equal(r.said.length, 1, bad);
    assert.match(r.said[0]!, new RegExp(`${NAME} must be a whole number of ms \\(at least 4\\), got "${bad.replace('.', '\\.')}": using 100`));
  }
});
