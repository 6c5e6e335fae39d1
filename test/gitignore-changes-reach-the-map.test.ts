/**
 * git's own ignore rules reach the map (src/detect/git-excludes.ts): `git status` never names a
 * file that became ignored (nor one that stopped being), so a change to the rules that git
 * applies (a `.gitignore` at or above the root or below it, `.git/info/exclude`) makes the next
 * detection an inventory, and through real ticks an untracked file newly covered leaves the map
 * and comes back when uncovered. A tracked file stays: git tracks it whatever `.gitignore` says.
 */
import assert from 'node:assert/strict';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { seek } from '../src/ranking/index.js';
import { runTick } from '../src/vigil/index.js';
import { makeTestBrains } from './helpers/brains.js';
import { makeGitRepo } from './helpers/git-repo.js';

test('through real ticks, an untracked file newly covered by .gitignore leaves the map, and comes back when uncovered', async () => {
  const repo = await makeGitRepo({ '.gitignore': '*.log\n', 'src/app.ts': 'export const app = 1; // bluewren\n' });
  const t = await makeTestBrains();
  try {
    repo.write('gen/out.ts', 'export const out = 2; // kestrel\n');
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    const found = (word: string) => seek(brain.reader, word).map((h) => h.path);
    assert.deepEqual(found('kestrel'), ['gen/out.ts'], 'untracked and not ignored: mapped');

    // An uncommitted edit of a tracked .gitignore.
    repo.write('.gitignore', '*.log\ngen/\nsrc/app.ts\n');
    await runTick(brain);
    assert.deepEqual(found('kestrel'), [], 'newly ignored: it left the map on the next tick');
    assert.deepEqual(found('bluewren'), ['src/app.ts'], 'a tracked file stays, as git keeps it');
    await runTick(brain);
    assert.deepEqual(found('kestrel'), [], 'and stays out');

    // A tracked file the rules match, edited: dirty now, clean (and unlisted) after the commit.
    repo.write('src/app.ts', 'export const app = 1; // bluewren, edited\n');
    await runTick(brain);
    repo.commit('ignore gen');
    await runTick(brain);
    assert.deepEqual(found('kestrel'), [], 'committing the rule keeps it out');
    assert.deepEqual(found('bluewren'), ['src/app.ts'], 'a tracked file a rule matches stays after it is committed');

    repo.write('.gitignore', '*.log\n');
    await runTick(brain);
    assert.deepEqual(found('kestrel'), ['gen/out.ts'], 'no longer ignored: mapped again on the next tick');

    // The repository's own exclude file, which git status never names.
    appendFileSync(join(repo.dir, '.git/info/exclude'), 'gen/\n');
    await runTick(brain);
    assert.deepEqual(found('kestrel'), [], '.git/info/exclude counts too');
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});

test('a root below the top of its work tree follows the .gitignore files above it, and a new nested .gitignore', async () => {
  const repo = await makeGitRepo({ 'pkg/src/app.ts': 'export const app = 1; // bluewren\n', 'README.md': '# demo\n' });
  const t = await makeTestBrains();
  try {
    repo.write('pkg/tmp/scratch.ts', 'export const scratch = 3; // ptarmigan\n');
    repo.write('pkg/cache/blob.ts', 'export const blob = 4; // whimbrel\n');
    const root = join(repo.dir, 'pkg');
    const { brain } = await t.brains.ensure(root);
    await runTick(brain, { inventory: true });
    const found = (word: string) => seek(brain.reader, word).map((h) => h.path);
    assert.deepEqual(found('ptarmigan'), ['tmp/scratch.ts']);
    assert.deepEqual(found('whimbrel'), ['cache/blob.ts']);

    // The top's .gitignore, outside the root: git status on the root never names it.
    writeFileSync(join(repo.dir, '.gitignore'), 'pkg/tmp/\n');
    await runTick(brain);
    assert.deepEqual(found('ptarmigan'), [], 'covered from above the root: it left the map');

    // A new, untracked .gitignore below the root.
    repo.write('pkg/cache/.gitignore', '*\n');
    await runTick(brain);
    assert.deepEqual(found('whimbrel'), [], 'covered by a new nested .gitignore: it left the map');
    assert.deepEqual(found('bluewren'), ['src/app.ts']);
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});
