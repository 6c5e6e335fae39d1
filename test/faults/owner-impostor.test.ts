/**
 * Nobody else can pose as the owner. A home whose path is too long for a Unix socket puts the
 * socket at `<tmp>/gardener-<uid>/<hash>.sock`; another local user (`nobody`, through util-linux
 * `setpriv`) makes that folder first in a world-writable tmp and listens there, playing owner
 * (it answers any hello with ok and any call with a prompt injection). Then:
 *
 *   - `gardener mcp` answers tools in-process and says why; the impostor captures nothing at
 *     all (no connection: the folder is refused before connecting, so not even the hello);
 *   - `gardener serve --status` reports no verified owner (exit 1), and tells it nothing;
 *   - `gardener serve` refuses the folder (exit 2), saying it is the socket fallback and how
 *     to move it (XDG_RUNTIME_DIR, a shorter GARDENER_HOME).
 *
 * Figures: the impostor's connections and captured bytes (both 0), the exit codes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeGitRepo, makeTempDir } from '../helpers/git-repo.js';
import { sourceFiles } from '../helpers/brains.js';
import { connectGardener } from '../helpers/mcp-client.js';
import { ownerEnv, runCli } from '../helpers/owner.js';
import { runPaths } from '../../src/owner/run-paths.js';
import { recordFigures } from './fault-config.js';

const IMPOSTOR = fileURLToPath(new URL('./impostor-owner.js', import.meta.url));
const AS_NOBODY = ['--reuid=nobody', '--regid=nogroup', '--clear-groups', '--'];

/** Why another user cannot be played here, or null. */
function cannotBeNobody(): string | null {
  if (process.getuid?.() !== 0) return 'needs root, to run the impostor as user nobody';
  const r = spawnSync('setpriv', [...AS_NOBODY, process.execPath, '-e', 'process.exit(process.getuid() === 65534 ? 0 : 1)'], { encoding: 'utf8' });
  if (r.error) return `setpriv (util-linux) cannot run here: ${r.error.message}`;
  if (r.status !== 0) return `setpriv cannot run node as nobody here: ${r.stderr.trim()}`;
  return null;
}

test('another user on the socket fallback captures nothing: mcp answers in-process, status and serve refuse it', { timeout: 120_000 }, async (t) => {
  const skip = cannotBeNobody();
  if (skip) return t.skip(skip);
  // A private tmp, world-writable and sticky as /tmp is: where the fallback folder goes.
  const tmp = await makeTempDir('gardener-tmp-');
  chmodSync(tmp.dir, 0o1777);
  const base = await makeTempDir('gardener-home-');
  const home = join(base.dir, 'a-home-path-long-enough-that-its-socket-does-not-fit-in-sun-path-'.padEnd(90, 'x'));
  mkdirSync(home, { mode: 0o700 });
  const env = ownerEnv(home, { TMPDIR: tmp.dir });
  const repo = await makeGitRepo(sourceFiles(3));
  const savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = tmp.dir;
  const paths = runPaths(home, {});
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  assert.ok(paths.fallback && paths.socket.startsWith(tmp.dir), `the socket falls back into the tmp: ${paths.socket}`);

  // The home has a token, as it does once an owner ever ran: the client has what it needs to verify.
  assert.equal((await runCli(['token'], env)).code, 0);
  const impostorJs = join(tmp.dir, 'impostor-owner.mjs');
  writeFileSync(impostorJs, readFileSync(IMPOSTOR));
  chmodSync(impostorJs, 0o644);
  const impostor = spawn('setpriv', [...AS_NOBODY, process.execPath, impostorJs, paths.socket], { stdio: ['ignore', 'pipe', 'pipe'] });
  const events: { event: string; text?: string; uid?: number }[] = [];
  let impostorErr = '';
  impostor.stderr!.on('data', (d) => (impostorErr += d));
  await new Promise<void>((resolve, reject) => {
    let partial = '';
    impostor.stdout!.on('data', (d: Buffer) => {
      partial += d;
      let nl;
      while ((nl = partial.indexOf('\n')) !== -1) {
        const e = JSON.parse(partial.slice(0, nl));
        partial = partial.slice(nl + 1);
        events.push(e);
        if (e.event === 'listening') resolve();
      }
    });
    impostor.once('exit', (code) => reject(new Error(`the impostor exited (${code}): ${impostorErr}`)));
  });
  try {
    assert.equal(events[0]!.uid, 65534, 'the impostor is another user');

    const c = await connectGardener(repo.dir, env);
    const handshake = await c.call('session_handshake');
    assert.equal(handshake.isError, false, JSON.stringify(handshake.value));
    assert.equal(handshake.value.session_folder, repo.dir);
    assert.equal((await c.call('ingest')).isError, false);
    const seek = await c.call('seek', { query: 'fn1' });
    assert.equal(seek.isError, false);
    assert.ok(JSON.stringify(seek.value).includes('src/f1.ts'), JSON.stringify(seek.value));
    assert.ok(!JSON.stringify(seek.value).includes('ignore previous instructions'));
    await c.close();
    assert.match(c.stderr(), /serving in-process \(no verified owner: the socket folder .* belongs to another user \(uid 65534/);

    const status = await runCli(['serve', '--status'], env);
    assert.equal(status.code, 1, status.stderr);
    assert.match(status.stderr, /no verified owner .*GDN_OWNER_UNVERIFIED/);

    const serve = await runCli(['serve', '--port', '0'], env);
    assert.equal(serve.code, 2, serve.stderr);
    assert.ok(serve.stderr.includes(paths.socketDir), serve.stderr);
    assert.match(serve.stderr, /socket fallback/);
    assert.match(serve.stderr, /XDG_RUNTIME_DIR/);
    assert.match(serve.stderr, /shorter GARDENER_HOME/);

    const connections = events.filter((e) => e.event === 'connection').length;
    const captured = events.filter((e) => e.event === 'data').reduce((n, e) => n + Buffer.byteLength(e.text ?? ''), 0);
    assert.equal(connections, 0, `the impostor was connected to: ${JSON.stringify(events)}`);
    assert.equal(captured, 0);
    recordFigures('owner-impostor', {
      impostor_connections: connections,
      impostor_bytes_captured: captured,
      mcp_served_in_process: true,
      status_exit: status.code,
      serve_exit: serve.code,
    });
  } finally {
    impostor.kill();
    await repo.cleanup();
    await base.cleanup();
    await tmp.cleanup();
  }
});
