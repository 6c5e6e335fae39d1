/**
 * An owner outlives its socket file: a temp cleaner or a person can remove it (or its whole
 * folder) from under a running owner, and then no client could reach the owner again. The owner
 * looks at its socket path (GARDENER_OWNER_FILES_CHECK_MS here, a minute by default), binds the socket
 * again, and the same owner answers; a file it did not make at that path is left alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lstatSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeTempDir } from './helpers/git-repo.js';
import { logLine, ownerEnv, runCli, startServe } from './helpers/owner.js';

async function withOwner(fn: (o: { socket: string; pid: number; env: NodeJS.ProcessEnv; serve: Awaited<ReturnType<typeof startServe>> }) => Promise<void>): Promise<void> {
  const home = await makeTempDir('gardener-home-');
  const runtime = await makeTempDir('gardener-xdg-');
  const extra = { XDG_RUNTIME_DIR: runtime.dir, GARDENER_OWNER_FILES_CHECK_MS: '50' };
  const env = ownerEnv(home.dir, extra);
  const serve = await startServe(home.dir, ['--no-http'], extra);
  try {
    const socket = serve.ready.socket;
    assert.ok(socket.startsWith(runtime.dir), `the socket is in XDG_RUNTIME_DIR: ${socket}`);
    await fn({ socket, pid: serve.proc.pid!, env, serve });
  } finally {
    await serve.stop();
    await home.cleanup();
    await runtime.cleanup();
  }
}

async function answeringPid(env: NodeJS.ProcessEnv): Promise<number> {
  const r = await runCli(['serve', '--status', '--json'], env);
  assert.equal(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { pid: number }).pid;
}

const boundAgain = (e: Record<string, unknown>) => typeof e.msg === 'string' && e.msg.includes('bound again');

test('a socket file removed from under the owner is bound again, and the same owner answers', { timeout: 60_000 }, async () => {
  await withOwner(async ({ socket, pid, env, serve }) => {
    assert.equal(await answeringPid(env), pid);
    unlinkSync(socket);
    await logLine(serve, boundAgain);
    assert.ok(lstatSync(socket).isSocket());
    assert.equal((lstatSync(socket).mode & 0o777).toString(8), '600');
    assert.equal(await answeringPid(env), pid, 'the owner that was running answers, no other');
  });
});

test('a socket folder removed whole is made again, private, and the socket bound in it', { timeout: 60_000 }, async () => {
  await withOwner(async ({ socket, pid, env, serve }) => {
    rmSync(dirname(socket), { recursive: true });
    await logLine(serve, boundAgain);
    assert.equal((lstatSync(dirname(socket)).mode & 0o777).toString(8), '700');
    assert.equal(await answeringPid(env), pid);
    // Twice: the second binding replaces the first, and the owner still stops cleanly.
    const from = serve.logs().length;
    unlinkSync(socket);
    await logLine(serve, boundAgain, from);
    assert.equal(await answeringPid(env), pid);
  });
});

test('a file the owner did not make at its socket path is named and left alone', { timeout: 60_000 }, async () => {
  await withOwner(async ({ socket, serve }) => {
    unlinkSync(socket);
    writeFileSync(socket, 'not a socket\n');
    const said = await logLine(serve, (e) => typeof e.msg === 'string' && e.msg.includes('did not bind'));
    assert.equal(said.socket, socket);
    assert.equal(lstatSync(socket).isFile(), true, 'left as it was');
    unlinkSync(socket);
    await logLine(serve, boundAgain);
  });
});
