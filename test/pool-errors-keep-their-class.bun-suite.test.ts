/**
 * A Gardener error thrown in a pool thread reaches the caller as itself: the same class, code
 * and exit code. Piscina clones a thrown error as a bare Error, and the pool took any message
 * with "exited" in it for a dead thread, so a git that exited non-zero was reported as
 * "the detect worker stopped unexpectedly".
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { MessageChannel } from 'node:worker_threads';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { GardenerIgnoreUnreadableError, GitError, InvalidArgumentError } from '../src/errors.js';
import { errorFromWire, isErrorWire, throwsWhole } from '../src/pool/error-wire.js';
import { WorkerPool } from '../src/pool/worker-pool.js';
import type { DetectRequest } from '../src/detect/index.js';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';

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

  it('a hash+extract batch that fails keeps its code too (a folder named .gardenerignore), both entries', async () => {
    const dir = await makeTempDir('gardener-pool-errors-');
    try {
      mkdirSync(join(dir.dir, '.gardenerignore'));
      writeFileSync(join(dir.dir, 'a.ts'), 'export const a = 1;\n');
      const task = { roots: { 1: dir.dir }, items: [{ id: 1, rootId: 1, path: 'a.ts', knownHash: null }], maxIndexBytes: 1 << 20 };
      const keeps = (err: unknown) => {
        assert.ok(err instanceof GardenerIgnoreUnreadableError, `expected a GardenerIgnoreUnreadableError, got ${String(err)}`);
        assert.equal(err.code, 'GDN_IGNORE_UNREADABLE');
        return true;
      };
      await assert.rejects(pool.hashExtract(task), keeps);
      const { port1, port2 } = new MessageChannel();
      try {
        await assert.rejects(pool.hashExtractTo(task, port2), keeps);
      } finally {
        port1.close();
      }
    } finally {
      await dir.cleanup();
    }
  });
});

describe('the error wire', () => {
  it('a pool task\'s system error leaves its thread with its code, errno, syscall and path, and is rebuilt with them', async () => {
    const sys = Object.assign(new Error('ENOENT: no such file or directory, open \'/x\''), { code: 'ENOENT', errno: -2, syscall: 'open', path: '/x' });
    const task = throwsWhole(() => {
      throw sys;
    });
    const thrown = await task().then(
      () => assert.fail('the task threw'),
      (err: unknown) => err,
    );
    // What Piscina does to a thrown value: a structured clone.
    const wire = structuredClone(thrown);
    assert.ok(isErrorWire(wire), 'it left as data, not as an Error that the clone strips');
    const back = errorFromWire(wire) as Error & { code?: string; errno?: number; syscall?: string; path?: string };
    assert.ok(back instanceof Error);
    assert.equal(back.code, 'ENOENT');
    assert.equal(back.errno, -2);
    assert.equal(back.syscall, 'open');
    assert.equal(back.path, '/x');
    assert.equal(back.message, sys.message);
  });
});
