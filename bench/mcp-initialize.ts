/**
 * Cold `initialize` of `gardener mcp`, beside a minimal SDK stdio server measured in the same
 * run, and again with a fake `git` first on PATH that parks (DESIGN.md §7: the first frame
 * never waits).
 *
 * How a sample is taken: a hand-timed spawn. The clock starts just before `spawn`, the
 * `initialize` request is written to the child's stdin at once (the pipe holds it until the
 * server reads), and the clock stops at the first newline on its stdout. The SDK's `Client`
 * over `StdioClientTransport` was the other choice; it adds the client's own work (cross-spawn,
 * zod parsing of the result) to both sides, which is constant noise that pulls the ratio
 * towards 1. Both servers are started with the bench's own runtime (`process.execPath`), so a
 * Bun run compares Bun to Bun.
 *
 * Samples are interleaved: each round starts the baseline, gardener and gardener-with-parked-git
 * once, in an order that rotates every round, so drift on a busy 2-core machine hits all three
 * alike. One unmeasured round goes first (disk cache, the runtime's own first start). Every
 * child is awaited to its exit before the next starts.
 *
 * The parked run then sends `notifications/initialized` (the folder probe starts there, by
 * design), waits until the probe's git is launched and parked, and closes stdin: the server
 * must shut down and take its parked git with it. Any fake git still alive after its server is
 * released and killed here, and counted.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeBaselineServer } from './fixtures/baseline-mcp-server.js';
import { makeParkedGit, type ParkedGit } from './fixtures/parked-git.js';
import { median } from './tick-burst.js';

/** Samples per server, medians reported: a multiple of the three rotations, each order seen alike. */
export const INITIALIZE_RUNS = 9;
/** A bound on one `initialize`, in ms: past it the server is killed and the sample is a failure, not a number. */
const INITIALIZE_BOUND_MS = 15_000;
/** A bound on a server's exit after its stdin is closed, in ms: past it, SIGKILL. */
const EXIT_BOUND_MS = 10_000;
/** Stderr kept for an error message, in characters. */
const STDERR_KEEP_CHARS = 4_096;
/** A protocol version every 1.x SDK server accepts. */
const PROTOCOL_VERSION = '2025-06-18';

const INITIALIZE_LINE =
  JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'gardener-bench', version: '0.0.0' } },
  }) + '\n';
const INITIALIZED_LINE = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

export interface InitializeResult {
  /** How a sample was taken, for the report. */
  method: string;
  runs: number;
  /** Per-run wall times from spawn to the `initialize` result, in ms, in run order. */
  samples: { baseline: number[]; gardener: number[]; parkedGit: number[] };
  baselineMs: number;
  gardenerMs: number;
  parkedGitMs: number;
  /** Parked gits launched in the measured runs (one per parked run: the probe asks git about the folder). */
  parkedGitLaunches: number;
  /** Parked gits that were still alive after their server had exited (killed here). */
  parkedGitLeftBehind: number;
}

interface Sample {
  ms: number;
  child: ChildProcessWithoutNullStreams;
  stderr: () => string;
}

type Kind = 'baseline' | 'gardener' | 'parkedGit';
const ROTATIONS: readonly (readonly Kind[])[] = [
  ['baseline', 'gardener', 'parkedGit'],
  ['gardener', 'parkedGit', 'baseline'],
  ['parkedGit', 'baseline', 'gardener'],
];

function exited(child: ChildProcessWithoutNullStreams): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Closes the server's stdin and waits for it to exit; SIGKILL past EXIT_BOUND_MS. Returns false if it had to be killed. */
async function stop(child: ChildProcessWithoutNullStreams): Promise<boolean> {
  child.stdin.end();
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), EXIT_BOUND_MS)));
  const ok = await Promise.race([exited(child).then(() => true), bound]);
  clearTimeout(timer);
  if (!ok) {
    child.kill('SIGKILL');
    await exited(child);
  }
  return ok;
}

