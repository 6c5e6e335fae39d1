/**
 * The owner part of the bench (inside the MCP part; `--no-mcp` skips it): a real
 * `gardener serve` on the bench's home, measured from outside as a host sees it.
 *
 *   - cold `initialize` of `gardener mcp` as a proxy to the running owner, beside the same
 *     command serving in-process (GARDENER_NO_OWNER=1), interleaved, medians;
 *   - REST `seek` over HTTP keep-alive on the bench's brain, idle: p50/p99 of the round trip;
 *   - RSS of one and of four sessions on the brain through the owner (owner + proxies), beside
 *     four in-process `gardener mcp` sessions; the same sums in PSS, which count the pages the
 *     processes share (the runtime's binary, about 36 MB of each proxy's 46 MB RSS) once;
 *   - the owner idle afterwards: its CPU over the first minute after its sessions ended, and
 *     its RSS at the end of that minute. The skeleton reconcile the bench's own bursts left due
 *     (a quiet window after their last drain, persisted in the store) is run before the owner
 *     starts, unmeasured: it is theirs, and an owner opening the brain inside that window would
 *     otherwise run it in its "idle" minute (180 ms of CPU measured there).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { drawQueries, percentile } from './seek-latency.js';
import type { BenchContext } from './tick-burst.js';
import { cpuSeconds, pssMb, rssMb } from './proc-stats.js';
import { msFromEnv } from '../src/timers.js';
import { Reconciler } from '../src/skeleton/index.js';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
/** Interleaved cold starts per side. */
export const OWNER_INITIALIZE_RUNS = 7;
/** REST seeks timed (after REST_WARMUP unmeasured ones). */
export const REST_SEEK_CALLS = 200;
const REST_WARMUP = 20;
/**
 * How long the idle owner's CPU is watched, in ms: the whole first minute after its sessions
 * ended. A few seconds after the last session V8's memory reducer runs one round of full
 * collections on each thread (80–90 ms of CPU measured on an owner with one brain, and 4 MB
 * of RSS given back); the 5 s window this was multiplied that one-off by 12, while the owner
 * then used no CPU at all (0 ms in each of the next eleven 5 s windows).
 */
export const IDLE_WINDOW_MS = 60_000;
/** The idle window as run: GARDENER_BENCH_OWNER_IDLE_MS shortens it (the bench's own test uses 1 s). */
const idleWindowMs = (log: (line: string) => void): number => msFromEnv('GARDENER_BENCH_OWNER_IDLE_MS', IDLE_WINDOW_MS, 1, log);

export interface OwnerResult {
  proxyInitializeMs: number;
  inProcessInitializeMs: number;
  restSeek: { p50: number; p99: number; max: number; calls: number };
  oneSessionRssMb: number;
  fourSessionsRssMb: number;
  /** The owner process alone, with one and with four sessions. */
  ownerOneSessionRssMb: number;
  ownerFourSessionsRssMb: number;
  fourInProcessRssMb: number;
  /** The same three sums in PSS: a page the processes share (the runtime's binary) counted once. */
  oneSessionPssMb: number;
  fourSessionsPssMb: number;
  fourInProcessPssMb: number;
  idleOwnerRssMb: number;
  idleCpuSPerMin: number;
}



interface McpProc {
  proc: ChildProcess;
  send(msg: unknown): void;
  next(): Promise<any>;
  close(): Promise<void>;
}

function startMcp(root: string, env: NodeJS.ProcessEnv): McpProc {
  const proc = spawn(process.execPath, [CLI, 'mcp', '--root', root], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  let buf = '';
  const lines: string[] = [];
  let wake: (() => void) | undefined;
  proc.stdout!.on('data', (d) => {
    buf += d;
    let nl;
    while ((nl = buf.indexOf('\n')) !== -1) {
      lines.push(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
    }
    wake?.();
  });
  return {
    proc,
    send: (msg) => proc.stdin!.write(JSON.stringify(msg) + '\n'),
    async next() {
      while (lines.length === 0) await new Promise<void>((r) => (wake = r));
      return JSON.parse(lines.shift()!);
    },
    async close() {
      proc.stdin!.end();
      if (proc.exitCode === null) await new Promise((r) => proc.once('exit', r));
    },
  };
}

const INIT = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } } };

/** An MCP session that has answered one seek (so its brain is open wherever it is served). */
async function openSession(root: string, env: NodeJS.ProcessEnv): Promise<McpProc> {
  const s = startMcp(root, env);
  s.send(INIT);
  await s.next();
  s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  s.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'seek', arguments: { query: 'function' } } });
  await s.next();
  return s;
}

async function coldInitializeMs(root: string, env: NodeJS.ProcessEnv): Promise<number> {
  const t0 = performance.now();
  const s = startMcp(root, env);
  s.send(INIT);
  await s.next();
  const ms = performance.now() - t0;
  await s.close();
  return ms;
}

