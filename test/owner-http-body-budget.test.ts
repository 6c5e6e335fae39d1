import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request, type ClientRequest } from 'node:http';
import { makeTempDir } from './helpers/git-repo.js';
import { OwnerBrains } from '../src/owner/owner-brains.js';
import { createLogger } from '../src/log.js';
import { HttpListener } from '../src/transports/http/http-listener.js';

const TOKEN = 'd'.repeat(64);
/** Each large body: over SMALL_BODY_BYTES, and two of them over the budget below. */
const BODY = 600 * 1024;
const BUDGET = 1024 * 1024;

/** Waits for a state of the listener, turn after turn of the event loop (the test's bound is the timeout). */
async function until(what: string, cond: () => boolean): Promise<void> {
  for (let i = 0; !cond(); i++) {
    if (i > 1_000_000) assert.fail(`never: ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

/** An owner's HTTP listener whose large bodies share BUDGET bytes, the folder its calls name, and the requests to end with it. */
async function ownerWithBudget() {
  const home = await makeTempDir('gardener-home-');
  const folder = await makeTempDir();
  const log = createLogger('silent');
  const brains = new OwnerBrains({ home: home.dir, maxThreads: 1, log });
  const http = new HttpListener({
    host: '127.0.0.1',
    port: 0,
    token: TOKEN,
    log,
    startedAt: 0,
    maxBodyBytesInFlight: BUDGET,
    brains: () => brains.describe(),
    sessionHost: brains,
  });
  const url = await http.listen();
  const open: ClientRequest[] = [];
  const close = async () => {
    for (const r of open) r.destroy();
    await http.stopAccepting();
    await http.endSessions();
    await brains.close();
    await home.cleanup();
    await folder.cleanup();
  };
  return { url, folder, open, close, http };
}

test('large bodies are read at most maxBodyBytesInFlight at a time, the rest wait unread; a small one never waits behind them; a client that leaves gives its turn up', { timeout: 120_000 }, async () => {
  const { url, folder, open, close, http } = await ownerWithBudget();
  const big = () => {
    let answered!: (status: number) => void;
    const status = new Promise<number>((r) => (answered = r));
    const req = request(`${url}/api/tools/session_handshake`, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'content-length': BODY, 'x-gardener-folder': folder.dir },
    }, (res) => {
      res.resume();
      res.on('end', () => answered(res.statusCode!));
    });
    req.on('error', () => {});
    open.push(req);
    // `{}` and spaces: JSON the tool accepts, once it is all there.
    req.write('{}');
    return { req, status, rest: () => req.end(Buffer.alloc(BODY - 2, 0x20)) };
  };
  try {
    const first = big();
    await until('the first body holds its room', () => http.bodies.inFlight === BODY);
    const second = big();
    second.rest();
    await until('the second body waits for room', () => http.bodies.waiting === 1);
    assert.equal(http.bodies.inFlight, BODY, 'the second is not read meanwhile');
    const small = await fetch(`${url}/api/tools/session_handshake`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'x-gardener-folder': folder.dir }, body: '{}' });
    assert.equal(small.status, 200, 'a small body does not wait behind them');
    const third = big();
    await until('a third waits too', () => http.bodies.waiting === 2);
    third.req.destroy();
    await until('the third, gone, gave its turn up', () => http.bodies.waiting === 1);
    first.rest();
    assert.equal(await first.status, 200);
    assert.equal(await second.status, 200, 'the second was read once there was room');
    await until('every room given back', () => http.bodies.inFlight === 0);
  } finally {
    await close();
  }
});

test('a large body whose first bytes already nest too deep gives its room back at once: the next one is read while it still uploads', { timeout: 60_000 }, async () => {
  const { url, folder, open, close, http } = await ownerWithBudget();
  const post = (path: string) => {
    let answered!: (r: { status: number; body: string }) => void;
    const answer = new Promise<{ status: number; body: string }>((r) => (answered = r));
    const req = request(`${url}${path}`, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'content-length': BODY, 'x-gardener-folder': folder.dir },
    }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => answered({ status: res.statusCode!, body }));
    });
    req.on('error', () => {});
    open.push(req);
    return { req, answer };
  };
  try {
    // 300 KiB of `[` (past the 256 KiB looked at first), and the rest held back.
    const deep = post('/api/tools/seek');
    const head = Buffer.from('{"query":' + '['.repeat(300 * 1024));
    deep.req.write(head);
    const honest = post('/api/tools/session_handshake');
    honest.req.end(Buffer.concat([Buffer.from('{}'), Buffer.alloc(BODY - 2, 0x20)]));
    assert.equal((await honest.answer).status, 200, 'read while the deep one still uploads');
    deep.req.end(Buffer.alloc(BODY - head.length, 0x5d));
    const refused = await deep.answer;
    assert.equal(refused.status, 400);
    assert.match(refused.body, /GDN_JSON_TOO_DEEP/);
    await until('every room given back', () => http.bodies.inFlight === 0);
  } finally {
    await close();
  }
});

test('maxBodyBytesInFlight is checked once, at construction, with the value received', () => {
  const base = { host: '127.0.0.1', port: 0, token: TOKEN, log: createLogger('silent'), startedAt: 0, brains: () => [], sessionHost: { openSession: () => assert.fail('no session') } };
  assert.throws(() => new HttpListener({ ...base, maxBodyBytesInFlight: -1 }), /options\.maxBodyBytesInFlight must be a positive integer, got -1/);
});