/** Spawns `args` on this runtime and times spawn → the first line of stdout (the `initialize` result). */
async function timeInitialize(what: string, args: string[], env: NodeJS.ProcessEnv): Promise<Sample> {
  let stderr = '';
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.on('error', () => {}); // a server that died early: its exit is reported below
  child.stdin.write(INITIALIZE_LINE);
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-STDERR_KEEP_CHARS)));
  const failure = (why: string) => new Error(`bench: ${what} ${why}${stderr.trim() ? `; its stderr:\n${stderr.trim()}` : ''}`);

  let timer: NodeJS.Timeout | undefined;
  let line: string;
  let ms: number;
  try {
    [line, ms] = await new Promise<[string, number]>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        const nl = out.indexOf('\n');
        if (nl >= 0) resolve([out.slice(0, nl), performance.now() - t0]);
      });
      child.once('error', (err) => reject(failure(`could not be started: ${err.message}`)));
      child.once('exit', (code, signal) => reject(failure(`exited (${signal ?? code}) before answering initialize`)));
      timer = setTimeout(() => reject(failure(`did not answer initialize within ${INITIALIZE_BOUND_MS} ms`)), INITIALIZE_BOUND_MS);
    });
  } catch (err) {
    child.kill('SIGKILL');
    await exited(child);
    throw err;
  } finally {
    clearTimeout(timer);
  }
  let reply: { id?: unknown; result?: { serverInfo?: unknown }; error?: unknown };
  try {
    reply = JSON.parse(line);
  } catch {
    reply = {};
  }
  if (reply.id !== 0 || !reply.result?.serverInfo) {
    await stop(child);
    throw failure(`answered initialize with ${JSON.stringify(line.slice(0, 300))}`);
  }
  return { ms, child, stderr: () => stderr };
}

export async function measureInitialize(options: { dir: string; repoDir: string; home: string; log: (line: string) => void }): Promise<InitializeResult> {
  const { dir, repoDir, home, log } = options;
  mkdirSync(dir, { recursive: true });
  const baselineScript = writeBaselineServer(dir);
  const fake: ParkedGit = makeParkedGit(join(dir, 'parked-git'));
  const env: NodeJS.ProcessEnv = { ...process.env, GARDENER_HOME: home };
  const parkedEnv: NodeJS.ProcessEnv = { ...env, ...fake.env };
  const gardenerArgs = [CLI, 'mcp', '--root', repoDir];
  let leftBehind = 0;

  const runOnce = async (kind: Kind): Promise<number> => {
    if (kind === 'baseline') {
      const s = await timeInitialize('the baseline SDK server', [baselineScript], env);
      if (!(await stop(s.child))) throw new Error('bench: the baseline SDK server did not exit on stdin EOF');
      return s.ms;
    }
    if (kind === 'gardener') {
      const s = await timeInitialize('gardener mcp', gardenerArgs, env);
      if (!(await stop(s.child))) throw new Error(`bench: gardener mcp did not exit within ${EXIT_BOUND_MS} ms of stdin EOF`);
      return s.ms;
    }
    const known = fake.pids().length;
    const s = await timeInitialize('gardener mcp (parked git)', gardenerArgs, parkedEnv);
    try {
      if (fake.pids().length > known) throw new Error('bench: gardener mcp launched git before it answered initialize');
      s.child.stdin.write(INITIALIZED_LINE);
      await fake.waitForLaunchBeyond(known);
    } finally {
      if (!(await stop(s.child))) {
        throw new Error(`bench: gardener mcp with a parked git did not exit within ${EXIT_BOUND_MS} ms of stdin EOF; its stderr:\n${s.stderr().trim()}`);
      }
    }
    return s.ms;
  };

  const samples: InitializeResult['samples'] = { baseline: [], gardener: [], parkedGit: [] };
  let launchesBefore = 0;
  try {
    for (const kind of ROTATIONS[0]!) await runOnce(kind); // unmeasured
    launchesBefore = fake.pids().length;
    for (let round = 0; round < INITIALIZE_RUNS; round++) {
      for (const kind of ROTATIONS[round % ROTATIONS.length]!) samples[kind].push(await runOnce(kind));
    }
  } finally {
    leftBehind = await fake.reapLeftovers();
  }
  if (leftBehind > 0) log(`WARNING: ${leftBehind} parked git process(es) outlived their gardener mcp server (killed by the bench)`);
  const result: InitializeResult = {
    method: 'hand-timed spawn: initialize written to stdin at spawn, clock stopped at the first stdout line',
    runs: INITIALIZE_RUNS,
    samples,
    baselineMs: median(samples.baseline),
    gardenerMs: median(samples.gardener),
    parkedGitMs: median(samples.parkedGit),
    parkedGitLaunches: fake.pids().length - launchesBefore,
    parkedGitLeftBehind: leftBehind,
  };
  log(
    `initialize (medians of ${INITIALIZE_RUNS}, interleaved): gardener mcp ${result.gardenerMs.toFixed(1)} ms, ` +
      `with a parked git ${result.parkedGitMs.toFixed(1)} ms, minimal SDK server ${result.baselineMs.toFixed(1)} ms ` +
      `(${(result.gardenerMs / result.baselineMs).toFixed(2)}×, ${(result.parkedGitMs / result.baselineMs).toFixed(2)}×)`,
  );
  return result;
}
