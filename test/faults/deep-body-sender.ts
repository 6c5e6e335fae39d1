/**
 * The attacker of the deep-bodies fault test, in a process of its own so that its sending does
 * not slow the test's own client: `count` bodies of 4 MiB nested `[[[…]]]` a million deep, all
 * at once, half to REST `POST /api/tools/seek` and half to `/mcp`, each on its own connection.
 * Prints `{"event":"sending"}` when the first byte is about to go, then one line
 * `{"event":"done","ms":…,"answers":[{"status":…,"body":"…"}]}` once every answer is in.
 *
 *   node deep-body-sender.js <url> <token> <folder> <count>
 */
import { request } from 'node:http';

const [url, token, folder, countText] = process.argv.slice(2) as [string, string, string, string];
const count = Number(countText);
/** A million `[` and as many `]`, padded with spaces to exactly the body bound (4 MiB). */
const DEPTH = 1_000_000;
const BODY_BYTES = 4 * 1024 * 1024;
const body = Buffer.alloc(BODY_BYTES, 0x20);
body.fill(0x5b, 0, DEPTH);
body.fill(0x5d, DEPTH, 2 * DEPTH);

function send(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      {
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-gardener-folder': folder,
          'content-length': body.length,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: text.slice(0, 300) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

process.stdout.write(JSON.stringify({ event: 'sending' }) + '\n');
const started = performance.now();
const answers = await Promise.all(Array.from({ length: count }, (_, i) => send(i % 2 === 0 ? '/api/tools/seek' : '/mcp')));
process.stdout.write(JSON.stringify({ event: 'done', ms: Math.round(performance.now() - started), answers }) + '\n');
