/**
 * With B's owner watching B's armed clone, the pull alone (no tool call, no tick asked for)
 * brings A's team note into B's brain within the burst window (issue 30).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTempDir } from './helpers/git-repo.js';
import { makeTestBrains } from './helpers/brains.js';
import { makeTestSession } from './helpers/session.js';
import { makeTeamClones } from './helpers/team-clones.js';
import { ownerEnv, runCli, startServe, type ServeProcess, logLine } from './helpers/owner.js';

test("a pulled team note reaches B's brain through B's owner's watcher, with no traffic", { timeout: 120_000 }, async () => {
  const clones = await makeTeamClones({ 'config/limits.ts': 'export function retryBudget(): number {\n  return 3;\n}\n' });
  const homeA = await makeTestBrains();
  const homeB = await makeTempDir('gardener-home-');
  const env = ownerEnv(homeB.dir);
  let serve: ServeProcess | undefined;
  const a = await makeTestSession(homeA.brains, clones.a.dir);
  try {
    assert.equal((await runCli(['init', clones.b.dir], env)).code, 0);
    assert.equal((await runCli(['daemon', 'start', clones.b.dir], env)).code, 0);
    const brain = JSON.parse((await runCli(['status', clones.b.dir, '--json'], env)).stdout).brain as string;
    serve = await startServe(homeB.dir);
    await logLine(serve, (e) => e.msg === 'watching' && e.brain === brain);

    assert.ok(!(await a.dispatch('ingest')).isError);
    const text = 'the retry budget is read from config, never hard-coded';
    const shared = await a.dispatch('remember', { text, scope: 'team', definitions: [{ path: 'config/limits.ts', name: 'retryBudget' }] });
    assert.ok(!shared.isError, JSON.stringify(shared.value));
    clones.a.commit('a team note');
    clones.a.git('push', '-q');

    const before = serve.logs().length;
    clones.b.git('pull', '-q', '--ff-only');
    const pulledAt = performance.now();
    await logLine(serve, (e) => e.msg === 'watch tick' && e.brain === brain, before);
    const visibleMs = performance.now() - pulledAt;
    const listed = JSON.parse((await runCli(['notes', '--root', clones.b.dir, '--json'], env)).stdout) as { text: string; scope: string; definitions?: unknown[] }[];
    const got = listed.find((n) => n.text === text);
    assert.ok(got, JSON.stringify(listed));
    assert.equal(got.scope, 'team');
    assert.deepEqual(got.definitions, [{ path: 'config/limits.ts', name: 'retryBudget' }]);
    // The burst window fires 500 ms after silence, 5 s after the first event at the latest.
    assert.ok(visibleMs < 5_000 + 5_000, `visible ${Math.round(visibleMs)} ms after the pull`);
    console.log(`# team note visible ${Math.round(visibleMs)} ms after the pull`);
  } finally {
    await a.close();
    await serve?.stop();
    await homeA.cleanup();
    await homeB.cleanup();
    await clones.cleanup();
  }
});
