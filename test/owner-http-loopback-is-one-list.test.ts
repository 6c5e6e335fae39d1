import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isLoopbackHost } from '../src/transports/http/loopback.js';

test('loopback is 127.0.0.0/8 written as an address, localhost and ::1; a DNS name that starts with 127. is not', () => {
  for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]']) assert.equal(isLoopbackHost(h), true, h);
  for (const h of ['127.attacker.example', '127.0.0.1.nip.io', '0.0.0.0', '10.0.0.1', 'example.com', '::', '', '127.0.0.256']) {
    assert.equal(isLoopbackHost(h), false, h);
  }
});
