/**
 * `gardener mcp` served in-process lives as long as its host's window, and an install of another
 * Gardener replaces the files it started from: every thread it starts afterwards would load the
 * new code beside its old main thread. Once another version has settled on disk it hands the
 * session over to that version, started on the same command line: the host keeps one session
 * that goes on answering, the calls the old server took are answered there, and the old server
 * then closes. A new process that cannot take the session leaves the old one serving.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { cpSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { ManualClock } from './helpers/manual-clock.js';
import { connectGardener } from './helpers/mcp-client.js';
import { ownerEnv, runCli, startServe } from './helpers/owner.js';
import { HANDOVER_ID_PREFIX, startMovableSession, type OtherServer } from '../src/transports/stdio/handover.js';

/** Lines written to a stream, parsed, with a wait for the next one that matches. */
class Lines {
  readonly all: Record<string, any>[] = [];
  #events = new EventEmitter();
  #buffer = '';
  constructor(stream: Readable) {
    stream.on('data', (chunk: Buffer) => {
      this.#buffer += chunk.toString('utf8');
      let nl: number;
      while ((nl = this.#buffer.indexOf('\n')) >= 0) {
        const text = this.#buffer.slice(0, nl);
        this.#buffer = this.#buffer.slice(nl + 1);
        this.all.push(JSON.parse(text));
        this.#events.emit('line');
      }
    });
  }
  /** Resolves with the first line (seen or to come) that `pred` accepts. */
  until(pred: (m: Record<string, any>) => boolean): Promise<Record<string, any>> {
    const found = this.all.find(pred);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => {
      const look = () => {
        const hit = this.all.find(pred);
        if (!hit) return;
        this.#events.off('line', look);
        resolve(hit);
      };
      this.#events.on('line', look);
    });
  }
  has(pred: (m: Record<string, any>) => boolean): boolean {
    return this.all.some(pred);
  }
}

const send = (stream: PassThrough | Writable, message: Record<string, unknown>) => stream.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');

/** A server in place of the in-process one: what it was sent, and answers the test writes. */
function fakeServer() {
  let input!: Readable;
  let output!: Writable;
  let closed!: () => void;
  let received!: Lines;
  const server = {
    closed: new Promise<void>((r) => (closed = r)),
    ended: false,
    serve: async (stdin: Readable, stdout: Writable) => {
      input = stdin;
      output = stdout;
      received = new Lines(stdin);
      input.on('end', () => {
        server.ended = true;
        closed();
      });
      return { closed: server.closed, close: async () => closed() };
    },
    get received() {
      return received;
    },
    answer: (message: Record<string, unknown>) => send(output, message),
  };
  return server;
}

/** A server in place of the new version's process (or an owner): what it was sent, and lines the test writes. */
export function fakeOther(kind: OtherServer['kind'] = 'new-version'): OtherServer & { received: Lines; out: PassThrough; dropped: number; exit(): void; ended: Promise<void> } {
  const stdin = new PassThrough();
  const out = new PassThrough();
  let gone!: () => void;
  const received = new Lines(stdin);
  const ended = new Promise<void>((r) => stdin.on('end', r));
  const other = {
    kind,
    name: kind === 'owner' ? 'the owner (pid 4242)' : 'Gardener 2.0.0 (pid 4242)',
    received,
    out,
    dropped: 0,
    ended,
    gone: new Promise<void>((r) => (gone = r)),
    write: (bytes: Buffer) => void stdin.write(bytes),
    onData: (fn: (chunk: Buffer) => void) => void out.on('data', fn),
    end: () => void stdin.end(),
    drop: () => {
      other.dropped++;
      gone();
    },
    exit: () => gone(),
  };
  return other;
}

/**
 * A movable session on fakes: in-process servers (`locals`, one per start; `nthLocal(n)` waits for
 * the n-th), new versions (`children`, started by `upgrade`), and an owner when `findOwner` is given.
 */
