/**
 * Every duration the CLI prints for a person is rounded: whole milliseconds (one decimal under
 * 10 ms), seconds with one decimal from 10 s on; never `1179.6999999999998 ms`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ingestedLine } from '../src/cli/commands/init.js';
import { tickLine } from '../src/cli/commands/tick.js';
import { formatDuration } from '../src/cli/output.js';

/** A number with more than one decimal: what float sums print when nothing rounds them. */
const UNROUNDED = /\d\.\d{2,}/;

test('init prints its ingest time rounded, never the float sum of its parts', () => {
  const line = ingestedLine({ drained: 1000, batches: 32, detectMs: 1.1, drainMs: 1178.6, backend: 'git' });
  assert.doesNotMatch(line, UNROUNDED, line);
  assert.match(line, /\(1180 ms, git backend\)/);
  const long = ingestedLine({ drained: 20000, batches: 625, detectMs: 20.7, drainMs: 57337.000000000004, backend: 'git' });
  assert.match(long, /\(57\.4 s, git backend\)/, long);
});

test('tick prints its detect and drain times rounded', () => {
  const line = tickLine({ detected: 3, drained: 3, batches: 1, detectMs: 4.349999999999, drainMs: 1178.6000000000001, backlogLeft: 0 });
  assert.doesNotMatch(line, UNROUNDED, line);
  assert.match(line, /detect 4\.3 ms, drain 1179 ms/);
});

test('a duration is whole ms, one decimal under 10 ms, seconds from 10 s', () => {
  assert.equal(formatDuration(0.04), '0 ms');
  assert.equal(formatDuration(4.349), '4.3 ms');
  assert.equal(formatDuration(9.96), '10 ms');
  assert.equal(formatDuration(1179.6999999999998), '1180 ms');
  assert.equal(formatDuration(9999.4), '9999 ms');
  assert.equal(formatDuration(9999.6), '10.0 s');
  assert.equal(formatDuration(57357.700000000004), '57.4 s');
});
