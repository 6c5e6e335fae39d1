import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains, sourceFiles } from './helpers/brains.js';
import { runTick } from '../src/vigil/index.js';
import { openStore, readStatus, readVigil, countBacklog } from '../src/store/index.js';

const CHILD = fileURLToPath(new URL('./fixtures/tick-child.js', import.meta.url));

async function runChild(home: string, dir: string, mode: string): Promise<{ code: number | null; signal: string | null; stdout: string }> {
  const child = spawn(process.execPath, [CHILD, home, dir, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  return { code, signal, stdout };
}

test('a process killed mid-drain loses nothing, and its stale tick_in_flight does not wedge the next tick', async () => {
  const repo = await makeGitRepo(sourceFiles(2));
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    // More than one commit's worth (MAX_FILES_PER_COMMIT), so the kill lands mid-drain.
    for (const [p, c] of Object.entries(sourceFiles(400, 'burst/b'))) repo.write(p, c);
    await t.brains.close(); // the child owns the brain now

    const died = await runChild(t.home, repo.dir, 'die-after-batch');
    assert.equal(died.signal, 'SIGKILL');

    const db = openStore(brain.file);
    const left = countBacklog(db);
    const vigil = readVigil(db);
    db.close();
    assert.ok(left > 0 && left < 400, `part of the burst was committed, the rest waits (left ${left})`);
    assert.equal(vigil.tickInFlight, true, 'the killed process left its lease behind');

    const after = await runChild(t.home, repo.dir, 'tick');
    assert.equal(after.code, 0);
    const report = JSON.parse(after.stdout);
    assert.equal(report.busyOwnerPid, undefined, 'the dead owner does not wedge the tick');
    assert.equal(report.backlogLeft, 0);
    const check = openStore(brain.file);
    assert.equal(readStatus(check).files, 402, 'every file of the burst is in the map');
    assert.equal(readVigil(check).tickInFlight, false);
    check.close();
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});

test('two processes ticking the same brain at once neither corrupt it nor ingest twice', async () => {
  const repo = await makeGitRepo(sourceFiles(2));
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    for (const [p, c] of Object.entries(sourceFiles(200, 'burst/b'))) repo.write(p, c);
    await t.brains.close();

    const [a, b] = await Promise.all([runChild(t.home, repo.dir, 'tick'), runChild(t.home, repo.dir, 'tick')]);
    assert.equal(a.code, 0);
    assert.equal(b.code, 0);
    const ra = JSON.parse(a.stdout);
    const rb = JSON.parse(b.stdout);
    assert.equal(ra.drained + rb.drained, 200, 'each path ingested exactly once across both');

    const db = openStore(brain.file);
    assert.equal(readStatus(db).files, 202);
    assert.equal(readStatus(db).symbols, 202, 'one definition per file, none doubled');
    assert.equal(db.prepare('PRAGMA integrity_check').get<{ integrity_check: string }>()!.integrity_check, 'ok');
    db.close();
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});
