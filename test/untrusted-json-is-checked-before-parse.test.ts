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

test('more values than MAX_JSON_VALUES are refused before parsing, however shallow; the bound itself parses', async () => {
  const { MAX_JSON_VALUES } = await import('../src/wire/index.js');
  const items = (n: number) => bytes('[' + Array.from({ length: n }, () => '[1]').join(',') + ']');
  // The outer array, n inner arrays and their n numbers: 2n + 1 values.
  const atBound = items((MAX_JSON_VALUES - 1) / 2);
  assert.equal(decodeUntrustedJson(atBound).ok, true);
  const r = decodeUntrustedJson(items((MAX_JSON_VALUES + 1) / 2));
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.reason, 'values');
  assert.equal(!r.ok && r.code, -32600);
  assert.match(!r.ok ? r.message : '', new RegExp(String(MAX_JSON_VALUES)));
});

test('values inside strings are not counted', async () => {
  const { MAX_JSON_VALUES } = await import('../src/wire/index.js');
  const s = JSON.stringify({ q: '[1],'.repeat(MAX_JSON_VALUES) });
  assert.equal(decodeUntrustedJson(bytes(s)).ok, true);
});
