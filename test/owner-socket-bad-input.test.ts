import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTempDir } from './helpers/git-repo.js';
import { startServe } from './helpers/owner.js';
import { openOwnerSocket as open } from './helpers/owner-socket.js';
import { MAX_JSON_DEPTH, MAX_LINE_BYTES } from '../src/wire/index.js';

test('garbage and a bad hello end only their own connection; the owner and other sessions carry on', async () => {
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

test('a line over MAX_LINE_BYTES is skipped and answered -32600 with its id; the connection goes on', async () => {
  const home = await makeTempDir('gardener-home-');
  const folder = await makeTempDir();
  const owner = await startServe(home.dir, ['--no-http']);
  try {
    const b = await open(owner.ready.socket, folder.dir);
    assert.equal((await b.next()).ok, true);
    // Junk with no id: id null.
    b.send(Buffer.concat([Buffer.alloc(MAX_LINE_BYTES + 1024, 0x61), Buffer.from('\n')]));
    const junk = await b.next();
    assert.equal(junk.id, null);
    assert.equal(junk.error.code, -32600);
    // A request whose id comes after its huge params (the SDK client's key order): its id.
    const huge = 'q'.repeat(MAX_LINE_BYTES + 1024);
    b.send(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"seek","arguments":{"query":"${huge}"}},"id":"late-id"}\n`);
    const late = await b.next();
    assert.equal(late.id, 'late-id');
    assert.equal(late.error.code, -32600);
    b.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }) + '\n');
    assert.deepEqual(await b.next(), { jsonrpc: '2.0', id: 3, result: {} }, 'the same connection is still served');
    assert.ok(!owner.stderr().includes('connection closed'), 'the owner never closed the connection');
    b.socket.destroy();
  } finally {
    await owner.stop();
    await home.cleanup();
    await folder.cleanup();
  }
});

test('invalid UTF-8 inside an otherwise valid request is -32700, never decoded to U+FFFD and run', async () => {
  const home = await makeTempDir('gardener-home-');
  const folder = await makeTempDir();
  const owner = await startServe(home.dir, ['--no-http']);
  try {
    const c = await open(owner.ready.socket, folder.dir);
    assert.equal((await c.next()).ok, true);
    c.send(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":4,"method":"ping","params":{"_meta":{"x":"'), Buffer.from([0xff]), Buffer.from('"}}}\n')]));
    const answer = await c.next();
    assert.equal(answer.error?.code, -32700, JSON.stringify(answer));
    assert.equal(answer.id, null);
    // Nested deeper than MAX_JSON_DEPTH: -32600, with the id the line carries.
    c.send(`{"jsonrpc":"2.0","id":5,"method":"ping","params":{"_meta":{"x":${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}}}}\n`);
    const deep = await c.next();
    assert.equal(deep.error?.code, -32600, JSON.stringify(deep));
    assert.equal(deep.id, 5);
    c.send(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'ping' }) + '\n');
    assert.deepEqual(await c.next(), { jsonrpc: '2.0', id: 6, result: {} });
    c.socket.destroy();
  } finally {
    await owner.stop();
    await home.cleanup();
    await folder.cleanup();
  }
});
