/**
 * The attacker of the body fault tests (deep-bodies, wide-bodies), in a process of its own so
 * that its sending does not slow the test's own client: `count` bodies of 4 MiB, all at once,
 * half to REST `POST /api/tools/seek` and half to `/mcp`, each on its own connection.
 *
 *   deep   `[[[…]]]` a million deep, padded with spaces (refused: nesting)
 *   wide   a million `[1]` in one array, one level deep (refused: values)
 *   heavy  within every bound: 99,000 strings of 40 bytes (parsed; `seek` refuses the argument)
 *
 * Prints `{"event":"sending"}` when the first byte is about to go, then one line
 * `{"event":"done","ms":…,"answers":[{"status":…,"body":"…"}]}` once every answer is in.
 *
 *   node body-sender.js <url> <token> <folder> <count> [deep|wide|heavy]
 */
import { request } from 'node:http';

const [url, token, folder, countText, kind = 'deep'] = process.argv.slice(2) as [string, string, string, string, string?];
const count = Number(countText);
const BODY_BYTES = 4 * 1024 * 1024;

/** A JSON document of exactly BODY_BYTES: `head`, `unit` repeated, `tail`, padded with spaces. */
function filled(head: string, unit: string, tail: string, times = Math.floor((BODY_BYTES - head.length - tail.length) / unit.length)): Buffer {
  const body = Buffer.alloc(BODY_BYTES, 0x20);
  body.write(head + unit.repeat(times) + tail);
  return body;
}

function makeBody(rest: boolean): Buffer {
  if (kind === 'deep') {
    const depth = 1_000_000;
    const body = Buffer.alloc(BODY_BYTES, 0x20);
    body.fill(0x5b, 0, depth);
    body.fill(0x5d, depth, 2 * depth);
    return body;
  }
  if (kind === 'wide') return rest ? filled('{"query":[', '[1],', '1]}') : filled('[', '[1],', '1]');
  if (kind === 'heavy') {
    const unit = `"${'x'.repeat(38)}",`;
    return rest ? filled('{"query":[', unit, '1]}', 99_000) : filled('[', unit, '1]', 99_000);
  }
  throw new Error(`unknown body kind "${kind}"`);
}

const bodies = { rest: makeBody(true), mcp: makeBody(false) };

function send(path: string, body: Buffer): Promise<{ status: number; body: string }> {
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
const answers = await Promise.all(Array.from({ length: count }, (_, i) => (i % 2 === 0 ? send('/api/tools/seek', bodies.rest) : send('/mcp', bodies.mcp))));
process.stdout.write(JSON.stringify({ event: 'done', ms: Math.round(performance.now() - started), answers }) + '\n');