function harness(options: { answerMs?: number; livenessMs?: number; timers?: ManualClock; findOwner?: () => Promise<OtherServer | null>; newVersion?: () => ReturnType<typeof fakeOther> } = {}) {
  const host = { in: new PassThrough(), out: new PassThrough() };
  const heard = new Lines(host.out);
  const locals: ReturnType<typeof fakeServer>[] = [];
  const started = new EventEmitter();
  const children: ReturnType<typeof fakeOther>[] = [];
  let upgrade!: (version: string) => void;
  let watching = true;
  const log: string[] = [];
  const session = startMovableSession({
    stdin: host.in,
    stdout: host.out,
    serveInProcess: (stdin, stdout) => {
      const s = fakeServer();
      locals.push(s);
      started.emit('local');
      return s.serve(stdin, stdout);
    },
    startNewVersion: () => {
      const c = options.newVersion?.() ?? fakeOther();
      children.push(c);
      return c;
    },
    watchUpgrade: (onUpgrade) => {
      upgrade = onUpgrade;
      return () => (watching = false);
    },
    findOwner: options.findOwner,
    log: (l) => log.push(l),
    processHooks: false,
    answerMs: options.answerMs,
    livenessMs: options.livenessMs,
    timers: options.timers,
  });
  const nthLocal = (n: number) =>
    new Promise<ReturnType<typeof fakeServer>>((resolve) => {
      const look = () => {
        if (locals.length < n) return;
        started.off('local', look);
        resolve(locals[n - 1]!);
      };
      started.on('local', look);
      look();
    });
  return {
    host,
    heard,
    get local() {
      return locals[0]!;
    },
    locals,
    nthLocal,
    children,
    upgrade: (v: string) => upgrade(v),
    watching: () => watching,
    log,
    served: session.then((s) => s.closed),
  };
}

const INITIALIZE = { id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'host', version: '1' } } };

/** The host opens its session on the old server: initialize, initialized, a logging level. */
async function openSession(h: ReturnType<typeof harness>) {
  send(h.host.in, INITIALIZE);
  await h.local.received.until((m) => m.method === 'initialize');
  h.local.answer({ id: 1, result: { protocolVersion: '2025-06-18', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'gardener', version: '1.0.0' } } });
  await h.heard.until((m) => m.id === 1);
  send(h.host.in, { method: 'notifications/initialized' });
  send(h.host.in, { id: 2, method: 'logging/setLevel', params: { level: 'debug' } });
  await h.local.received.until((m) => m.id === 2);
  h.local.answer({ id: 2, result: {} });
  await h.heard.until((m) => m.id === 2);
}

test('the session moves to the new version: the host never sees its replay, old calls end where they began, the old server then closes', async () => {
  const h = harness();
  await openSession(h);
  send(h.host.in, { id: 3, method: 'tools/call', params: { name: 'seek', arguments: { query: 'slow' } } });
  await h.local.received.until((m) => m.id === 3);

  h.upgrade('2.0.0');
  const child = h.children[0]!;
  const init = await child.received.until((m) => m.method === 'initialize');
  assert.equal(init.id, `${HANDOVER_ID_PREFIX}initialize`, 'the replay has an id of its own');
  assert.deepEqual(init.params, INITIALIZE.params, "the host's own initialize, as it sent it");
  // While the new process starts, the host's next call waits for it.
  send(h.host.in, { id: 4, method: 'tools/call', params: { name: 'seek', arguments: { query: 'after' } } });
  send(child.out, { id: init.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, logging: {} }, serverInfo: { name: 'gardener', version: '2.0.0' } } });
  await child.received.until((m) => m.id === 4);
  const order = child.received.all.map((m) => m.method ?? m.id);
  assert.deepEqual(order, ['initialize', 'notifications/initialized', 'logging/setLevel', 'tools/call'], 'initialized and the level are replayed before the calls that waited');
  assert.equal(child.received.all[2]!.id, `${HANDOVER_ID_PREFIX}set-level`);
  send(child.out, { id: `${HANDOVER_ID_PREFIX}set-level`, result: {} });
  await h.heard.until((m) => m.method === 'notifications/prompts/list_changed');
  assert.ok(h.heard.has((m) => m.method === 'notifications/tools/list_changed'), 'the host is told to read its tools again');
  assert.ok(!h.local.received.has((m) => m.id === 4), 'the old server took no call after the handover');

  // A cancel for the call the old server took goes there; its answer reaches the host; then it closes.
  send(h.host.in, { method: 'notifications/cancelled', params: { requestId: 3 } });
  await h.local.received.until((m) => m.method === 'notifications/cancelled');
  assert.ok(!child.received.has((m) => m.method === 'notifications/cancelled'));
  assert.equal(h.local.ended, false, 'the old server stays while a call of its own is open');
  h.local.answer({ id: 3, result: { content: [{ type: 'text', text: '{"old":true}' }] } });
  await h.heard.until((m) => m.id === 3);
  await h.local.closed;

  send(child.out, { id: 4, result: { content: [{ type: 'text', text: '{"new":true}' }] } });
  const four = await h.heard.until((m) => m.id === 4);
  assert.equal(four.result.content[0].text, '{"new":true}');
  assert.ok(!h.heard.has((m) => typeof m.id === 'string' && m.id.startsWith(HANDOVER_ID_PREFIX)), 'no answer to a replay reaches the host');
  assert.equal(h.heard.all.filter((m) => m.result?.serverInfo).length, 1, 'one initialize answer, the first');

  // The host leaves: the new process's input ends, and once it exits the session is over.
  h.host.in.end();
  await child.ended;
  child.exit();
  assert.equal(await h.served, 0);
  assert.equal(h.watching(), false, 'the look for installs stopped');
});

