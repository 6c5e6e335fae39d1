/**
 * The soak judges inotify watches against the folders the watch backend watches, read with each
 * quiet sample (bench/soak/watched-folders.ts): Bun's recursive fs.watch holds one watch per
 * folder, `.git`'s included, so a commit that makes a loose object's folder and a `git gc` that
 * removes it move the count with no leak. A watch is leaked when it outlives its folder: the
 * count above the folders is what must come back to its level.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeSoak } from '../bench/soak/verdict.js';
import type { Sample } from '../bench/soak/sampler.js';

const MIN = 60_000;

function quietSample(minute: number, watches: number, folders: number | undefined): Sample {
  return {
    t: minute * MIN, rssMb: 200, mainHeapMb: 40, poolHeapMb: 20, writersHeapMb: 30,
    fds: 80, threads: 28, watches, ...(folders === undefined ? {} : { folders }),
    children: 1, zombies: 0, childFds: 10, childThreads: 4, sessionsOpen: 0, backlog: 0, quiet: true,
  };
}

function watchesVerdict(samples: Sample[]) {
  const v = judgeSoak({
    runMs: 30 * MIN, samples, finalQuiet: samples[samples.length - 1]!, tokens: [], idleSeekMs: [10], soakSeekMs: [10],
    backlogEnd: 0, ownerExit: { code: 0, signal: null },
    bounds: { maxSlopeMb: 2, peakToleranceMb: 1, seekRatioMax: 2, fdSlack: 8, watchSlack: 16, threadSlack: 4 },
  });
  return v.levels.find((l) => l.name.startsWith('inotify watches'))!;
}

test('watches that follow their folders (git makes and removes them) are at their level', () => {
  // 729 folders at first, 764 at the end (loose objects' folders), a watch each.
  const samples = [6, 8, 10, 12, 14, 20, 29].map((m, i) => quietSample(m, 729 + (i === 6 ? 35 : 0), 729 + (i === 6 ? 35 : 0)));
  const v = watchesVerdict(samples);
  assert.equal(v.ok, true, v.missed ?? '');
  assert.equal(v.name, 'inotify watches beyond their folders');
});

test('a watch that outlives its folder is a leak', () => {
  // The folders went back to 729 (a git gc), the watches did not.
  const samples = [6, 8, 10, 12, 14, 20, 29].map((m, i) => quietSample(m, 729 + (i === 6 ? 35 : 0), 729));
  const v = watchesVerdict(samples);
  assert.equal(v.ok, false);
  assert.equal(v.missed, 'inotify watches beyond their folders: 35 after the sessions left against 0 before (more than 16 above)');
});

test('a report written before folders were read is judged on the watches alone', () => {
  const samples = [6, 8, 10, 12, 14, 20, 29].map((m, i) => quietSample(m, 363 + (i === 6 ? 40 : 0), undefined));
  const v = watchesVerdict(samples);
  assert.equal(v.name, 'inotify watches');
  assert.equal(v.ok, false);
});
