import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findRequestId, LineFramer, MAX_JSON_DEPTH, type Frame } from '../src/wire/index.js';

function framed(maxLineBytes?: number) {
  const frames: Frame[] = [];
  const framer = new LineFramer((f) => frames.push(f), maxLineBytes === undefined ? {} : { maxLineBytes });
  return { frames, framer, push: (s: string | Buffer) => framer.push(Buffer.isBuffer(s) ? s : Buffer.from(s)) };
}

test('lines cut anywhere come out whole, CRLF and blank lines included', () => {
  const { frames, push } = framed();
  const text = '{"a":1}\r\n\n   \n{"b":"x\\ny"}\n[1,2]\n';
  for (let i = 0; i < text.length; i += 3) push(text.slice(i, i + 3));
  assert.deepEqual(frames.map((f) => f.ok && f.value), [{ a: 1 }, { b: 'x\ny' }, [1, 2]]);
  assert.ok(frames.every((f) => f.ok));
});

test('the same answer for the same bytes: -32700 for bytes not UTF-8 or not JSON, -32600 with the id for nesting too deep', () => {
  const { frames, push } = framed();
  push(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}}\n')]));
  push('{"jsonrpc":"2.0","id":2,\n');
  push(`{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"x":${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}}}\n`);
  const [utf8, syntax, deep] = frames;
  assert.deepEqual(utf8 && !utf8.ok && [utf8.reason, utf8.code, utf8.id], ['utf8', -32700, null]);
  assert.deepEqual(syntax && !syntax.ok && [syntax.reason, syntax.code, syntax.id], ['syntax', -32700, null]);
  assert.deepEqual(deep && !deep.ok && [deep.reason, deep.code, deep.id], ['depth', -32600, 'deep']);
});

test('an over-long line is skipped as it streams, never held whole, answered -32600 with its id; the next line is read', () => {
  const { frames, framer, push } = framed(1000);
  push('{"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"q":"');
  let peak = 0;
  for (let i = 0; i < 100; i++) {
    push('x'.repeat(500) + '[{\\"'); // brackets and an escaped quote inside the string
    peak = Math.max(peak, framer.heldBytes);
  }
  push('"}},"id":42}\n{"id":7}\n');
  assert.ok(peak <= 1000, `held at most the bound (${peak} bytes)`);
  assert.equal(frames.length, 2);
  const [over, next] = frames;
  assert.deepEqual(over && !over.ok && [over.reason, over.code, over.id], ['too-long', -32600, 42]);
  assert.deepEqual(next && next.ok && next.value, { id: 7 });
});

test('the id is the top-level one, or null when it cannot be told', () => {
  const id = (s: string) => findRequestId(Buffer.from(s));
  assert.equal(id('{"jsonrpc":"2.0","id":5,"method":"x"}'), 5);
  assert.equal(id(' { "params" : {"id": 9, "x": ["id", {"id": 1}]}, "id" : "a\\"b" }'), 'a"b');
  assert.equal(id('{"method":"x","params":{"id":3}}'), null, 'a nested id is not the request id');
  assert.equal(id('[{"id":1}]'), null, 'a batch is not one request');
  assert.equal(id('{"id":{"x":1}}'), null);
  assert.equal(id('{"id":null}'), null);
  assert.equal(id('{"\\u0069d":1}'), null, 'an escaped key is not looked at');
  assert.equal(id(`{"id":"${'x'.repeat(1000)}"}`), null, 'an id past MAX_ID_BYTES');
  assert.equal(id('{"id":-1.5e3,"method":"x"}'), -1500);
});

test('a bad bound is refused at construction, naming the option', () => {
  assert.throws(() => new LineFramer(() => {}, { maxLineBytes: 0 }), /options\.maxLineBytes must be a positive integer, got 0/);
});

test('the id search stops past MAX_JSON_DEPTH: a deep line costs no more than its first levels', () => {
  const deep = '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1);
  assert.equal(findRequestId(Buffer.from(`{"id":1,"x":${deep}}`)), 1, 'an id before the deep part is found');
  assert.equal(findRequestId(Buffer.from(`{"x":${deep},"id":1}`)), null, 'one after it is not looked for');
});
