import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { runStdioServer } from '../src/transports/stdio/stdio-server.js';
import { makeTempDir } from './helpers/git-repo.js';

/** A bound on how long a broken shutdown may hang before the test fails (not a wait). */
const HANG_BOUND_MS = 10_000;

async function server() {
  const folder = await makeTempDir();
  const home = await makeTempDir('gardener-home-');
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const running = await runStdioServer({
    folder: folder.dir,
    stdin,
    stdout,
    processHooks: false,
    log: () => {},
    session: { brains: { home: home.dir } },
  });
  return { running, stdin, stdout, cleanup: async () => (await folder.cleanup(), await home.cleanup()) };
}

test('a stdin that errors instead of ending still ends the server', { timeout: HANG_BOUND_MS }, async () => {
  const s = await server();
  try {
    s.stdin.emit('error', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
    await s.running.closed;
    assert.equal(s.stdin.destroyed, true, 'it stopped reading the dead descriptor');
  } finally {
    await s.cleanup();
  }
});

test('stdin EOF ends the server', { timeout: HANG_BOUND_MS }, async () => {
  const s = await server();
  try {
    s.stdin.end();
    await s.running.closed;
  } finally {
    await s.cleanup();
  }
});

test('a stdout that errors (the host hung up) ends the server', { timeout: HANG_BOUND_MS }, async () => {
  const s = await server();
  try {
    s.stdout.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await s.running.closed;
  } finally {
    await s.cleanup();
  }
});