test('a new version that exits before it answers, or refuses the session, leaves the old server serving what the host sent meanwhile', async () => {
  for (const failure of ['exit', 'refuse'] as const) {
    const h = harness();
    await openSession(h);
    h.upgrade('2.0.0');
    const child = h.children[0]!;
    const init = await child.received.until((m) => m.method === 'initialize');
    send(h.host.in, { id: 5, method: 'tools/list' });
    if (failure === 'exit') child.exit();
    else send(child.out, { id: init.id, error: { code: -32602, message: 'unsupported' } });
    await h.local.received.until((m) => m.id === 5);
    h.local.answer({ id: 5, result: { tools: [] } });
    await h.heard.until((m) => m.id === 5);
    assert.ok(h.log.some((l) => l.includes('in-process serves on')), h.log.join('\n'));
    if (failure === 'refuse') assert.equal(child.dropped, 1, 'a process that refused is stopped');
    assert.ok(!h.heard.has((m) => m.id === init.id), 'the refusal is not the host\'s');
    h.host.in.end();
    assert.equal(await h.served, 0);
    assert.equal(h.local.ended, true);
  }
});

test('a new version that does not answer within its bound is stopped and the old server serves on', async () => {
  const clock = new ManualClock();
  const h = harness({ answerMs: 30_000, timers: clock });
  await openSession(h);
  h.upgrade('2.0.0');
  const child = h.children[0]!;
  await child.received.until((m) => m.method === 'initialize');
  send(h.host.in, { id: 6, method: 'ping' });
  clock.advance(29_999);
  assert.equal(child.dropped, 0, 'not before its bound');
  clock.advance(1);
  await h.local.received.until((m) => m.id === 6);
  assert.equal(child.dropped, 1);
  assert.ok(h.log.some((l) => l.includes('did not answer') && l.includes('30000 ms')), h.log.join('\n'));
  h.host.in.end();
  assert.equal(await h.served, 0);
});

test('a new version that exits under a live host ends the session with code 1, not a hang', async () => {
  const h = harness();
  await openSession(h);
  h.upgrade('2.0.0');
  const child = h.children[0]!;
  const init = await child.received.until((m) => m.method === 'initialize');
  send(child.out, { id: init.id, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'gardener', version: '2.0.0' } } });
  await child.received.until((m) => m.method === 'logging/setLevel');
  child.exit();
  assert.equal(await h.served, 1);
  assert.equal(h.local.ended, true, 'the old server closed too');
});

