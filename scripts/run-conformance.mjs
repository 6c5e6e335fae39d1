// Maintainer script (CI): the MCP conformance suite (@modelcontextprotocol/conformance, a dev
// dependency) against the owner's Streamable HTTP endpoint.
//   node scripts/run-conformance.mjs [--scenario NAME] [--verbose]
// A temporary home and git repository, mapped through REST; `gardener serve --port 0` on this
// Node; then the suite's server scenarios on the Node 24 dev dependency (the suite needs Node
// >= 22), with scripts/conformance-expected-failures.yml: the scenarios that need the suite's
// own fixture tools, prompts or resources, each with its reason. The suite speaks no bearer
// token, so it talks to a forwarder on 127.0.0.1 that adds the home's token and changes nothing
// else (Host and Origin pass as sent: the DNS-rebinding scenario reaches the owner's own guard).
// Nothing is downloaded: the suite runs from node_modules, its results go to a temporary folder.
// Exits with the suite's code (0: every scenario passed or failed as expected), or 1 saying why.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { followLog, makeScratchRepo, scratchHome } from './scratch-owner.mjs';

/** The whole run's bound: 32 scenarios, a few seconds each on a busy 2-core machine. */
const CONFORMANCE_TIMEOUT_MS = 600_000;
const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist/src/cli/main.js');
const suite = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const node24 = join(root, 'node_modules/node/bin/node');
const expected = join(root, 'scripts/conformance-expected-failures.yml');
const passOn = process.argv.slice(2);

const { dir, home, repo, env } = scratchHome('gardener-conformance-', 'info');
let owner;
let forwarder;
const cleanup = () => {
  owner?.kill('SIGKILL');
  forwarder?.close();
  rmSync(dir, { recursive: true, force: true });
};
const fail = (why) => {
  console.error(`conformance: FAILED: ${why}`);
  cleanup();
  process.exit(1);
};
setTimeout(() => fail(`not done within ${CONFORMANCE_TIMEOUT_MS} ms`), CONFORMANCE_TIMEOUT_MS).unref();
for (const [file, what] of [[cli, 'the build (npm run build)'], [suite, '@modelcontextprotocol/conformance (npm ci)'], [node24, 'the node dev dependency (npm ci)']]) {
  if (!existsSync(file)) fail(`${what} is missing: ${file}`);
}

// A small repository, so the prompts, resources and completions have a map to answer from.
makeScratchRepo(repo, env, {
  'src/config.ts': 'export function parseConfig(text: string): unknown {\n  return JSON.parse(text);\n}\n',
  'src/cli.ts': "import { parseConfig } from './config.js';\n\nexport const main = (t: string) => parseConfig(t);\n",
}, 'conformance');

owner = spawn(process.execPath, [cli, 'serve', '--port', '0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
const log = followLog(owner);
const exitedEarly = (code, signal) => fail(`the owner exited early (code ${code}, signal ${signal}):\n${log.stderr()}`);
owner.once('exit', exitedEarly);
const ready = await log.logLine((l) => l.msg === 'ready');
if (!ready.url) fail(`the owner has no HTTP listener: ${JSON.stringify(ready)}`);
const token = readFileSync(join(home, 'token'), 'utf8').trim();
const ownerUrl = new URL(ready.url);

const ingest = await fetch(new URL('/api/tools/ingest', ownerUrl), {
  method: 'POST',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-gardener-folder': repo },
  body: '{}',
});
if (!ingest.ok) fail(`ingest through REST answered ${ingest.status}: ${await ingest.text()}`);

// The forwarder: the token added, nothing else changed; bodies stream both ways (SSE included).
forwarder = createServer((req, res) => {
  const headers = { ...req.headers, authorization: `Bearer ${token}` };
  const out = request({ hostname: ownerUrl.hostname, port: ownerUrl.port, method: req.method, path: req.url, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  out.on('error', (err) => {
    if (!res.headersSent) res.writeHead(502).end(err.message);
    else res.destroy();
  });
  res.on('close', () => out.destroy());
  req.pipe(out);
});
await new Promise((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${forwarder.address().port}/mcp?folder=${encodeURIComponent(repo)}`;

const results = join(dir, 'results');
const run = spawn(node24, [suite, 'server', '--url', url, '--expected-failures', expected, '--output-dir', results, ...passOn], {
  env: { ...process.env, NO_COLOR: '1' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const [code] = await new Promise((resolve) => run.once('exit', (...a) => resolve(a)));
owner.removeAllListeners('exit');
owner.kill('SIGTERM');
await new Promise((resolve) => (owner.exitCode !== null ? resolve() : owner.once('exit', resolve)));
forwarder.close();
rmSync(dir, { recursive: true, force: true });
console.log(`conformance: the suite exited ${code}${code === 0 ? ' (every scenario passed, or failed as expected)' : ''}`);
process.exit(code ?? 1);
