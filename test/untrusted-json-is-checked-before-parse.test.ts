import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeUntrustedJson, MAX_JSON_DEPTH, nestsDeeperThan } from '../src/wire/index.js';

const bytes = (s: string) => Buffer.from(s, 'utf8');

test('nesting up to the bound parses; one level more is refused before parsing', () => {
  const ok = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
  const deep = '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1);
  assert.equal(decodeUntrustedJson(bytes(ok)).ok, true);
  const r = decodeUntrustedJson(bytes(deep));
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.reason, 'depth');
  assert.equal(!r.ok && r.code, -32600);
});

test('brackets inside strings, escaped quotes included, do not count as nesting', () => {
  const s = JSON.stringify({ q: '['.repeat(500) + '\\"' + '{'.repeat(500) });
  assert.equal(nestsDeeperThan(bytes(s), 4), false);
  assert.deepEqual(decodeUntrustedJson(bytes(s)), { ok: true, value: JSON.parse(s) });
});

test('invalid UTF-8 is a parse error, never decoded to U+FFFD and run', () => {
  const r = decodeUntrustedJson(Buffer.concat([bytes('{"a":"'), Buffer.from([0xff, 0xfe]), bytes('"}')]));
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.reason, 'utf8');
  assert.equal(!r.ok && r.code, -32700);
});

test('text that is not JSON is a parse error', () => {
  const r = decodeUntrustedJson(bytes('{"a":'));
  assert.equal(!r.ok && r.reason, 'syntax');
});

test('a document too deep is refused by its first bytes, before the rest is decoded', () => {
  const deepThenNotUtf8 = Buffer.concat([bytes('['.repeat(MAX_JSON_DEPTH + 1)), Buffer.from([0xff]), bytes(']'.repeat(MAX_JSON_DEPTH + 1))]);
  const r = decodeUntrustedJson(deepThenNotUtf8);
  assert.equal(!r.ok && r.reason, 'depth');
});