test('a real in-process `gardener mcp` whose package is installed over goes on answering from the new version', { timeout: 90_000 }, async () => {
  // A copy of the built package, as an install lays it out: the server runs from it.
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const pkg = await makeTempDir('gardener-pkg-');
  const home = await makeTempDir('gardener-home-');
  const repo = await makeGitRepo({ 'src/a.ts': 'export function alpha() { return 1; }\n' });
  for (const dir of ['dist/src', 'dist/workers']) cpSync(join(root, dir), join(pkg.dir, dir), { recursive: true });
  cpSync(join(root, 'package.json'), join(pkg.dir, 'package.json'));
  symlinkSync(join(root, 'node_modules'), join(pkg.dir, 'node_modules'));
  mkdirSync(home.dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  const env = { ...process.env, GARDENER_HOME: home.dir, GARDENER_NO_OWNER: '1', GARDENER_UPGRADE_CHECK_MS: '100', GARDENER_LOG: 'warn' };
  const c = await connectGardener(repo.dir, env, join(pkg.dir, 'dist/src/cli/main.js'));
  try {
    assert.equal(c.client.getServerVersion()?.version, manifest.version);
    const before = await c.call('session_handshake');
    assert.equal(before.isError, false, JSON.stringify(before.value));
    const served = new Promise<void>((resolve) => {
      const look = () => {
        if (!/from here/.test(c.stderr())) return;
        c.transport.stderr!.off('data', look);
        resolve();
      };
      c.transport.stderr!.on('data', look);
    });
    const changedBefore = c.listChanged();
    writeFileSync(join(pkg.dir, 'package.json'), JSON.stringify({ ...manifest, version: `${String(manifest.version)}-next` }));
    await served;
    assert.match(c.stderr(), new RegExp(`Gardener ${String(manifest.version).replace(/\./g, '\\.')}-next was installed over this one: handing the session to Gardener`));
    assert.match(c.stderr(), /the session is served by Gardener [^ ]+-next \(pid \d+\) from here/);
    const after = await c.call('session_handshake');
    if (c.listChanged() === changedBefore) await c.nextListChanged(); // the host is told to read its tools again
    assert.equal(after.isError, false, JSON.stringify(after.value));
    assert.equal(after.value.server_version, `${String(manifest.version)}-next`, 'the new code answers');
    const pid = Number(/\(pid (\d+)\) from here/.exec(c.stderr())![1]);
    assert.notEqual(pid, c.pid, 'another process answers');
    process.kill(pid, 0); // it runs
  } finally {
    await c.close();
    await pkg.cleanup();
    await home.cleanup();
    await repo.cleanup();
  }
});

/**
 * The same move, to an owner: a session served in-process (its proxy fell back when the owner
 * stopped, or no owner ran when it began) goes to an owner of its home that answers later, so
 * one process serves the brain; if that owner goes away too, in-process serves again.
 */
test('an owner that answers later takes the session; when it goes, a new in-process server is told the session and the calls it left', async () => {
  const clock = new ManualClock();
  let owner: ReturnType<typeof fakeOther> | null = null;
  let looks = 0;
  const h = harness({
    timers: clock,
    findOwner: async () => {
      looks++;
      return owner;
    },
  });
  const { host, heard, locals, log } = h;
  await openSession(h);
  clock.advance(5_000);
  await Promise.resolve();
  assert.equal(looks, 1, 'looked once, nobody there');
  send(host.in, { id: 3, method: 'tools/call', params: { name: 'seek', arguments: { query: 'slow' } } });
  await locals[0]!.received.until((m) => m.id === 3);

  owner = fakeOther('owner');
  const o = owner;
  clock.advance(5_000);
  const init = await o.received.until((m) => m.method === 'initialize');
  send(o.out, { id: init.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'gardener', version: '1.0.0' } } });
  await heard.until((m) => m.method === 'notifications/tools/list_changed');
  send(host.in, { id: 4, method: 'tools/call', params: { name: 'seek', arguments: { query: 'on the owner' } } });
  await o.received.until((m) => m.id === 4);
  assert.ok(log.some((l) => l.includes('an owner of this home answers: handing the session to the owner (pid 4242)')), log.join('\n'));
  locals[0]!.answer({ id: 3, result: { content: [] } });
  await heard.until((m) => m.id === 3);
  await locals[0]!.closed;

  // The owner goes with call 4 unanswered: a new in-process server gets the session, then call 4.
  o.exit();
  await h.nthLocal(2);
  const replayed = await locals[1]!.received.until((m) => m.id === 4);
  const order = locals[1]!.received.all.map((m) => m.method);
  assert.deepEqual(order, ['initialize', 'notifications/initialized', 'logging/setLevel', 'tools/call']);
  assert.equal(locals[1]!.received.all[0]!.id, `${HANDOVER_ID_PREFIX}initialize`);
  assert.deepEqual(replayed.params, { name: 'seek', arguments: { query: 'on the owner' } });
  locals[1]!.answer({ id: `${HANDOVER_ID_PREFIX}initialize`, result: { capabilities: {} } });
  locals[1]!.answer({ id: 4, result: { content: [{ type: 'text', text: '{}' }] } });
  await heard.until((m) => m.id === 4);
  assert.ok(!heard.has((m) => typeof m.id === 'string' && m.id.startsWith(HANDOVER_ID_PREFIX)), 'no replay answer reaches the host');
  const looked = looks;
  owner = null;
  clock.advance(5_000);
  await Promise.resolve();
  assert.equal(looks, looked + 1, 'in-process again, it looks for an owner again');
  host.in.end();
  assert.equal(await h.served, 0);
});

