/**
 * The soak's warm-up does the day's heaviest work once of each kind (bench/soak/workload.ts,
 * burstSizeOf): the big brain's first visits, one per move (a file growing past the bound, a
 * branch switch, renames, a rebase, a `git gc`), burst 1000 files each. Drawn at random, the
 * first 1000-file burst beside a rebase came 15 minutes into the day, well past the 5-minute
 * warm-up after which memory is judged flat, and the memory rose to it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MOVES, burstSizeOf } from '../bench/soak/workload.js';

test("the big brain's first visit of each move bursts 1000 files, whatever the draw", () => {
  for (let visit = 0; visit < MOVES; visit++) {
    for (const roll of [0, 0.3, 0.7, 0.99]) assert.equal(burstSizeOf('big', visit, roll), 1000, `visit ${visit}, roll ${roll}`);
  }
});

test('after the warm-up the day draws its sizes, 1000 on the big brain alone', () => {
  assert.deepEqual([0, 0.3, 0.7, 0.99].map((roll) => burstSizeOf('big', MOVES, roll)), [1, 10, 100, 1000]);
  for (const kind of ['ts', 'plain'] as const) {
    assert.deepEqual([0, 0.3, 0.7, 0.99].map((roll) => burstSizeOf(kind, 0, roll)), [1, 10, 60, 60], kind);
  }
});
