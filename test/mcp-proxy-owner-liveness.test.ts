/**
 * The proxy's liveness rule, driven by a manual clock against a stand-in owner on a real Unix
 * socket: with requests waiting and the owner silent, the proxy pings it on the socket (a
 * proxy-private id, the answer never reaches the host); an owner that answers keeps the
 * session however long its tools run; an owner silent for PROXY_LIVENESS_MS is left, and
 * what was in flight is replayed in-process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { makeTempDir } from './helpers/git-repo.js';
import { ManualClock } from './helpers/manual-clock.js';
import { PROXY_LIVENESS_MS, runProxy } from '../src/transports/proxy/mcp-proxy.js';
import { MAX_LINE_BYTES } from '../src/wire/index.js';

/** Lines of a stream, awaited by predicate. */
function lineReader(stream: Readable) {
  const lines: any[] = [];
  let waiters: (() => void)[] = [];
  let buf = '';
  stream.on('data', (d: Buffer) => {
    buf += d.toString('utf8');
    for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
      lines.push(JSON.parse(buf.slice(0, nl)));
      buf = buf.slice(nl + 1);
    }
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  });
  return {
    lines,
    async waitFor(pred: (m: any) => boolean): Promise<any> {
      for (;;) {
        const hit = lines.find(pred);
        if (hit) return hit;
        await new Promise<void>((r) => waiters.push(r));
      }
    },
  };
}

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } };
const line = (m: unknown) => JSON.stringify(m) + '\n';

async function standIn() {
  const tmp = await makeTempDir('gardener-liveness-');
  const path = join(tmp.dir, 'owner.sock');
  let owner!: Socket;
  const server = createServer();
  const accepted = new Promise<void>((r) => {
    server.once('connection', (s) => {
      owner = s;
      r();
    });
  });
  server.listen(path);
  await once(server, 'listening');
  const socket = connect(path);
  await once(socket, 'connect');
  await accepted;
  const seen = lineReader(owner);
  return {
    socket,
    owner: () => owner,
    seen,
    async cleanup() {
      owner.destroy();
      socket.destroy();
      server.close();
      await tmp.cleanup();
    },
  };
}

function proxyUnderTest(socket: Socket, clock: ManualClock) {
  const hostIn = new PassThrough();
  const hostOut = new PassThrough();
  const host = lineReader(hostOut);
  const logs: string[] = [];
  let resolveServed!: (lines: ReturnType<typeof lineReader>) => void;
  const served = new Promise<ReturnType<typeof lineReader>>((r) => (resolveServed = r));
  let closeLocal!: () => void;
  const localClosed = new Promise<void>((r) => (closeLocal = r));
  const done = runProxy({
    socket,
    rest: Buffer.alloc(0),
    folder: '/nowhere',
    stdin: hostIn,
    stdout: hostOut,
    log: (l) => logs.push(l),
    processHooks: false,
    timers: clock,
    serveInProcess: async (stdin) => {
      resolveServed(lineReader(stdin));
      return { close: async () => closeLocal(), closed: localClosed };
    },
  });
  return { hostIn, host, logs, served, done, end: () => hostIn.end() };
}

/** The host's initialize, through the proxy to the stand-in owner, answered by it and passed back. */
async function initializeThroughTheOwner(s: Awaited<ReturnType<typeof standIn>>, p: ReturnType<typeof proxyUnderTest>): Promise<void> {
  p.hostIn.write(line(INITIALIZE));
  await s.seen.waitFor((m) => m.method === 'initialize');
  s.owner().write(line({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'stand-in', version: '0' } } }));
  await p.host.waitFor((m) => m.id === 1);
}

test('with nothing waiting, a silent owner is never pinged and never left', async () => {
  const s = await standIn();
  const clock = new ManualClock();
  const p = proxyUnderTest(s.socket, clock);
  try {
    await initializeThroughTheOwner(s, p);
    p.hostIn.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    await s.seen.waitFor((m) => m.method === 'notifications/initialized');
    clock.advance(PROXY_LIVENESS_MS * 10);
    assert.equal(clock.pending, 0, 'no timer while nothing waits');
    assert.equal(s.seen.lines.filter((m) => m.method === 'ping').length, 0);
    assert.ok(!p.logs.some((l) => l.includes('in-process')), p.logs.join('\n'));
  } finally {
    p.end();
    await p.done;
    await s.cleanup();
  }
});

