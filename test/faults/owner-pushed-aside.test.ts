/**
 * A live owner is never pushed aside, and a dead one never holds anyone up: liveness is the
 * owner lock (`run/owner.lock`, held for the owner's life, dropped by the kernel when it dies),
 * never a handshake that timed out.
 *
 *   - SIGSTOP owner A, start B, SIGCONT A: B exits non-zero saying an owner (pid A) holds the
 *     home but does not answer; owner.json, the socket and HTTP are still A's and answer.
 *   - SIGKILL A, start B: B starts at once. A same-user listener that never answers sits on
 *     A's socket path meanwhile: B never dials it (nothing to ask: the lock was free) and
 *     replaces it with its own socket.
 *
 * Figures: B's exit code and how long it took to give up on the stopped A (one bounded
 * answer check, HOLDER_ANSWER_MS); how long B took to be ready after A was killed, and the
 * connections the silent listener saw (0).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { lstatSync, readFileSync, unlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { makeTempDir } from '../helpers/git-repo.js';
import { ownerEnv, runCli, startServe, type ServeProcess } from '../helpers/owner.js';
import { recordFigures } from './fault-config.js';

const figures: Record<string, unknown> = {};

/** B's start: either it exited (with why) or it became a second owner (stopped here, and a failure). */
async function startB(home: string): Promise<{ code: number | null; stderr: string; ms: number }> {
  const t0 = performance.now();
  const r = await startServe(home).then(
    (b: ServeProcess) => ({ b }),
    (err: Error) => ({ err }),
  );
  if ('b' in r) {
    await r.b.stop();
    assert.fail('B started a second owner while A was alive');
  }
  const m = /serve exited before ready \(code (\d+|null), signal \w+\): ([\s\S]*)$/.exec(r.err.message);
  assert.ok(m, r.err.message);
  return { code: m[1] === 'null' ? null : Number(m[1]), stderr: m[2]!, ms: Math.round(performance.now() - t0) };
}

test('a stopped owner is not pushed aside: the second serve exits and says why; owner.json, socket and HTTP stay its own', { timeout: 120_000 }, async () => {
  const home = await makeTempDir('gardener-home-');
  const a = await startServe(home.dir);
  const ownerJson = join(home.dir, 'run', 'owner.json');
  try {
    const before = { json: readFileSync(ownerJson, 'utf8'), ino: lstatSync(a.ready.socket).ino };
    process.kill(a.pid, 'SIGSTOP');
    let b;
    try {
      b = await startB(home.dir);
    } finally {
      process.kill(a.pid, 'SIGCONT');
    }
    assert.notEqual(b.code, 0, b.stderr);
    assert.match(b.stderr, new RegExp(`an owner \\(pid ${a.pid}\\) holds this home .* but does not answer`));
    assert.match(b.stderr, /GDN_OWNER_UNRESPONSIVE/);
    assert.equal(readFileSync(ownerJson, 'utf8'), before.json, 'owner.json is still A\'s');
    assert.equal(lstatSync(a.ready.socket).ino, before.ino, 'the socket is still A\'s');
    const status = await runCli(['serve', '--status', '--json'], ownerEnv(home.dir));
    assert.equal(status.code, 0, status.stderr);
    assert.equal(JSON.parse(status.stdout).pid, a.pid, 'A answers on its socket');
    const health = await fetch(`${a.ready.url}/healthz`);
    assert.equal(health.status, 200, 'A answers over HTTP');
    Object.assign(figures, { stopped_owner_b_exit: b.code, stopped_owner_b_gave_up_ms: b.ms, stopped_owner_kept: true });
  } finally {
    await a.stop();
    await home.cleanup();
  }
});

test('a SIGKILLed owner holds nobody up: the next serve starts at once without dialing its socket', { timeout: 120_000 }, async () => {
  const home = await makeTempDir('gardener-home-');
  const a = await startServe(home.dir);
  a.proc.kill('SIGKILL');
  await a.exited;
  // A same-user listener that never answers, where A's socket was: a handshake would hang on it.
  unlinkSync(a.ready.socket);
  let dialed = 0;
  const silent = createServer((s) => {
    dialed++;
    s.on('error', () => {});
  });
  silent.listen(a.ready.socket);
  await once(silent, 'listening');
  let b: ServeProcess | undefined;
  try {
    const t0 = performance.now();
    b = await startServe(home.dir);
    const readyMs = Math.round(performance.now() - t0);
    assert.equal(dialed, 0, 'B never dialed the socket: the free lock said A was dead');
    assert.equal(JSON.parse(readFileSync(join(home.dir, 'run', 'owner.json'), 'utf8')).pid, b.pid);
    assert.ok(b.logs().some((l) => l.msg === "removing a dead owner's socket (the owner lock was free)" && l.stale_pid === a.pid), b.stderr());
    const status = await runCli(['serve', '--status', '--json'], ownerEnv(home.dir));
    assert.equal(JSON.parse(status.stdout).pid, b.pid, 'B answers on the socket path');
    Object.assign(figures, { killed_owner_next_ready_ms: readyMs, killed_owner_socket_dialed: dialed });
  } finally {
    silent.close();
    await b?.stop();
    await home.cleanup();
  }
  recordFigures('owner-pushed-aside', figures);
});
