import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, unlinkSync, writeFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { makeTempDir } from './helpers/git-repo.js';
import { isAlive } from './helpers/fake-git.js';
import { childrenOf, ownerEnv, runCli, startServe } from './helpers/owner.js';

const ownerJson = (home: string) => JSON.parse(readFileSync(join(home, 'run', 'owner.json'), 'utf8'));

test('a second serve does not start a second owner: it says who runs and exits 0', async () => {
  const home = await makeTempDir('gardener-home-');
  const first = await startServe(home.dir);
  try {
    const second = await runCli(['serve', '--port', '0'], ownerEnv(home.dir));
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, new RegExp(`already running \\(pid ${first.pid}, http://127\\.0\\.0\\.1:\\d+\\)`));
    assert.equal(ownerJson(home.dir).pid, first.pid);
    const json = await runCli(['serve', '--port', '0', '--json'], ownerEnv(home.dir));
    assert.deepEqual(
      { running: JSON.parse(json.stdout).running, pid: JSON.parse(json.stdout).pid },
      { running: true, pid: first.pid },
    );
  } finally {
    await first.stop();
    await home.cleanup();
  }
});

test('owner.json and the socket are private, and owner.json names the port picked', async () => {
  const home = await makeTempDir('gardener-home-');
  const owner = await startServe(home.dir);
  try {
    const info = ownerJson(home.dir);
    assert.equal(info.pid, owner.pid);
    assert.equal(info.url, owner.ready.url);
    assert.match(info.url, /^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    assert.equal(statSync(info.socket).mode & 0o777, 0o600);
    assert.equal(statSync(join(home.dir, 'run')).mode & 0o777, 0o700);
    assert.equal(statSync(join(home.dir, 'token')).mode & 0o777, 0o600);
  } finally {
    await owner.stop();
    await home.cleanup();
  }
});

test('a stale owner (SIGKILLed: its owner.json and socket left behind) is taken over', async () => {
  const home = await makeTempDir('gardener-home-');
  const dead = await startServe(home.dir);
  dead.proc.kill('SIGKILL');
  await dead.exited;
  assert.ok(existsSync(join(home.dir, 'run', 'owner.json')), 'the killed owner left its file');
  assert.ok(existsSync(dead.ready.socket), 'and its socket');
  const next = await startServe(home.dir);
  try {
    assert.equal(ownerJson(home.dir).pid, next.pid);
    assert.ok(next.logs().some((l) => l.msg === 'ready'));
  } finally {
    await next.stop();
    await home.cleanup();
  }
});

test('an owner.json naming a live pid of another process is still taken over (the pid is never trusted)', async () => {
  const home = await makeTempDir('gardener-home-');
  const bystander = spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'ignore'] });
  try {
    mkdirSync(join(home.dir, 'run'), { mode: 0o700 });
    const socket = join(home.dir, 'run', 'owner.sock');
    writeFileSync(join(home.dir, 'run', 'owner.json'), JSON.stringify({ pid: bystander.pid, version: '0.1.0', socket, url: null, started_at: new Date().toISOString() }));
    const owner = await startServe(home.dir);
    assert.equal(ownerJson(home.dir).pid, owner.pid);
    assert.ok(isAlive(bystander.pid!), 'the bystander was left alone');
    await owner.stop();
  } finally {
    bystander.kill();
    await home.cleanup();
  }
});

test('a socket path taken by a file that is not a socket is refused with exit 2, naming it', async () => {
  const home = await makeTempDir('gardener-home-');
  try {
    mkdirSync(join(home.dir, 'run'), { mode: 0o700 });
    const path = join(home.dir, 'run', 'owner.sock');
    writeFileSync(path, 'not a socket');
    const r = await runCli(['serve', '--port', '0'], ownerEnv(home.dir));
    assert.equal(r.code, 2);
    assert.ok(r.stderr.includes(path), r.stderr);
    assert.match(r.stderr, /not a socket/);
    assert.equal(readFileSync(path, 'utf8'), 'not a socket', 'it was not deleted');
    assert.ok(!existsSync(join(home.dir, 'run', 'owner.json')), 'the claim was given back');
  } finally {
    await home.cleanup();
  }
});

test('a home writable by group or others is refused with a message naming it and the fix', async () => {
  const home = await makeTempDir('gardener-home-');
  try {
    chmodSync(home.dir, 0o777);
    const r = await runCli(['serve', '--port', '0'], ownerEnv(home.dir));
    assert.equal(r.code, 2);
    assert.ok(r.stderr.includes(home.dir), r.stderr);
    assert.match(r.stderr, /chmod go-w/);
    chmodSync(home.dir, 0o700);
    mkdirSync(join(home.dir, 'run'), { mode: 0o770 });
    chmodSync(join(home.dir, 'run'), 0o770);
    const run = await runCli(['serve', '--port', '0'], ownerEnv(home.dir));
    assert.equal(run.code, 2);
    assert.ok(run.stderr.includes(join(home.dir, 'run')), run.stderr);
  } finally {
    chmodSync(home.dir, 0o700);
    await home.cleanup();
  }
});

test('a port in use is exit 2 naming the port', async () => {
  const home = await makeTempDir('gardener-home-');
  const first = await startServe(home.dir);
  const other = await makeTempDir('gardener-home-');
  try {
    const port = new URL(first.ready.url!).port;
    const r = await runCli(['serve', '--port', port], ownerEnv(other.dir));
    assert.equal(r.code, 2);
    assert.match(r.stderr, new RegExp(`port ${port} is in use`));
    assert.ok(!existsSync(join(other.dir, 'run', 'owner.json')));
  } finally {
    await first.stop();
    await home.cleanup();
    await other.cleanup();
  }
});