test('a busy owner that answers pings keeps the session; a silent one is left after PROXY_LIVENESS_MS and the call is replayed in-process', async () => {
  const s = await standIn();
  const clock = new ManualClock();
  const p = proxyUnderTest(s.socket, clock);
  try {
    await initializeThroughTheOwner(s, p);
    p.hostIn.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'scan', arguments: {} } };
    p.hostIn.write(line(call));
    await s.seen.waitFor((m) => m.id === 2);

    // The owner runs its long scan and answers every ping: far past the bound, still on it.
    let answered = 0;
    const pinged = new Set<string>();
    for (let round = 0; round < 8; round++) {
      clock.advance(PROXY_LIVENESS_MS / 2);
      const ping = await s.seen.waitFor((m) => m.method === 'ping' && !pinged.has(m.id));
      pinged.add(ping.id);
      assert.equal(typeof ping.id, 'string', 'a proxy-private id');
      s.owner().write(line({ jsonrpc: '2.0', id: ping.id, result: {} }));
      // A notification after the pong: once the host has it, the pong has been read.
      s.owner().write(line({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `round ${round}` } }));
      await p.host.waitFor((m) => m.params?.data === `round ${round}`);
      answered++;
    }
    assert.equal(answered, 8);
    assert.ok(!p.host.lines.some((m) => typeof m.id === 'string'), 'no ping answer reaches the host');
    assert.ok(!p.logs.some((l) => l.includes('in-process')), p.logs.join('\n'));

    // Now the owner stalls: nothing more from it.
    clock.advance(PROXY_LIVENESS_MS);
    const local = await p.served;
    const replayed = await local.waitFor((m) => m.id === 2);
    assert.deepEqual(replayed, call, 'the call in flight is replayed in-process');
    assert.equal(local.lines[0].method, 'initialize', 'after initialize');
    assert.ok(p.logs.some((l) => /no sign of life/.test(l)), p.logs.join('\n'));
    assert.ok(s.socket.destroyed, 'the stalled owner is hung up on');
  } finally {
    p.end();
    await p.done;
    await s.cleanup();
  }
});

test('an owner that stalls before answering initialize is left too, and the host gets its initialize answer in-process', async () => {
  const s = await standIn();
  const clock = new ManualClock();
  const p = proxyUnderTest(s.socket, clock);
  try {
    p.hostIn.write(line(INITIALIZE));
    await s.seen.waitFor((m) => m.method === 'initialize');
    clock.advance(PROXY_LIVENESS_MS);
    const local = await p.served;
    assert.equal((await local.waitFor((m) => m.method === 'initialize')).id, 1);
  } finally {
    p.end();
    await p.done;
    await s.cleanup();
  }
});

test('an answer from the owner over MAX_LINE_BYTES becomes -32603 for its request, and the session stays on the owner', async () => {
  const s = await standIn();
  const clock = new ManualClock();
  const p = proxyUnderTest(s.socket, clock);
  try {
    await initializeThroughTheOwner(s, p);
    p.hostIn.write(line({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'seek', arguments: { query: 'x' } } }));
    await s.seen.waitFor((m) => m.id === 2);
    s.owner().write(line({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'x'.repeat(MAX_LINE_BYTES) }] } }));
    const answer = await p.host.waitFor((m) => m.id === 2);
    assert.equal(answer.error?.code, -32603, JSON.stringify(answer).slice(0, 200));
    p.hostIn.write(line({ jsonrpc: '2.0', id: 3, method: 'ping' }));
    await s.seen.waitFor((m) => m.id === 3);
    s.owner().write(line({ jsonrpc: '2.0', id: 3, result: {} }));
    assert.deepEqual(await p.host.waitFor((m) => m.id === 3), { jsonrpc: '2.0', id: 3, result: {} });
    clock.advance(PROXY_LIVENESS_MS * 2);
    assert.ok(!p.logs.some((l) => l.includes('serving in-process')), p.logs.join('\n'));
  } finally {
    p.end();
    await p.done;
    await s.cleanup();
  }
});
