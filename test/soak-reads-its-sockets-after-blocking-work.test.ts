/**
 * The soak's driver runs its git moves and bursts synchronously, then calls the owner over HTTP.
 * A keep-alive connection the server closed while the driver was blocked must not take the next
 * request: undici writes it on the dead connection and fails it with "other side closed" (seen
 * in a 120-minute Bun soak, and 6 times in about 4 500 requests before). Here a server closes
 * each connection 100 ms after its answer, as an idle timeout does, while the client is blocked.
 *
 * The client blocks 250 ms (the driver's synchronous work) and, past that, until the server says
 * on a named pipe that the connection is closed: on a loaded machine the server's 100 ms timer
 * can fire after the 250 ms, and the close would then come after the client had looked.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pollSocketsAfterBlocking } from '../bench/soak/sessions.js';

// Numbers each request in its answer and, once it has closed that request's connection, writes
// "closed N" to the pipe named by argv[1].
const SERVER = `const http = require('node:http'); const fs = require('node:fs');
const pipe = fs.createWriteStream(process.argv[1]);
let n = 0;
const s = http.createServer((req, res) => { const id = ++n; req.resume(); req.on('end', () => { res.end('ok ' + id); setTimeout(() => req.socket.end(() => pipe.write('closed ' + id + '\\n')), 100); }); });
s.listen(0, '127.0.0.1', () => console.log(s.address().port));`;

let url = '';
let server: ReturnType<typeof spawn>;
let dir = '';
let pipeFd = -1;
let pending = '';
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'soak-sockets-'));
  const fifo = join(dir, 'closed');
  execFileSync('mkfifo', [fifo]);
  server = spawn(process.execPath, ['-e', SERVER, fifo], { stdio: ['ignore', 'pipe', 'inherit'] });
  pipeFd = openSync(fifo, 'r'); // returns once the server has opened its end
  const port = await new Promise<number>((resolve) => server.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
  url = `http://127.0.0.1:${port}/`;
});
after(() => {
  server.kill();
  if (pipeFd >= 0) closeSync(pipeFd);
  rmSync(dir, { recursive: true, force: true });
});

/** Blocks this thread 250 ms, then on until the server has closed request `id`'s connection. */
function blockPastTheClose(id: number): void {
  const until = Date.now() + 250;
  while (Date.now() < until) {
    // the driver's synchronous git and file work
  }
  const buf = Buffer.alloc(256);
  while (!pending.split('\n').includes(`closed ${id}`)) {
    const n = readSync(pipeFd, buf, 0, buf.length, null); // blocks: the thread does not poll meanwhile
    if (n === 0) throw new Error('the server ended before it closed the connection');
    pending += buf.toString('utf8', 0, n);
  }
}

test('after blocking work, the next request goes on a live connection', async () => {
  const failures: string[] = [];
  for (let i = 0; i < 20; i++) {
    const answer = await (await fetch(url, { method: 'POST', body: '{}' })).text();
    blockPastTheClose(Number(answer.split(' ')[1]));
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
