/**
 * Every long-lived thread of a real `gardener serve` runs its page returns (src/page-return.ts):
 * the main thread, the open brain's store writer and a pool thread each report theirs in the
 * owner's status (`heaps.*.returns`: null in a thread that runs none). When a return runs is the
 * policy's law (a-thread-returns-pages-once-its-heap-grew); what one gives back is the
 * collection's (a-page-return-leaves-the-heap-near-its-live-set).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { sourceFiles } from './helpers/brains.js';
import { connectGardener } from './helpers/mcp-client.js';
import { ownerEnv, runCli, startServe } from './helpers/owner.js';

interface Returns {
  count: number;
  ms: number;
}
interface Heap {
  heap: number;
  returns: Returns | null;
}
interface Heaps {
  main: Heap;
  pool: Heap | null;
  writers: Record<string, Heap>;
  threads_at: string | null;
}

async function heaps(home: string): Promise<Heaps> {
  const r = await runCli(['serve', '--status', '--json'], ownerEnv(home));
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).heaps as Heaps;
}

const isReturns = (r: Returns | null | undefined) => r !== null && r !== undefined && Number.isInteger(r.count) && r.count >= 0 && r.ms >= 0;

test("the owner's main thread, its store writer and its pool thread each return their pages", async () => {
  const repo = await makeGitRepo(sourceFiles(3));
  const home = await makeTempDir('gardener-home-');
  const owner = await startServe(home.dir);
  const client = await connectGardener(repo.dir, ownerEnv(home.dir));
  try {
    assert.equal((await client.call('ingest')).isError, false);
    // The pool's and the writers' figures are one status call old: ask until both have answered.
    let h = await heaps(home.dir);
    for (let i = 0; i < 50 && (h.pool === null || Object.keys(h.writers).length === 0); i++) h = await heaps(home.dir);
    assert.ok(isReturns(h.main.returns), `main thread: ${JSON.stringify(h.main)}`);
    assert.ok(h.pool, `no pool thread answered: ${JSON.stringify(h)}`);
    assert.ok(isReturns(h.pool.returns), `pool thread: ${JSON.stringify(h.pool)}`);
    const writers = Object.values(h.writers);
    assert.equal(writers.length, 1, JSON.stringify(h.writers));
    assert.ok(isReturns(writers[0]!.returns), `store writer: ${JSON.stringify(writers[0])}`);
  } finally {
    await client.close();
    await owner.stop();
    await repo.cleanup();
    await home.cleanup();
  }
});
