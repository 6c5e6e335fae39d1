/**
 * A real `gardener serve` in a throwaway home, for tests: started as a child process, ready
 * when its `ready` log line arrives on stderr (no clock), stopped with a signal.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { ensureToken } from '../../src/owner/token.js';
import { proveOwner } from '../../src/owner/verify-owner.js';
import { CLI } from './mcp-client.js';

export interface ServeProcess {
  proc: ChildProcess;
  pid: number;
  /** The `ready` line's fields: pid, socket, url, home. */
  ready: { pid: number; socket: string; url: string | null; home: string };
  /** Every JSON log line so far. */
  logs(): Record<string, unknown>[];
  stderr(): string;
  /** Resolves with the exit code (or signal) once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then wait for the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The environment for a test owner and its clients: this home, no runtime dir of the user's. */
export function ownerEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  // A live owner answers a dial in a few ms, but not always within the 100 ms default on a
  // loaded 2-core machine, and then the proxy (rightly) serves in-process: tests that check where
  // a session lives must not depend on the machine's load, so they dial with a generous bound.
  const env: NodeJS.ProcessEnv = { ...process.env, GARDENER_HOME: home, GARDENER_LOG: 'debug', GARDENER_PROXY_DIAL_MS: '10000' };
  delete env.XDG_RUNTIME_DIR;
  delete env.GARDENER_NO_OWNER;
  return { ...env, ...extra };
}

/** Owners still running when the test process exits (a test that timed out) are ended too. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of live) p.kill('SIGKILL');
});

/** Runs `gardener serve --port 0 ...args` and resolves at its ready line (rejects if it exits first). */
export async function startServe(home: string, args: string[] = [], extraEnv: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const proc = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { env: ownerEnv(home, extraEnv), stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(proc);
  let stderr = '';
  const logs: Record<string, unknown>[] = [];
  const exited = once(proc, 'exit').then(([code, signal]) => {
    live.delete(proc);
    return { code: code as number | null, signal: signal as NodeJS.Signals | null };
  });
  const ready = await new Promise<ServeProcess['ready']>((resolve, reject) => {
    let partial = '';
    proc.stderr!.on('data', (d: Buffer) => {
      stderr += d;
      partial += d;
      let nl;
      while ((nl = partial.indexOf('\n')) !== -1) {
        const line = partial.slice(0, nl);
        partial = partial.slice(nl + 1);
        try {
          const entry = JSON.parse(line) as Record<string, unknown>;
          logs.push(entry);
          if (entry.msg === 'ready') resolve(entry as unknown as ServeProcess['ready']);
        } catch {
          // not a log line
        }
      }
    });
    void exited.then(({ code, signal }) => reject(new Error(`serve exited before ready (code ${code}, signal ${signal}): ${stderr}`)));
  });
  return {
    proc,
    pid: proc.pid!,
    ready,
    logs: () => logs,
    stderr: () => stderr,
    exited,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      return exited;
    },
  };
}

/** Resolves at the first log line (from now on, or already written) that matches. */
export function logLine(serve: ServeProcess, match: (entry: Record<string, unknown>) => boolean, from = 0): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const check = () => {
      const hit = serve.logs().slice(from).find(match);
      if (hit) {
        serve.proc.stderr!.off('data', onData);
        resolve(hit);
      }
    };
    const onData = () => setImmediate(check);
    serve.proc.stderr!.on('data', onData);
    check();
  });
}

/** Runs the CLI (this build's, or the script `cli` names) to completion; resolves with its exit code and output. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv, cli: string = CLI): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const proc = spawn(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stdout!.on('data', (d) => (stdout += d));
  proc.stderr!.on('data', (d) => (stderr += d));
  const [code] = await once(proc, 'exit');
  return { code: code as number | null, stdout, stderr };
}

/** Pids of the live children of `pid` (Linux /proc). */
export async function childrenOf(pid: number): Promise<number[]> {
  const { readdir, readFile } = await import('node:fs/promises');
  const out: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** What a stand-in owner does with the challenge: prove it with this token, prove it wrong, or say nothing of a proof. */
export type StandInProof = { token: string } | 'wrong' | 'none';

export interface StandIn {
  /** Every line any client sent it, in order (the challenge included). */
  lines: string[];
  /** Connections it accepted. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * A same-user stand-in for the owner on `path`: answers the challenge as `proof` says, then hands
 * each later line to `onLine` (the first is the client's hello). For tests of the proxy and of
 * the client's verification; the folder is made 0700 if missing.
 */
export async function listenStandIn(path: string, proof: StandInProof, onLine: (line: string, socket: Socket, index: number) => void = () => {}): Promise<StandIn> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const lines: string[] = [];
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((s) => {
    accepted++;
    sockets.add(s);
    s.on('error', () => {});
    s.on('close', () => sockets.delete(s));
    let buf = '';
    let index = -1;
    s.on('data', (d) => {
      buf += d;
      let nl;
      while ((nl = buf.indexOf('\n')) !== -1) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        lines.push(line);
        if (index++ === -1) {
          const { nonce, gardener } = JSON.parse(line) as { nonce: string; gardener: string };
          const answer: Record<string, unknown> = { gardener, pid: process.pid };
          if (proof === 'wrong') answer.proof = 'ab'.repeat(32);
          else if (proof !== 'none') answer.proof = proveOwner(proof.token, nonce, process.pid);
          s.write(JSON.stringify(answer) + '\n');
          continue;
        }
        onLine(line, s, index - 1);
      }
    });
  });
  server.listen(path);
  await once(server, 'listening');
  return {
    lines,
    connections: () => accepted,
    close: async () => {
      for (const s of sockets) s.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

/** The home's token, made if it has none (as `gardener token` does). */
export function homeToken(home: string): string {
  return ensureToken(join(home, 'token'));
}
