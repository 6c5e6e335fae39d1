/**
 * A Gardener error thrown in a pool thread reaches the caller as itself: the same class, code
 * and exit code. Piscina clones a thrown error as a bare Error, and the pool took any message
 * with "exited" in it for a dead thread, so a git that exited non-zero was reported as
 * "the detect worker stopped unexpectedly".
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { GitError, InvalidArgumentError } from '../src/errors.js';
import { WorkerPool } from '../src/pool/worker-pool.js';
import type { DetectRequest } from '../src/detect/index.js';
import { makeGitRepo } from './helpers/git-repo.js';

describe('errors from pool threads keep their class', () => {
  const pool = new WorkerPool({ maxThreads: 1 });
  after(() => pool.close());

  it('a git that exits non-zero is a GitError naming git, not a crashed worker', async () => {
    const repo = await makeGitRepo({ 'a.ts': 'export const a = 1;\n' });
    try {
      writeFileSync(join(repo.dir, '.git', 'index'), 'not an index\n');
      const request: DetectRequest = { root: repo.dir, backend: 'git', sinceRef: null, recheck: [], skip: [] };
      await assert.rejects(pool.detect(request), (err: unknown) => {
        assert.ok(err instanceof GitError, `expected a GitError, got ${String(err)}`);
        assert.equal(err.code, 'GDN_GIT_FAILED');
        assert.match(err.message, /git /);
        return true;
      });
    } finally {
      await repo.cleanup();
    }
  });

  it('bad input thrown in the thread is an InvalidArgumentError with exit code 2', async () => {
    const request = { root: '/', backend: 'neither', sinceRef: null, recheck: [], skip: [] } as unknown as DetectRequest;
    await assert.rejects(pool.detect(request), (err: unknown) => {
      assert.ok(err instanceof InvalidArgumentError, `expected an InvalidArgumentError, got ${String(err)}`);
      assert.equal(err.exitCode, 2);
      assert.match(err.message, /request\.backend/);
      return true;
    });
  });
});