test('an owner the session moved to that stalls with a call waiting is pinged, then left after the bound: in-process answers the call', async () => {
  const clock = new ManualClock();
  const owner = fakeOther('owner');
  let found = false;
  const h = harness({ timers: clock, livenessMs: 10_000, findOwner: async () => (found ? null : ((found = true), owner)) });
  const { host, heard, locals, log } = h;
  await openSession(h);
  clock.advance(5_000);
  const init = await owner.received.until((m) => m.method === 'initialize');
  send(owner.out, { id: init.id, result: { capabilities: {} } });
  await locals[0]!.closed;
  send(host.in, { id: 7, method: 'tools/call', params: { name: 'seek', arguments: { query: 'x' } } });
  await owner.received.until((m) => m.id === 7);
  clock.advance(2_500);
  const ping = await owner.received.until((m) => m.method === 'ping');
  assert.equal(owner.dropped, 0, 'a ping first, not a verdict');
  clock.advance(7_500);
  assert.equal(owner.dropped, 1, 'silent for the bound with a call waiting: left');
  await h.nthLocal(2);
  await locals[1]!.received.until((m) => m.id === 7);
  locals[1]!.answer({ id: 7, result: { content: [] } });
  await heard.until((m) => m.id === 7);
  assert.ok(!heard.has((m) => m.id === ping.id), 'the ping is never the host\'s');
  assert.ok(log.some((l) => l.includes('gave no sign of life for 10000 ms with calls waiting')), log.join('\n'));
  host.in.end();
  assert.equal(await h.served, 0);
});

test('an install seen while the session is on an owner is acted on once the session is back in-process', async () => {
  const clock = new ManualClock();
  const owner = fakeOther('owner');
  let offered = false;
  const next = fakeOther('new-version');
  const h = harness({ timers: clock, findOwner: async () => (offered ? null : ((offered = true), owner)), newVersion: () => next });
  const { host, locals } = h;
  await openSession(h);
  clock.advance(5_000);
  const init = await owner.received.until((m) => m.method === 'initialize');
  send(owner.out, { id: init.id, result: { capabilities: {} } });
  await locals[0]!.closed;
  h.upgrade('2.0.0');
  assert.equal(next.received.all.length, 0, 'on the owner, the session stays there');
  owner.exit();
  const nextInit = await next.received.until((m) => m.method === 'initialize');
  assert.equal(nextInit.id, `${HANDOVER_ID_PREFIX}initialize`);
  send(next.out, { id: nextInit.id, result: { capabilities: {} } });
  send(host.in, { id: 9, method: 'tools/list' });
  await next.received.until((m) => m.id === 9);
  host.in.end();
  await next.ended;
  next.exit();
  assert.equal(await h.served, 0);
});

test('a proxy whose owner stopped serves in-process, then moves to the owner started again: one process serves the brain', { timeout: 120_000 }, async () => {
  const repo = await makeGitRepo({ 'src/a.ts': 'export function alpha() { return 1; }\n' });
  const home = await makeTempDir('gardener-home-');
  let owner = await startServe(home.dir);
  const c = await connectGardener(repo.dir, ownerEnv(home.dir));
  try {
    assert.match(c.stderr(), /proxying to the owner/);
    assert.equal((await c.call('ingest')).isError, false);
    assert.equal((await owner.stop()).code, 0);
    const local = await c.call('seek', { query: 'alpha' });
    assert.equal(local.isError, false, JSON.stringify(local.value));
    assert.match(c.stderr(), /serving in-process from here/);
    const moved = new Promise<void>((resolve) => {
      const look = () => {
        if (!/the in-process server has closed its stores and threads/.test(c.stderr())) return;
        c.transport.stderr!.off('data', look);
        resolve();
      };
      c.transport.stderr!.on('data', look);
      look();
    });
    owner = await startServe(home.dir);
    await moved;
    assert.match(c.stderr(), new RegExp(`an owner of this home answers: handing the session to the owner \\(pid ${owner.pid}\\)`));
    const after = await c.call('session_handshake');
    assert.equal(after.isError, false, JSON.stringify(after.value));
    const status = await runCli(['serve', '--status', '--json'], ownerEnv(home.dir));
    assert.equal(JSON.parse(status.stdout).sessions.socket, 1, 'the session lives in the owner again');
    const open = readdirSync(`/proc/${c.pid}/fd`).map((fd) => { try { return readlinkSync(`/proc/${c.pid}/fd/${fd}`); } catch { return ''; } });
    assert.deepEqual(open.filter((f) => f.startsWith(home.dir)), [], 'the proxy holds no store of the home: only the owner does');
  } finally {
    await c.close();
    await owner.stop();
    await repo.cleanup();
    await home.cleanup();
  }
});
