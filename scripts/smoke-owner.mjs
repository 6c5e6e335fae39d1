// Maintainer script (CI): the owner and its live watcher on one runtime, end to end.
//   node scripts/smoke-owner.mjs [runtime]      e.g. node_modules/.bin/bun
// A temporary home and git repository; `init` and `daemon start` through the CLI; `serve --port
// 0` under the runtime; waits (on its log lines, no clock) until the armed brain is watched,
// saves a file, waits for the watcher's tick, finds the new symbol through REST with the
// token, removes the brain through the owner (`gardener brains --remove`), then SIGTERM: the
// owner must exit 0 and leave no owner.json behind. Exits non-zero,
// saying why, on any failure; bounded by SMOKE_TIMEOUT_MS.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { followLog, makeScratchRepo, scratchHome } from './scratch-owner.mjs';

const SMOKE_TIMEOUT_MS = 90_000;
const runtime = process.argv[2] ?? process.execPath;
const cli = fileURLToPath(new URL('../dist/src/cli/main.js', import.meta.url));
const { dir, home, repo, env } = scratchHome('gardener-smoke-', 'debug');
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

makeScratchRepo(repo, env, { 'a.ts': 'export function alpha(): number {\n  return 1;\n}\n' }, 'smoke');
const run = (...args) => execFileSync(runtime, [cli, ...args], { env, encoding: 'utf8' });
run('init', repo, '--json');
run('daemon', 'start', repo, '--json');
const brain = JSON.parse(run('status', repo, '--json')).brain;

owner = spawn(runtime, [cli, 'serve', '--port', '0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
const { logs, logLine } = followLog(owner);
const exited = new Promise((r) => owner.once('exit', (code, signal) => r({ code, signal })));
exited.then(({ code, signal }) => {
  if (!stopping) fail(`the owner exited early (code ${code}, signal ${signal}): ${logs.map((l) => l.msg).join(', ')}`);
});
let stopping = false;

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

// The watched brain removed through the running owner: it stops watching it, closes it, drops it.
const removal = JSON.parse(run('brains', '--remove', repo, '--json'));
if (removal.removed?.[0] !== brain || removal.by_owner_pid !== owner.pid) fail(`brains --remove through the owner: ${JSON.stringify(removal)}`);
await logLine((l) => l.msg === 'brain removed' && l.brain === brain, before);
if (existsSync(join(home, 'brains', brain))) fail('the removed brain\'s folder is still there');

stopping = true;
owner.kill('SIGTERM');
const { code, signal } = await exited;
if (code !== 0) fail(`SIGTERM: exit code ${code}, signal ${signal}`);
if (existsSync(join(home, 'run', 'owner.json'))) fail('owner.json left behind');
cleanup();
console.log(`owner smoke (${runtime}): ok (watched natively, a save reached the map, REST answered, the brain removed through the owner, SIGTERM clean)`);
process.exit(0);
