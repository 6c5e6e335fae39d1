/**
 * A restarted owner finishes the work it was given. An owner is SIGKILLed right after the
 * first commit of a big burst's drain (a saved backlog, the tick lease left set), ten mapped
 * files are edited while no owner runs, and a fresh `gardener serve` is started. Only `seek`
 * is called from then on (a recall verb: it never ticks), so nothing but the owner's own
 * resume can drain the backlog or see the ten edits: the backlog must reach 0 and every new
 * name be findable long before the watcher's safety-net tick (5 min).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { makeGitRepo, makeTempDir } from '../helpers/git-repo.js';
import { sourceFiles } from '../helpers/brains.js';
import { ownerEnv, runCli, startServe, type ServeProcess } from '../helpers/owner.js';
import { connectGardener, type GardenerClient } from '../helpers/mcp-client.js';
import { brainFile } from '../../src/brain/index.js';
import { openStore } from '../../src/store/index.js';
import { SAFETY_NET_TICK_MS } from '../../src/watch/index.js';
import { recordFigures } from './fault-config.js';

const KILL_CHILD = fileURLToPath(new URL('./owner-kill-child.js', import.meta.url));

/** Files of the burst the first owner is killed draining (the reproduction left 1,936). */
const BURST_FILES = 2000;
/** Mapped files edited while no owner runs. */
const EDITED_WHILE_DOWN = 10;
/**
 * Overall bound on the restarted owner catching up, in ms: generous for a loaded 2-core
 * machine, and well inside the safety-net tick, the only other thing that would drain.
 */
const CATCH_UP_BOUND_MS = 120_000;
/** Pause between two looks at the map while waiting for it, in ms (a poll, not a wait for time). */
const POLL_PAUSE_MS = 100;

const burstContent = (i: number) => `export function burst${i}(a: number): number {\n  return a * ${i};\n}\n`;
const editedContent = (i: number) => `export function editedWhileDown${i}(a: number): number {\n  return a - ${i};\n}\n`;

function one(file: string, sql: string): number {
  const db = openStore(file, { readonly: true });
  try {
    return Object.values(db.prepare(sql).get<Record<string, number>>()!)[0]!;
  } finally {
    db.close();
  }
}

test('an owner killed mid-drain is restarted: with only seek calls the backlog drains and edits made while it was down are found', { timeout: 300_000 }, async () => {
  assert.ok(CATCH_UP_BOUND_MS < SAFETY_NET_TICK_MS, 'the bound proves the resume, not the safety net');
  const repo = await makeGitRepo(sourceFiles(EDITED_WHILE_DOWN));
  const home = await makeTempDir('gardener-home-');
  const env = ownerEnv(home.dir);
  let serve: ServeProcess | undefined;
  let client: GardenerClient | undefined;
  try {
    assert.equal((await runCli(['init', repo.dir], env)).code, 0);
    assert.equal((await runCli(['daemon', 'start', repo.dir], env)).code, 0);
    const status = JSON.parse((await runCli(['status', repo.dir, '--json'], env)).stdout) as { brain: string };
    const file = brainFile(home.dir, status.brain);

    // The first owner: watching the armed brain, then killed after the burst's first commit.
    const child = spawn(process.execPath, [KILL_CHILD, home.dir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let childErr = '';
    child.stderr!.on('data', (d) => (childErr += d));
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('watching\n')) resolve();
      });
      void exited.then(([code, signal]) => reject(new Error(`the first owner ended before watching (code ${code}, signal ${signal}): ${childErr}`)));
    });
    for (let i = 0; i < BURST_FILES; i++) repo.write(`burst/b${i}.ts`, burstContent(i));
    const [, signal] = await exited;
    assert.equal(signal, 'SIGKILL', `the first owner was killed mid-drain: ${childErr.slice(-2000)}`);
    const backlogAtKill = one(file, 'SELECT count(*) FROM backlog');
    assert.ok(backlogAtKill > 0, 'the kill left a saved backlog');
    assert.equal(one(file, 'SELECT tick_in_flight FROM vigil'), 1, 'the kill left the tick lease set');

    for (let i = 0; i < EDITED_WHILE_DOWN; i++) repo.write(`src/f${i}.ts`, editedContent(i));

    const restarted = performance.now();
    serve = await startServe(home.dir);
    const c = (client = await connectGardener(repo.dir, env));
    let seeks = 0;
    let backlog = -1;
    let missing: string[] = [];
    for (;;) {
      missing = [];
      for (let i = 0; i < EDITED_WHILE_DOWN; i++) {
        const r = await c.call('seek', { query: `editedWhileDown${i}`, scope: 'code', limit: 5 });
        seeks++;
        assert.equal(r.isError, false, JSON.stringify(r.value));
        backlog = r.value.freshness.backlog;
        if (!r.value.code.some((h: { symbol: string }) => h.symbol === `editedWhileDown${i}`)) missing.push(`editedWhileDown${i}`);
      }
      if (backlog === 0 && missing.length === 0) break;
      assert.ok(performance.now() - restarted < CATCH_UP_BOUND_MS, `the restarted owner caught up within ${CATCH_UP_BOUND_MS} ms: backlog ${backlog}, not found ${missing.join(', ')}`);
      await new Promise((r) => setTimeout(r, POLL_PAUSE_MS));
    }
    const caughtUpMs = Math.round(performance.now() - restarted);
    assert.equal(one(file, 'SELECT count(*) FROM files WHERE path LIKE \'burst/%\''), BURST_FILES, 'every file of the burst is mapped');
    assert.equal(one(file, 'SELECT tick_in_flight FROM vigil'), 0, 'the stale lease was taken over and released');
    recordFigures('owner-resume', { burst_files: BURST_FILES, backlog_at_kill: backlogAtKill, edited_while_down: EDITED_WHILE_DOWN, caught_up_ms: caughtUpMs, seek_calls: seeks });
  } finally {
    await client?.close();
    await serve?.stop();
    await repo.cleanup();
    await home.cleanup();
  }
});
