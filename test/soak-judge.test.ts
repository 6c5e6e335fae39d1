/**
 * The soak's judge (bench/soak/judge.ts) on synthetic samples: the least-squares slope, the
 * last-third peak, the levels after the sessions left, the seek p99 ratio and the warm-up.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeFlat, judgeLevel, judgeSeek, newPeakInLastThird, percentile, slopePer10Min, warmupMs, type Point } from '../bench/soak/judge.js';

const MIN = 60_000;
/** One sample every 10 s for `minutes`, valued by f(t in minutes). */
const series = (minutes: number, f: (m: number) => number): Point[] => Array.from({ length: minutes * 6 + 1 }, (_, i) => ({ t: i * 10_000, v: f(i / 6) }));

test('the slope is least squares, in MB per 10 minutes', () => {
  assert.equal(slopePer10Min(series(30, () => 150)), 0);
  assert.ok(Math.abs(slopePer10Min(series(30, (m) => 150 + 0.3 * m)) - 3) < 1e-9, 'growing 0.3 MB a minute is 3 MB per 10 minutes');
  // A sawtooth (collections) around a flat level has a slope near 0, whatever its teeth.
  const saw = slopePer10Min(series(30, (m) => 150 + 8 * ((m * 6) % 3)));
  assert.ok(Math.abs(saw) < 0.5, `sawtooth slope ${saw}`);
  assert.equal(slopePer10Min([{ t: 0, v: 1 }]), 0);
  assert.equal(slopePer10Min([{ t: 5, v: 1 }, { t: 5, v: 9 }]), 0, 'one instant has no slope');
});

test('a new peak counts only in the last third and past the tolerance', () => {
  const flat = series(30, (m) => (m < 2 ? 180 : 150));
  assert.equal(newPeakInLastThird(flat).newPeak, false, 'the warm-up peak is earlier');
  const late = series(30, (m) => (m > 25 && m < 26 ? 160 : 150));
  const r = newPeakInLastThird(late);
  assert.equal(r.newPeak, true);
  assert.equal(r.lastThirdPeak, 160);
  assert.equal(r.earlierPeak, 150);
  assert.equal(newPeakInLastThird(series(30, (m) => (m > 25 && m < 26 ? 150.5 : 150))).newPeak, false, 'half a MB is noise');
  assert.equal(newPeakInLastThird(series(30, (m) => (m > 15 && m < 16 ? 170 : 150))).newPeak, false, 'a peak in the middle third is not a new one at the end');
});

test('memory is judged after the warm-up: a flat series passes, a slow leak and a late peak fail, naming themselves', () => {
  const warm = warmupMs(30 * MIN);
  assert.equal(warm, 5 * MIN);
  // Climbing fast during the warm-up, flat after: met.
  const settled = judgeFlat('RSS', series(30, (m) => (m < 5 ? 100 + 10 * m : 150)), warm);
  assert.equal(settled.ok, true, settled.missed ?? '');
  // 0.25 MB a minute (2.5 MB per 10 minutes): missed, by slope, and its peak is in the last third.
  const leak = judgeFlat('RSS', series(30, (m) => 150 + 0.25 * m), warm);
  assert.equal(leak.ok, false);
  assert.match(leak.missed!, /^RSS: slope 2\.50 MB\/10 min > 2; new peak in the last third/);
  // The bound is the caller's (CI runs short and loose).
  assert.equal(judgeFlat('RSS', series(30, (m) => 150 + 0.25 * m), warm, 5).missed, 'RSS: new peak in the last third (157.5 MB > 155.4 MB before)');
});

test('the warm-up is 5 minutes from 30 minutes up, a sixth of a shorter run', () => {
  assert.equal(warmupMs(60 * MIN), 5 * MIN);
  assert.equal(warmupMs(3 * MIN), 30_000);
  assert.equal(warmupMs(12 * MIN), 2 * MIN);
});

test('a count is back to its level when the sessions left, within its slack; one dip is no level', () => {
  const quiet = [{ t: 1, v: 60 }, { t: 2, v: 58 }, { t: 3, v: 61 }];
  assert.equal(judgeLevel('file descriptors', quiet, 62, 8).ok, true);
  const leaked = judgeLevel('file descriptors', quiet, 70, 8);
  assert.equal(leaked.ok, false);
  assert.equal(leaked.missed, 'file descriptors: 70 after the sessions left against 60 before (more than 8 above)');
  // A reading taken while a root was re-subscribed (80 of 363 watches) does not become the level.
  const watches = [363, 363, 80, 363, 363, 363, 363].map((v, i) => ({ t: i, v }));
  assert.equal(judgeLevel('inotify watches', watches, 363, 16).ok, true);
  // Growth after the first readings is what a leak looks like.
  assert.equal(judgeLevel('inotify watches', watches, 400, 16).ok, false);
});

test('seek p99 over the soak against idle: at most twice', () => {
  const idle = Array.from({ length: 200 }, (_, i) => (i < 197 ? 2 : 5));
  assert.equal(percentile(idle, 99), 5);
  assert.equal(percentile([], 99), NaN);
  assert.equal(judgeSeek(idle, Array.from({ length: 1000 }, (_, i) => (i < 989 ? 3 : 10))).ok, true, 'p99 10 = 2x');
  const slow = judgeSeek(idle, Array.from({ length: 1000 }, (_, i) => (i < 980 ? 3 : 12)));
  assert.equal(slow.ok, false);
  assert.equal(slow.missed, 'seek p99: 12.0 ms over the soak is 2.40x the idle 5.0 ms (at most 2x)');
  assert.equal(judgeSeek([], [1]).ok, false, 'no idle measurement is no verdict of met');
});
