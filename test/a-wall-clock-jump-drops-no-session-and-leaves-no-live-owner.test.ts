/**
 * Bounds on time run on the clock the timers run on, not on the wall clock. An owner lives for
 * weeks on a laptop: the wall clock jumps ahead by the length of every sleep (the timers and
 * the monotonic clock do not count it) and an NTP step can move it back. Measured on the wall
 * clock, a sleep with a call waiting made the proxy leave a live owner, a lunch break with the
 * lid closed ended every HTTP session, and a step back held a burst past its cap.
 *
 * Each test moves `Date.now` (the wall clock, as a suspend or a step does) while real timers run,
 * and waits on state: what the component did first.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { realTimers } from '../src/timers.js';
import { OwnerLiveness } from '../src/transports/proxy/owner-liveness.js';
import { HttpSessions } from '../src/transports/http/session-bounds.js';
import { BurstWindow } from '../src/watch/burst-window.js';
import { dialOwner } from '../src/owner/dial-owner.js';
import { proveOwner } from '../src/owner/verify-owner.js';
import { VERSION } from '../src/version.js';
import { makeTempDir } from './helpers/git-repo.js';
import { homeToken } from './helpers/owner.js';

const HOUR = 3_600_000;

/**
 * The wall clock from now on, moved by `jump(ms)` (negative: back) as a suspend or a step moves
 * it; put back when the test ends. Installed before the component is made, so a component that
 * took `Date.now` itself reads the moved clock too.
 */
function wallClock(t: TestContext): { jump(ms: number): void } {
  const before = Date.now;
  let offset = 0;
  Date.now = () => before() + offset;
  t.after(() => {
    Date.now = before;
  });
  return { jump: (ms) => void (offset += ms) };
}

/**
 * A promise and its resolve. The process is kept up until it settles: the components' real
 * timers are unref'd (in a proxy or an owner, their sockets keep the process up).
 */
function resolvers<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const keepUp = setInterval(() => {}, 60_000);
  const promise = new Promise<T>((r) => (resolve = r)).finally(() => clearInterval(keepUp));
  return { promise, resolve };
}

test('the timers\' clock does not follow the wall clock, ahead or back', (t) => {
  const wall = wallClock(t);
  const at = realTimers.now();
  wall.jump(HOUR);
  assert.ok(realTimers.now() - at < 60_000, `an hour's jump ahead moved the clock by ${realTimers.now() - at} ms`);
  wall.jump(-3 * HOUR);
  assert.ok(realTimers.now() >= at, 'a step back moved the clock back');
});

test('a sleep with a call waiting does not make the proxy leave a live owner: it pings it', async (t) => {
  const wall = wallClock(t);
  const first = resolvers<string>();
  // Its first look comes at a quarter of the bound (500 ms): a loaded machine may run that timer
  // late, but not by the 1.5 s that would make a live owner look silent on the real clock.
  const liveness = new OwnerLiveness({
    livenessMs: 2_000,
    sendToOwner: (line) => first.resolve(`pinged ${(JSON.parse(line) as { method: string }).method}`),
    onStalled: (silentMs) => first.resolve(`left the owner after ${silentMs} ms of silence`),
  });
  t.after(() => liveness.stop());
  liveness.setWaiting(true);
  wall.jump(HOUR);
  assert.equal(await first.promise, 'pinged ping');
});

test('a used HTTP session outlives a sleep longer than its idle bound, and still ends when idle', async (t) => {
  const wall = wallClock(t);
  const sessions = new HttpSessions({ idleMs: 30 });
  t.after(() => sessions.close());
  const ended: string[] = [];
  const hold = (key: string, usedAt: number) =>
    sessions.take().hold('mcp', key, { openedAt: usedAt, lastUsedAt: usedAt, used: true, end: async () => void ended.push(key) });
  hold('a host window', sessions.now());
  hold('a window closed before the sleep', sessions.now() - 31);
  wall.jump(2 * HOUR);
  await sessions.reap();
  assert.deepEqual(ended, ['a window closed before the sleep'], 'the sleep is not idle time; idle time still ends a session');
  assert.equal(sessions.size('mcp'), 1);
});

test('a burst under continuous churn still ends at its cap after the wall clock steps back', async (t) => {
  const wall = wallClock(t);
  const fired = resolvers<number>();
  let hints = 0;
  const window = new BurstWindow(() => fired.resolve(hints), { windowMs: 10, capMs: 40 });
  t.after(() => window.close());
  window.hint();
  wall.jump(-HOUR);
  // An event every millisecond, for at most 4 s: far past the 40 ms cap.
  let timer: NodeJS.Timeout | undefined;
  const churn = () => {
    if (++hints > 4_000) return fired.resolve(-1);
    window.hint();
    timer = setTimeout(churn, 1);
  };
  churn();
  t.after(() => clearTimeout(timer));
  const at = await fired.promise;
  assert.notEqual(at, -1, 'the burst never ended while events kept coming');
});

test('dialing a live owner across a jump ahead of the wall clock still reaches it', async (t) => {
  const home = await makeTempDir('gardener-clock-home-');
  t.after(() => home.cleanup());
  const token = homeToken(home.dir);
  const wall = wallClock(t);
  const path = join(home.dir, 'run', 'owner.sock');
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const sockets = new Set<Socket>();
  // An owner that proves itself and answers the hello; the wall clock jumps while it does.
  const server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => {});
    let buf = '';
    let lines = 0;
    s.on('data', (d) => {
      buf += d;
      for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
        const line = JSON.parse(buf.slice(0, nl)) as { nonce?: string };
        buf = buf.slice(nl + 1);
        if (lines++ === 0) {
          wall.jump(HOUR);
          s.write(JSON.stringify({ gardener: VERSION, pid: process.pid, proof: proveOwner(token, line.nonce!, process.pid) }) + '\n');
        } else s.write(JSON.stringify({ gardener: VERSION, pid: process.pid }) + '\n');
      }
    });
  });
  server.listen(path);
  await once(server, 'listening');
  t.after(async () => {
    for (const s of sockets) s.destroy();
    server.close();
    await once(server, 'close');
  });
  const d = await dialOwner(path, { gardener: VERSION, op: 'status', pid: process.pid }, { token, timeoutMs: 5_000 });
  d.socket?.destroy();
  assert.equal(d.socket ? 'dialed' : d.why, 'dialed');
});
