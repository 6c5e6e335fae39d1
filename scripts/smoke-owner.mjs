// Maintainer script (CI): the owner and its live watcher on one runtime, end to end.
//   node scripts/smoke-owner.mjs [runtime]      e.g. node_modules/.bin/bun
// A temporary home and git repository; `init` and `daemon start` through the CLI; `serve --port
// 0` under the runtime; waits (on its log lines, no clock) until the armed brain is watched,
// saves a file, waits for the watcher's tick, finds the new symbol through REST with the
// token, then SIGTERM: the owner must exit 0 and leave no owner.json behind. Exits non-zero,
// saying why, on any failure; bounded by SMOKE_TIMEOUT_MS.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SMOKE_TIMEOUT_MS = 90_000;
const runtime = process.argv[2] ?? process.execPath;
const cli = fileURLToPath(new URL('../dist/src/cli/main.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'gardener-smoke-'));
const home = join(dir, 'home');
const repo = join(dir, 'repo');
const env = { ...process.env, GARDENER_HOME: home, GARDENER_LOG: 'debug', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
delete env.XDG_RUNTIME_DIR;
delete env.GARDENER_NO_OWNER;
const fail = (why) => {
  console.error(`owner smoke (${runtime}): FAILED: ${why}`);
  cleanup();
  process.exit(1);
};
let owner;
const cleanup = () => {
  owner?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
};
setTimeout(() => fail(`not done within ${SMOKE_TIMEOUT_MS} ms`), SMOKE_TIMEOUT_MS).unref();

const git = (...args) => execFileSync('git', ['-C', repo, ...args], { env, stdio: 'pipe' });
execFileSync('git', ['init', '-q', '-b', 'main', repo], { env });
writeFileSync(join(repo, 'a.ts'), 'export function alpha(): number {\n  return 1;\n}\n');
git('add', '-A');
git('-c', 'user.name=smoke', '-c', 'user.email=smoke@example.invalid', 'commit', '-qm', 'init');
const run = (...args) => execFileSync(runtime, [cli, ...args], { env, encoding: 'utf8' });
run('init', repo, '--json');
run('daemon', 'start', repo, '--json');
const brain = JSON.parse(run('status', repo, '--json')).brain;

owner = spawn(runtime, [cli, 'serve', '--port', '0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
const logs = [];
const waiters = [];
let partial = '';
owner.stderr.on('data', (d) => {
  partial += d;
  let nl;
  while ((nl = partial.indexOf('\n')) !== -1) {
    const line = partial.slice(0, nl);
    partial = partial.slice(nl + 1);
    try {
      logs.push(JSON.parse(line));
    } catch {
      continue;
    }
    for (const w of waiters.splice(0)) w();
  }
});
const exited = new Promise((r) => owner.once('exit', (code, signal) => r({ code, signal })));
exited.then(({ code, signal }) => {
  if (!stopping) fail(`the owner exited early (code ${code}, signal ${signal}): ${logs.map((l) => l.msg).join(', ')}`);
});
let stopping = false;
const logLine = async (match, from = 0) => {
  for (;;) {
    const hit = logs.slice(from).find(match);
    if (hit) return hit;
    await new Promise((r) => waiters.push(r));
  }
};

const ready = await logLine((l) => l.msg === 'ready');
const watching = await logLine((l) => l.msg === 'watching' && l.brain === brain);
if (watching.watch_backend !== 'native') fail(`watched as ${watching.watch_backend}, not native`);
const status = JSON.parse(run('status', repo, '--json'));
if (status.watch_backend !== 'native') fail(`status says ${status.watch_backend} while the owner watches`);

const before = logs.length;
writeFileSync(join(repo, 'b.ts'), 'export function savedDuringSmoke(): number {\n  return 2;\n}\n');
await logLine((l) => l.msg === 'watch tick' && l.brain === brain && l.reason === 'burst', before);
const token = readFileSync(join(home, 'token'), 'utf8').trim();
const res = await fetch(`${ready.url}/api/tools/seek?folder=${encodeURIComponent(repo)}`, {
  method: 'POST',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: JSON.stringify({ query: 'savedDuringSmoke', scope: 'code' }),
});
const body = await res.json();
if (!res.ok || !JSON.stringify(body).includes('savedDuringSmoke')) fail(`REST seek did not find the saved file: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);

stopping = true;
owner.kill('SIGTERM');
const { code, signal } = await exited;
if (code !== 0) fail(`SIGTERM: exit code ${code}, signal ${signal}`);
if (existsSync(join(home, 'run', 'owner.json'))) fail('owner.json left behind');
cleanup();
console.log(`owner smoke (${runtime}): ok (watched natively, a save reached the map, REST answered, SIGTERM clean)`);
process.exit(0);
