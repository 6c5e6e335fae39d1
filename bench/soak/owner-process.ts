/**
 * The soak's `gardener serve`: a child process in the soak's home, ready at its `ready` log
 * line (no clock). Its log is read line by line and only what the soak judges is kept (ticks
 * per brain, warnings, alerts), so a 30-minute debug log does not grow the soak's own memory.
 * `status()` asks it over its socket (the `status` op every client uses, verified like any
 * dial): sessions, brains with their backlog, and each thread's heap.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dialOwnerOf } from '../../src/owner/dial-home.js';
import { VERSION } from '../../src/version.js';

export const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

export interface ThreadHeapJson {
  heap: number;
  used: number;
  external: number;
  /** The thread's page returns so far (src/page-return.ts); absent from an owner built before them. */
  returns?: PageReturnsJson | null;
}

export interface PageReturnsJson {
  count: number;
  ms: number;
}

export interface OwnerStatus {
  sessions: { socket: number; http: number; rest: number };
  brains: { id: string; roots: string[]; armed: boolean; backlog: number | null; watch_backend: string; ticking: boolean }[];
  watched: { id: string; watch_backend: string }[];
  heaps?: { main: ThreadHeapJson; pool: ThreadHeapJson | null; writers: Record<string, ThreadHeapJson>; threads_at: string | null };
}

export interface OwnerProcess {
  proc: ChildProcess;
  pid: number;
  url: string;
  token: string;
  /** Completed watcher ticks per brain, with when they were logged (ms, performance.now()). */
  ticks: Map<string, number[]>;
  /** Warn and error lines (message and brain), in order; at most MAX_KEPT_LINES. */
  warnings: { at: number; level: string; msg: string; brain?: string; error?: string }[];
  /** Bytes of log the owner wrote, by level (the soak runs it at debug; the default writes info and above). */
  logBytes: Record<string, number>;
  /** Resolves at the first `watching` line of each brain. */
  watching(brain: string): Promise<string>;
  status(): Promise<OwnerStatus>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const MAX_KEPT_LINES = 2000;

export async function startOwner(runtime: string, env: NodeJS.ProcessEnv): Promise<OwnerProcess> {
  const proc = spawn(runtime, [CLI, 'serve', '--port', '0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ticks = new Map<string, number[]>();
  const warnings: OwnerProcess['warnings'] = [];
  const watchingSeen = new Map<string, string>();
  const watchWaiters = new Map<string, ((backend: string) => void)[]>();
  let onReady: ((l: Record<string, unknown>) => void) | undefined;
  const logBytes: Record<string, number> = {};
  let tail = '';
  let partial = '';
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => {
    partial += d;
    tail = (tail + d).slice(-4000);
    let nl;
    while ((nl = partial.indexOf('\n')) !== -1) {
      const line = partial.slice(0, nl);
      partial = partial.slice(nl + 1);
      let l: Record<string, any>;
      try {
        l = JSON.parse(line);
      } catch {
        continue;
      }
      logBytes[String(l.level)] = (logBytes[String(l.level)] ?? 0) + Buffer.byteLength(line) + 1;
      if (l.msg === 'ready') onReady?.(l);
      else if (l.msg === 'watch tick') {
        const list = ticks.get(l.brain) ?? [];
        list.push(performance.now());
        if (list.length > 10_000) list.splice(0, 5_000);
        ticks.set(l.brain, list);
      } else if (l.msg === 'watching') {
        watchingSeen.set(l.brain, l.watch_backend);
        for (const w of watchWaiters.get(l.brain) ?? []) w(l.watch_backend);
        watchWaiters.delete(l.brain);
      }
      if ((l.level === 'warn' || l.level === 'error') && warnings.length < MAX_KEPT_LINES) {
        warnings.push({ at: performance.now(), level: l.level, msg: String(l.msg).slice(0, 300), brain: l.brain, error: l.error === undefined ? undefined : String(l.error).slice(0, 300) });
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => proc.once('exit', (code, signal) => r({ code, signal })));
  const ready = await Promise.race([
    new Promise<Record<string, unknown>>((r) => (onReady = r)),
    exited.then(({ code, signal }) => {
      throw new Error(`soak: gardener serve exited before ready (code ${code}, signal ${signal}): ${tail}`);
    }),
  ]);
  const home = env.GARDENER_HOME!;
  const { readFileSync } = await import('node:fs');
  const token = readFileSync(`${home}/token`, 'utf8').trim();
  return {
    proc,
    pid: proc.pid!,
    url: ready.url as string,
    token,
    ticks,
    warnings,
    logBytes,
    watching: (brain) =>
      watchingSeen.has(brain)
        ? Promise.resolve(watchingSeen.get(brain)!)
        : new Promise((r) => watchWaiters.set(brain, [...(watchWaiters.get(brain) ?? []), r])),
    async status() {
      const d = await dialOwnerOf(home, { gardener: VERSION, op: 'status', pid: process.pid }, 10_000);
      if (!d.socket) throw new Error(`soak: the owner did not answer its status: ${d.why}`);
      d.socket.destroy();
      return d.reply.status as unknown as OwnerStatus;
    },
    exited,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      return exited;
    },
  };
}
