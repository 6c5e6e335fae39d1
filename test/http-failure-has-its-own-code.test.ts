/**
 * A request that fails inside the owner's HTTP listener, outside any tool call, answers 500
 * with a code of its own (GDN_HTTP_FAILED): GDN_TOOL_FAILED says a tool failed, and none ran.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../src/log.js';
import { HttpListener } from '../src/transports/http/http-listener.js';

test('a request that fails outside any tool answers 500 GDN_HTTP_FAILED, not GDN_TOOL_FAILED', async () => {
  const token = 'e'.repeat(64);
  const http = new HttpListener({
    host: '127.0.0.1',
    port: 0,
    token,
    log: createLogger('silent'),
    startedAt: Date.now(),
    brains: () => [],
    sessionHost: {
      openSession: () => {
        throw new Error('the session could not be built');
      },
    },
  });
  const url = await http.listen();
  try {
    const res = await fetch(`${url}/api/tools/session_handshake`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-gardener-folder': '/' },
      body: '{}',
    });
    assert.equal(res.status, 500);
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'GDN_HTTP_FAILED');
    assert.match(body.error.message, /the session could not be built/);
  } finally {
    await http.stopAccepting();
    await http.endSessions();
  }
});
