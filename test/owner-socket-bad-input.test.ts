import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { makeTempDir } from './helpers/git-repo.js';
import { startServe } from './helpers/owner.js';
import { VERSION } from '../src/version.js';
import { makeNonce } from '../src/owner/verify-owner.js';

/** A raw connection to the owner's socket that reads JSON lines. */
async function open(path: string, folder: string, helloLine?: string) {
  const socket: Socket = connect(path);
  await once(socket, 'connect');
  const lines: string[] = [];
  let waiters: (() => void)[] = [];
  let buf = '';
  socket.on('data', (d) => {
    buf += d.toString('utf8');
    let nl;
    while ((nl = buf.indexOf('\n')) !== -1) {
      lines.push(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
    }
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  });
  socket.on('error', () => {}); // the owner may reset a connection it ends
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  const next = async (): Promise<any> => {
    while (lines.length === 0) await new Promise<void>((r) => waiters.push(r));
    return JSON.parse(lines.shift()!);
  };
  if (helloLine !== undefined) {
    socket.write(helloLine + '\n');
  } else {
    // The challenge first (hello.ts); its proof is not checked here: this test is the client.
    socket.write(JSON.stringify({ gardener: VERSION, nonce: makeNonce() }) + '\n');
    assert.equal(typeof (await next()).proof, 'string');
    socket.write(JSON.stringify({ gardener: VERSION, op: 'mcp', folder, pid: process.pid, host_pid: process.ppid }) + '\n');
  }
  return { socket, next, closed, send: (x: string | Buffer) => socket.write(x) };
}

test('garbage, invalid UTF-8 and an over-long line end only their own connection; the owner and other sessions carry on', async () => {
  const home = await makeTempDir('gardener-home-');
  const folder = await makeTempDir();
  const owner = await startServe(home.dir, ['--no-http']);
  const path = owner.ready.socket;
  try {
    const a = await open(path, folder.dir);
    assert.equal((await a.next()).ok, true);
    a.send('this is not json\n');
    assert.equal((await a.next()).error.code, -32700);
    a.send(Buffer.concat([Buffer.from([0xff, 0xfe, 0x7b]), Buffer.from('\n')]));
    assert.equal((await a.next()).error.code, -32700);
    a.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) + '\n');
    assert.deepEqual(await a.next(), { jsonrpc: '2.0', id: 1, result: {} });

    const b = await open(path, folder.dir);
    assert.equal((await b.next()).ok, true);
    b.send(Buffer.alloc(5 * 1024 * 1024, 0x61));
    await b.closed;

    const bad = await open(path, folder.dir, 'not a hello');
    await bad.closed;

    a.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) + '\n');
    assert.deepEqual(await a.next(), { jsonrpc: '2.0', id: 2, result: {} }, 'the first session carries on');
    const nowhere = await open(path, '/definitely/not/here');
    const refused = await nowhere.next();
    assert.equal(refused.ok, false);
    assert.match(refused.error, /\/definitely\/not\/here/);
    a.socket.destroy();
  } finally {
    await owner.stop();
    await home.cleanup();
    await folder.cleanup();
  }
});