export async function measureOwner(ctx: BenchContext, home: string): Promise<OwnerResult> {
  const reconciler = new Reconciler(ctx.brain.id, ctx.brain.writer, { log: ctx.log });
  await reconciler.reconcileNow();
  await reconciler.close();
  const env: NodeJS.ProcessEnv = { ...process.env, GARDENER_HOME: home, GARDENER_LOG: 'warn' };
  delete env.XDG_RUNTIME_DIR;
  delete env.GARDENER_NO_OWNER;
  const inProcessEnv = { ...env, GARDENER_NO_OWNER: '1' };
  const owner = spawn(process.execPath, [CLI, 'serve', '--port', '0'], { env: { ...env, GARDENER_LOG: 'info' }, stdio: ['ignore', 'ignore', 'pipe'] });
  const sessions: McpProc[] = [];
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let err = '';
      owner.stderr!.on('data', (d) => {
        err += d;
        const m = /"msg":"ready".*?"url":"([^"]+)"/.exec(err);
        if (m) resolve(m[1]!);
      });
      owner.once('exit', (code) => reject(new Error(`gardener serve exited (${code}): ${err}`)));
    });
    const token = readFileSync(join(home, 'token'), 'utf8').trim();
    const root = ctx.repo.dir;

    const proxy: number[] = [];
    const local: number[] = [];
    for (let i = 0; i < OWNER_INITIALIZE_RUNS; i++) {
      proxy.push(await coldInitializeMs(root, env));
      local.push(await coldInitializeMs(root, inProcessEnv));
    }

    const queries = drawQueries(ctx.repo, REST_SEEK_CALLS + REST_WARMUP);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-gardener-folder': root };
    const times: number[] = [];
    for (const [i, query] of queries.entries()) {
      const t0 = performance.now();
      const r = await fetch(`${url}/api/tools/seek`, { method: 'POST', headers, body: JSON.stringify({ query }) });
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`bench: REST seek answered ${r.status}`);
      if (i >= REST_WARMUP) times.push(performance.now() - t0);
    }

    sessions.push(await openSession(root, env));
    const ownerOneSessionRssMb = rssMb(owner.pid!);
    const oneSessionRssMb = ownerOneSessionRssMb + rssMb(sessions[0]!.proc.pid!);
    const oneSessionPssMb = pssMb(owner.pid!) + pssMb(sessions[0]!.proc.pid!);
    for (let i = 0; i < 3; i++) sessions.push(await openSession(root, env));
    const ownerFourSessionsRssMb = rssMb(owner.pid!);
    const fourSessionsRssMb = ownerFourSessionsRssMb + sessions.reduce((sum, s) => sum + rssMb(s.proc.pid!), 0);
    const fourSessionsPssMb = pssMb(owner.pid!) + sessions.reduce((sum, s) => sum + pssMb(s.proc.pid!), 0);
    const locals: McpProc[] = [];
    for (let i = 0; i < 4; i++) locals.push(await openSession(root, inProcessEnv));
    const fourInProcessRssMb = locals.reduce((sum, s) => sum + rssMb(s.proc.pid!), 0);
    const fourInProcessPssMb = locals.reduce((sum, s) => sum + pssMb(s.proc.pid!), 0);
    await Promise.all([...locals, ...sessions.splice(0)].map((s) => s.close()));

    const windowMs = idleWindowMs(ctx.log);
    const c0 = cpuSeconds(owner.pid!);
    await new Promise((r) => setTimeout(r, windowMs));
    const idleCpuSPerMin = (cpuSeconds(owner.pid!) - c0) * (60_000 / windowMs);
    const med = (a: number[]) => percentile(a, 50);
    const result: OwnerResult = {
      proxyInitializeMs: med(proxy),
      inProcessInitializeMs: med(local),
      restSeek: { p50: percentile(times, 50), p99: percentile(times, 99), max: Math.max(...times), calls: times.length },
      oneSessionRssMb,
      fourSessionsRssMb,
      fourInProcessRssMb,
      oneSessionPssMb,
      fourSessionsPssMb,
      fourInProcessPssMb,
      ownerOneSessionRssMb,
      ownerFourSessionsRssMb,
      idleOwnerRssMb: rssMb(owner.pid!),
      idleCpuSPerMin,
    };
    ctx.log(`owner: proxy initialize ${result.proxyInitializeMs.toFixed(0)} ms vs in-process ${result.inProcessInitializeMs.toFixed(0)} ms; REST seek p50 ${result.restSeek.p50.toFixed(2)} ms p99 ${result.restSeek.p99.toFixed(2)} ms`);
    return result;
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
    if (owner.exitCode === null) {
      owner.kill('SIGTERM');
      await new Promise((r) => owner.once('exit', r));
    }
  }
}