test('SIGTERM leaves no socket, no owner.json and no child process, within 3 s', async () => {
  const home = await makeTempDir('gardener-home-');
  const owner = await startServe(home.dir);
  try {
    const socket = owner.ready.socket;
    const t0 = Date.now();
    const { code } = await owner.stop();
    const tookMs = Date.now() - t0;
    assert.equal(code, 0);
    assert.ok(tookMs < 3000, `shutdown took ${tookMs} ms`);
    assert.ok(!existsSync(socket), 'the socket is gone');
    assert.ok(!existsSync(join(home.dir, 'run', 'owner.json')), 'owner.json is gone');
    assert.deepEqual(await childrenOf(owner.pid), []);
    assert.ok(owner.logs().some((l) => l.msg === 'stopped'));
  } finally {
    await home.cleanup();
  }
});

test('serve --status and --stop reach the running owner, with --json', async () => {
  const home = await makeTempDir('gardener-home-');
  const owner = await startServe(home.dir);
  try {
    const status = await runCli(['serve', '--status', '--json'], ownerEnv(home.dir));
    assert.equal(status.code, 0, status.stderr);
    const s = JSON.parse(status.stdout);
    assert.equal(s.pid, owner.pid);
    assert.equal(s.url, owner.ready.url);
    assert.deepEqual(s.brains, []);
    assert.deepEqual(s.sessions, { socket: 0, http: 0, rest: 0 });
    const text = await runCli(['serve', '--status'], ownerEnv(home.dir));
    assert.match(text.stdout, /^sessions 0 socket, 0 MCP over HTTP, 0 REST$/m);
    const stop = await runCli(['serve', '--stop', '--json'], ownerEnv(home.dir));
    assert.equal(stop.code, 0, stop.stderr);
    assert.deepEqual(JSON.parse(stop.stdout), { stopped: true, pid: owner.pid });
    assert.equal((await owner.exited).code, 0);
    const none = await runCli(['serve', '--status'], ownerEnv(home.dir));
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no owner is running/);
  } finally {
    await owner.stop();
    await home.cleanup();
  }
});

test('logs are JSON lines with levels; GARDENER_LOG=warn hides info', async () => {
  const home = await makeTempDir('gardener-home-');
  const owner = await startServe(home.dir);
  try {
    for (const l of owner.logs()) assert.ok(['debug', 'info', 'warn', 'error'].includes(l.level as string));
    const bad = await runCli(['serve', '--port', '0'], ownerEnv(home.dir, { GARDENER_LOG: 'loud' }));
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /GARDENER_LOG must be one of/);
  } finally {
    await owner.stop();
    await home.cleanup();
  }
  void once;
});

test('a token file others can read, or one that holds no token, is refused with exit 2 naming it', async () => {
  const home = await makeTempDir('gardener-home-');
  const token = join(home.dir, 'token');
  try {
    writeFileSync(token, 'a'.repeat(64) + '\n', { mode: 0o644 });
    chmodSync(token, 0o644);
    const open = await runCli(['serve', '--port', '0'], ownerEnv(home.dir));
    assert.equal(open.code, 2);
    assert.ok(open.stderr.includes(token), open.stderr);
    assert.match(open.stderr, /chmod 600/);
    chmodSync(token, 0o600);
    writeFileSync(token, 'not a token\n');
    const garbage = await runCli(['serve', '--port', '0'], ownerEnv(home.dir));
    assert.equal(garbage.code, 2);
    assert.match(garbage.stderr, /GDN_TOKEN_UNREADABLE/);
    assert.ok(!existsSync(join(home.dir, 'run', 'owner.json')), 'nothing was claimed');
  } finally {
    await home.cleanup();
  }
});

test('an owner removes only the socket it bound: one put in its place (another inode) is left alone', async () => {
  const home = await makeTempDir('gardener-home-');
  const owner = await startServe(home.dir);
  const other = createServer();
  try {
    const path = owner.ready.socket;
    unlinkSync(path);
    other.listen(path);
    await once(other, 'listening');
    const theirs = lstatSync(path).ino;
    assert.equal((await owner.stop()).code, 0);
    assert.ok(existsSync(path), 'the other socket is still there');
    assert.equal(lstatSync(path).ino, theirs);
    assert.ok(!existsSync(join(home.dir, 'run', 'owner.json')), 'its own owner.json is gone');
  } finally {
    other.close();
    await home.cleanup();
  }
});

test('without HTTP the owner still has a token: its socket clients verify it by that', async () => {
  const home = await makeTempDir('gardener-home-');
  const owner = await startServe(home.dir, ['--no-http']);
  try {
    assert.equal(statSync(join(home.dir, 'token')).mode & 0o777, 0o600);
    const status = await runCli(['serve', '--status', '--json'], ownerEnv(home.dir));
    assert.equal(status.code, 0, status.stderr);
    assert.equal(JSON.parse(status.stdout).pid, owner.pid);
  } finally {
    await owner.stop();
    await home.cleanup();
  }
});

test('two serves started at once make one owner: the lock holder; the other says who holds the home', async () => {
  const home = await makeTempDir('gardener-home-');
  const both = await Promise.allSettled([startServe(home.dir), startServe(home.dir)]);
  const owners = both.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  try {
    assert.equal(owners.length, 1, 'exactly one owner');
    const other = both.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    // Exit 0 ("already running", on stdout) once the holder answers; exit 1 if it was not listening within the bound.
    assert.match(String(other.reason), new RegExp(`code 0, |code 1, .*an owner \\(pid ${owners[0]!.pid}\\) holds this home`, 's'));
    assert.equal(ownerJson(home.dir).pid, owners[0]!.pid);
  } finally {
    for (const o of owners) await o.stop();
    await home.cleanup();
  }
});
