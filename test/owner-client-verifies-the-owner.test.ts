/**
 * A client talks only to an owner it can verify: the socket's place (lstat: folder this user's,
 * a real folder, 0700; the socket a real socket of this user's) before connecting, and a proof
 * keyed by the home's token before anything of the session is sent. Same-user impostors here;
 * another user's is in test/faults/owner-impostor.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { chmodSync, chownSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { sourceFiles } from './helpers/brains.js';
import { connectGardener } from './helpers/mcp-client.js';
import { homeToken, listenStandIn, ownerEnv, runCli } from './helpers/owner.js';
import { socketPlaceProblem } from '../src/owner/verify-owner.js';
import { dialOwner } from '../src/owner/dial-owner.js';
import { VERSION } from '../src/version.js';

const asRoot = process.getuid?.() === 0;

test('the socket place is checked with lstat: folder this user\'s, real and 0700; the socket a real socket', async () => {
  const tmp = await makeTempDir('gardener-place-');
  try {
    const dir = join(tmp.dir, 'sock');
    mkdirSync(dir, { mode: 0o700 });
    const path = join(dir, 'owner.sock');
    assert.deepEqual(socketPlaceProblem(path)?.missing, true, 'nothing there: no owner, not an impostor');
    const server = createServer();
    server.listen(path);
    await once(server, 'listening');
    try {
      assert.equal(socketPlaceProblem(path), null);

      chmodSync(dir, 0o755);
      assert.match(socketPlaceProblem(path)!.reason, /open to group or others \(mode 755, not 700\)/);
      chmodSync(dir, 0o700);

      const link = join(tmp.dir, 'link');
      symlinkSync(dir, link);
      assert.match(socketPlaceProblem(join(link, 'owner.sock'))!.reason, /is a symlink/);

      const sockLink = join(dir, 'link.sock');
      symlinkSync(path, sockLink);
      assert.match(socketPlaceProblem(sockLink)!.reason, /is not a socket \(a symlink\)/);

      const plain = join(dir, 'plain.sock');
      writeFileSync(plain, '');
      assert.match(socketPlaceProblem(plain)!.reason, /is not a socket/);
      assert.equal(socketPlaceProblem(plain)!.missing, false);

      if (asRoot) {
        chownSync(path, 65534, 65534);
        assert.match(socketPlaceProblem(path)!.reason, /the socket .* belongs to another user \(uid 65534/);
        chownSync(path, 0, 0);
        chownSync(dir, 65534, 65534);
        assert.match(socketPlaceProblem(path)!.reason, /the socket folder .* belongs to another user \(uid 65534/);
        chownSync(dir, 0, 0);
      }
    } finally {
      server.close();
    }
  } finally {
    await tmp.cleanup();
  }
});

test('a peer that cannot prove it reads the token learns a nonce and nothing else', async () => {
  const home = await makeTempDir('gardener-home-');
  const token = homeToken(home.dir);
  const path = join(home.dir, 'run', 'owner.sock');
  try {
    for (const proof of ['wrong', 'none'] as const) {
      const fake = await listenStandIn(path, proof, () => assert.fail('the hello must not be sent'));
      try {
        const d = await dialOwner(path, { gardener: VERSION, op: 'mcp', folder: '/the/session/folder', pid: process.pid }, { token, timeoutMs: 5_000 });
        assert.equal(d.socket, undefined);
        assert.equal(!d.socket && d.untrusted, true);
        assert.match(!d.socket ? d.why : '', /did not prove it can read this home's token/);
        assert.equal(fake.lines.length, 1, 'only the challenge');
        assert.deepEqual(Object.keys(JSON.parse(fake.lines[0]!)).sort(), ['gardener', 'nonce']);
        assert.ok(!fake.lines[0]!.includes('/the/session/folder'));
      } finally {
        await fake.close();
      }
    }
  } finally {
    await home.cleanup();
  }
});

test('gardener mcp with a same-user impostor that does not know the token: in-process, says why, sends no session', async () => {
  const repo = await makeGitRepo(sourceFiles(2));
  const home = await makeTempDir('gardener-home-');
  homeToken(home.dir);
  const fake = await listenStandIn(join(home.dir, 'run', 'owner.sock'), 'wrong');
  try {
    const c = await connectGardener(repo.dir, ownerEnv(home.dir));
    const h = await c.call('session_handshake');
    assert.equal(h.isError, false, JSON.stringify(h.value));
    assert.equal(h.value.session_folder, repo.dir);
    await c.close();
    assert.match(c.stderr(), /serving in-process \(no verified owner: the peer on .* did not prove it can read this home's token\)/);
    assert.equal(fake.lines.length, 1, 'only the challenge reached it');
    assert.ok(!fake.lines.join('\n').includes(repo.dir), 'not the session folder');

    const status = await runCli(['serve', '--status'], ownerEnv(home.dir));
    assert.equal(status.code, 1);
    assert.match(status.stderr, /no verified owner for .*GDN_OWNER_UNVERIFIED/);
    assert.equal(fake.lines.length, 2, 'again only a challenge');
  } finally {
    await fake.close();
    await repo.cleanup();
    await home.cleanup();
  }
});

test('a client that cannot use the token dials nobody and says why', async () => {
  const repo = await makeGitRepo(sourceFiles(2));
  const home = await makeTempDir('gardener-home-');
  const tokenFile = join(home.dir, 'token');
  homeToken(home.dir);
  chmodSync(tokenFile, 0o644);
  const fake = await listenStandIn(join(home.dir, 'run', 'owner.sock'), 'wrong');
  try {
    const c = await connectGardener(repo.dir, ownerEnv(home.dir));
    assert.equal((await c.call('session_handshake')).isError, false);
    await c.close();
    assert.match(c.stderr(), /serving in-process \(no verified owner: cannot verify an owner without the token: .*readable or writable by group or others/);
    assert.equal(fake.connections(), 0);
  } finally {
    await fake.close();
    await repo.cleanup();
    await home.cleanup();
  }
});
