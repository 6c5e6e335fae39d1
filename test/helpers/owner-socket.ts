/**
 * A raw connection to a real owner's socket, for tests that must send what no MCP client
 * would: it answers the owner's challenge and says the hello (or sends the line given
 * instead), then reads JSON lines in order.
 *
 *   const c = await openOwnerSocket(owner.ready.socket, folder);
 *   assert.equal((await c.next()).ok, true);     // the owner's hello
 *   c.send('not json\n');
 *   assert.equal((await c.next()).error.code, -32700);
 */
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import assert from 'node:assert/strict';
import { VERSION } from '../../src/version.js';
import { makeNonce } from '../../src/transports/socket/hello.js';

export interface OwnerSocket {
  socket: Socket;
  /** The next line the owner sent, parsed (waits for it). */
  next(): Promise<any>;
  /** Resolves once the owner (or we) closed the connection. */
  closed: Promise<void>;
  send(bytes: string | Buffer): boolean;
}

export async function openOwnerSocket(path: string, folder: string, helloLine?: string): Promise<OwnerSocket> {
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
    // What no client would send, in place of the challenge.
    socket.write(helloLine + '\n');
  } else {
    // The challenge first (transports/socket/hello.ts); its proof is not checked here: this test is the client.
    socket.write(JSON.stringify({ gardener: VERSION, nonce: makeNonce() }) + '\n');
    assert.equal(typeof (await next()).proof, 'string');
    socket.write(JSON.stringify({ gardener: VERSION, op: 'mcp', folder, pid: process.pid, host_pid: process.ppid }) + '\n');
  }
  return { socket, next, closed, send: (x) => socket.write(x) };
}
