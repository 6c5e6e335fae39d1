/**
 * `gardener mcp` uses a live owner, however slow it is to answer (src/owner/dial-live-owner.ts):
 * liveness is the kernel's word (the owner lock, src/owner/owner-lock.ts), so an owner that
 * holds the home but has not answered within the dial bound is waited for, never served beside
 * in-process. Only an owner that keeps silent past the generous wait bound ends the proxy, with
 * GDN_OWNER_NOT_ANSWERING; a home whose lock nobody holds is served in-process at once.
 *
 * The owner is made slow by parking it (SIGSTOP) and the test waits for the proxy to say it is
 * waiting before waking it: no clock decides the outcome. The dial bound is 1 ms so the first
 * dial always misses a parked owner.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { CLI } from './helpers/mcp-client.js';
import { ownerEnv, startServe } from './helpers/owner.js';

/** Starts `gardener mcp` in `folder`; `until(re)` resolves once its stderr matches (or it exits). */
function startProxy(folder: string, env: NodeJS.ProcessEnv) {
  const proc = spawn(process.execPath, [CLI, 'mcp'], { cwd: folder, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  const waiters: { re: RegExp; resolve: () => void }[] = [];
  proc.stderr!.on('data', (d: Buffer) => {
    stderr += d;
    for (const w of [...waiters]) if (w.re.test(stderr)) w.resolve();
  });
  const exited = once(proc, 'exit').then(([code]) => code as number | null);
  void exited.then(() => waiters.forEach((w) => w.resolve()));
  return {
    proc,
    exited,
    stderr: () => stderr,
    until: (re: RegExp) =>
      new Promise<void>((resolve) => {
        if (re.test(stderr) || proc.exitCode !== null) return resolve();
        waiters.push({ re, resolve });
      }),
  };
}

async function ended(proc: ChildProcess, exited: Promise<number | null>): Promise<void> {
  proc.stdin!.end();
  if (proc.exitCode === null) proc.kill('SIGTERM');
  await exited;
}

test('an owner that holds the home but answers late is waited for and used, never served beside in-process', { timeout: 120_000 }, async () => {
  const repo = await makeGitRepo({ 'src/a.ts': 'export const a = 1;\n' });
  const home = await makeTempDir('gardener-home-');
  const owner = await startServe(home.dir, ['--no-http']);
  owner.proc.kill('SIGSTOP');
  const proxy = startProxy(repo.dir, ownerEnv(home.dir, { GARDENER_PROXY_DIAL_MS: '1' }));
  try {
    await proxy.until(/waiting for it|serving in-process|proxying to the owner/);
    assert.match(proxy.stderr(), /holds this home .*waiting for it/, proxy.stderr());
    assert.doesNotMatch(proxy.stderr(), /serving in-process/);
    owner.proc.kill('SIGCONT');
    await proxy.until(/serving in-process|proxying to the owner/);
    assert.match(proxy.stderr(), new RegExp(`proxying to the owner \\(pid ${owner.pid}`), proxy.stderr());
    assert.doesNotMatch(proxy.stderr(), /serving in-process/);
  } finally {
    owner.proc.kill('SIGCONT');
    await ended(proxy.proc, proxy.exited);
    await owner.stop();
    await repo.cleanup();
    await home.cleanup();
  }
});

test('an owner that holds the home and never answers ends the proxy with GDN_OWNER_NOT_ANSWERING past the wait bound', { timeout: 120_000 }, async () => {
  const repo = await makeGitRepo({ 'src/a.ts': 'export const a = 1;\n' });
  const home = await makeTempDir('gardener-home-');
  const owner = await startServe(home.dir, ['--no-http']);
  owner.proc.kill('SIGSTOP');
  const proxy = startProxy(repo.dir, ownerEnv(home.dir, { GARDENER_PROXY_DIAL_MS: '1', GARDENER_PROXY_OWNER_WAIT_MS: '200' }));
  try {
    await proxy.until(/serving in-process|GDN_OWNER_NOT_ANSWERING/);
    assert.doesNotMatch(proxy.stderr(), /serving in-process/);
    const code = await proxy.exited;
    assert.notEqual(code, 0);
    assert.match(proxy.stderr(), /GDN_OWNER_NOT_ANSWERING/, proxy.stderr());
    assert.match(proxy.stderr(), new RegExp(`pid ${owner.pid}`));
    assert.doesNotMatch(proxy.stderr(), /serving in-process/);
  } finally {
    owner.proc.kill('SIGCONT');
    await ended(proxy.proc, proxy.exited);
    await owner.stop();
    await repo.cleanup();
    await home.cleanup();
  }
});

test('a home whose owner lock nobody holds is served in-process at once, even with a token and an owner.json left behind', { timeout: 120_000 }, async () => {
  const repo = await makeGitRepo({ 'src/a.ts': 'export const a = 1;\n' });
  const home = await makeTempDir('gardener-home-');
  const owner = await startServe(home.dir, ['--no-http']);
  // SIGKILL: the kernel drops the lock; the token, owner.json and the socket file stay.
  owner.proc.kill('SIGKILL');
  await owner.exited;
  const proxy = startProxy(repo.dir, ownerEnv(home.dir, { GARDENER_PROXY_DIAL_MS: '1' }));
  try {
    await proxy.until(/serving in-process|proxying to the owner|waiting for it/);
    assert.match(proxy.stderr(), /serving in-process \(no owner answered\)/, proxy.stderr());
    assert.doesNotMatch(proxy.stderr(), /waiting for it/);
  } finally {
    await ended(proxy.proc, proxy.exited);
    await repo.cleanup();
    await home.cleanup();
  }
});
