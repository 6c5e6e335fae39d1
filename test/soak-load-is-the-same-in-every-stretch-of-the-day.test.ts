/**
 * The soak's load is the same in every stretch of its day (bench/soak/burst-sizes.ts). Its memory
 * is judged by a least-squares slope from the end of the warm-up and by whether the last third
 * makes a new peak; both read a stretch that carries more bursts than the rest as growth. Drawn
 * as independent dice, the 1000-file bursts of the default seed's two-hour runs came 1 per 10
 * minutes in minutes 70-90 and 8 in minutes 110-120, and the RSS of both Bun runs followed them.
 * After the warm-up every 8 visits of the big brain now carry its deck: one 1000-file burst, three
 * of 100, two of 10, two of 1, in an order drawn at random; the other brains' decks of 10 hold
 * four of 60, three of 10 and three of 1.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Rng } from '../bench/fixtures/source-files.js';
import { BurstSizes } from '../bench/soak/burst-sizes.js';
import { MOVES } from '../bench/soak/workload.js';

const counts = (xs: number[]) => Object.fromEntries([...new Set(xs)].sort((a, b) => a - b).map((x) => [x, xs.filter((y) => y === x).length]));

test("the big brain's first visit of each move bursts 1000 files, whatever the seed", () => {
  for (const seed of [1, 2, 3]) {
    const sizes = new BurstSizes(new Rng(seed), MOVES);
    for (let visit = 0; visit < MOVES; visit++) assert.equal(sizes.next('big', visit), 1000, `seed ${seed}, visit ${visit}`);
  }
});

test('after the warm-up, every 8 visits of the big brain carry one 1000-file burst, three of 100, two of 10 and two of 1', () => {
  for (const seed of [20261203, 7, 99]) {
    const sizes = new BurstSizes(new Rng(seed), MOVES);
    for (let visit = 0; visit < MOVES; visit++) sizes.next('big', visit);
    const drawn: number[] = [];
    for (let visit = MOVES; visit < MOVES + 8 * 100; visit++) drawn.push(sizes.next('big', visit));
    for (let deck = 0; deck < 100; deck++) {
      assert.deepEqual(counts(drawn.slice(deck * 8, deck * 8 + 8)), { 1: 2, 10: 2, 100: 3, 1000: 1 }, `seed ${seed}, deck ${deck}`);
    }
    // Drawn in order, not dealt the same way each time.
    assert.ok(new Set(Array.from({ length: 100 }, (_, d) => drawn.slice(d * 8, d * 8 + 8).join())).size > 20, `seed ${seed}`);
  }
});

test('the other brains draw 10-card decks of four 60s, three 10s and three 1s, never 1000', () => {
  for (const kind of ['ts', 'plain'] as const) {
    const sizes = new BurstSizes(new Rng(5), MOVES);
    const drawn = Array.from({ length: 10 * 50 }, (_, visit) => sizes.next(kind, visit));
    for (let deck = 0; deck < 50; deck++) assert.deepEqual(counts(drawn.slice(deck * 10, deck * 10 + 10)), { 1: 3, 10: 3, 60: 4 }, `${kind}, deck ${deck}`);
  }
});
