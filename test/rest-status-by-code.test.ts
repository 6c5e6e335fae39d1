/**
 * REST answers each coded failure with the status a client acts on: 4xx for what the caller
 * fixes, 503 for what passes by itself (retry), 507 for a full disk, and 500 only for faults.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statusOf } from '../src/transports/http/http-answers.js';

test('a store or worker that is busy, stopping or out of space is not answered as a server bug', () => {
  assert.equal(statusOf('GDN_STORE_LOCKED'), 503, 'the lock is released when the other process is done');
  assert.equal(statusOf('GDN_ABORTED'), 503, 'a call cut short by a stopping owner or session: retry');
  assert.equal(statusOf('GDN_WORKER_CRASHED'), 503, 'the pool and the writer restart by themselves');
  assert.equal(statusOf('GDN_WORKER_TIMEOUT'), 503);
  assert.equal(statusOf('GDN_STORE_IO'), 507, 'the disk is full or failing: storage, not the request');
  assert.equal(statusOf('GDN_SKELETON_CONFLICT'), 409);
  assert.equal(statusOf('GDN_NO_CANDIDATE'), 409);
  assert.equal(statusOf('GDN_NOTE_SECRET'), 400);
  assert.equal(statusOf('GDN_TOOL_FAILED'), 500);
  assert.equal(statusOf('GDN_STORE_CORRUPT'), 500);
});
