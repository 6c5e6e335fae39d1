/**
 * The soak's driver runs its git moves and bursts synchronously, then calls the owner over HTTP.
 * A keep-alive connection the server closed while the driver was blocked must not take the next
 * request: undici writes it on the dead connection and fails it with "other side closed" (seen
 * in a 120-minute Bun soak, and 6 times in about 4 500 requests before). Here a server closes
 * each connection 100 ms after its answer, as an idle timeout does, while the client is blocked.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, test } from 'node:test';
import { pollSocketsAfterBlocking } from '../bench/soak/sessions.js';

const SERVER = `const http = require('node:http');
const s = http.createServer((req, res) => { req.resume(); req.on('end', () => { res.end('ok'); setTimeout(() => req.socket.end(), 100); }); });
s.listen(0, '127.0.0.1', () => console.log(s.address().port));`;

let url = '';
let server: ReturnType<typeof spawn>;
before(async () => {
  server = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => server.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
  url = `http://127.0.0.1:${port}/`;
});
after(() => {
  server.kill();
});

/** Blocks this thread until the server has surely closed the connection (it does 100 ms after its answer). */
function blockPastTheClose(): void {
  const until = Date.now() + 250;
  while (Date.now() < until) {
    // the driver's synchronous git and file work
  }
}

test('after blocking work, the next request goes on a live connection', async () => {
  const failures: string[] = [];
  for (let i = 0; i < 20; i++) {
    await (await fetch(url, { method: 'POST', body: '{}' })).text();
    blockPastTheClose();
    await pollSocketsAfterBlocking();
    try {
      await (await fetch(url, { method: 'POST', body: '{}' })).text();
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      failures.push(`${(err as Error).message}: ${cause?.code} ${cause?.message}`);
    }
  }
  assert.deepEqual(failures, []);
});
