/**
 * The bench writes its repository in a child process (bench/fixtures/make-repo-child.ts), so the
 * generator's memory is not counted in the bench process's peak RSS. The layout the bench then
 * recomputes must be the repository the child wrote: the same files in the same folders, and the
 * same committed tree as the repository made in-process from the same seed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeBenchRepo } from '../bench/fixtures/make-repo.js';
import { makeRepoInChild } from '../bench/fixtures/make-repo-child.js';

const FILES = 120;
const SEED = 7;

describe('the bench repository made in a child process', () => {
  it('is the repository made in-process from the same seed, and its layout is the files on disk', { timeout: 60_000 }, async () => {
    const sandbox = mkdtempSync(join(tmpdir(), 'gardener-repo-child-'));
    try {
      const child = await makeRepoInChild(join(sandbox, 'child'), FILES, SEED);
      const here = await makeBenchRepo(join(sandbox, 'here'), FILES, SEED);
      assert.equal(child.files.length, FILES);
      assert.deepEqual(child.files, here.files);
      assert.deepEqual(child.folders, here.folders);
      const tracked = child.git('ls-files').split('\n').filter(Boolean).sort();
      assert.deepEqual(tracked, child.files.map((f) => f.path).sort(), 'the layout names exactly the committed files');
      assert.equal(child.git('rev-parse', 'HEAD^{tree}').trim(), here.git('rev-parse', 'HEAD^{tree}').trim(), 'the same tree');
      assert.equal(child.git('status', '--porcelain').trim(), '', 'the work tree is clean');
    } finally {
      rmSync(sandbox, { recursive: true, force: true });
    }
  });

  it('says why when the child cannot make it', { timeout: 60_000 }, async () => {
    const sandbox = mkdtempSync(join(tmpdir(), 'gardener-repo-child-'));
    try {
      // A parent that is a file: the child's mkdir fails.
      const file = join(sandbox, 'not-a-folder');
      writeFileSync(file, '');
      await assert.rejects(makeRepoInChild(file, FILES, SEED), /making the repository failed \(1\): .*not-a-folder/s);
    } finally {
      rmSync(sandbox, { recursive: true, force: true });
    }
  });
});
