/**
 * A WatchBackend whose native watcher lives in a child process (workers/watch-host.ts), so a
 * native crash costs a restart, not the owner. When the child dies, every live subscription is
 * told (an error to its callback): the BrainWatcher then says it is polling, runs a tick (a
 * full detection) and subscribes again, which respawns the child after a backoff that grows
 * with each crash in a row (HOST_RESTART_BACKOFF_MS, doubling up to HOST_RESTART_MAX_MS).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { EventsCallback, NativeRefusal, RootSubscription, WatchBackend } from './native-backend.js';
import type { HostReply, HostRequest } from './host-protocol.js';
import { realTimers, type WatchTimers } from './timers.js';

/** Pause before the second respawn in a row (the first is at once); doubles per crash after. */
export const HOST_RESTART_BACKOFF_MS = 250;
export const HOST_RESTART_MAX_MS = 30_000;
/** Bound on a subscribe answered by the host, in ms: past it the root is polled instead. */
export const HOST_SUBSCRIBE_TIMEOUT_MS = 30_000;
/** A host that lived this long resets the backoff. */
const HOST_HEALTHY_MS = 60_000;

const HOST_SCRIPT = fileURLToPath(new URL('../../workers/watch-host.js', import.meta.url));

export interface ChildBackendOptions {
  /** The runtime to run the host with. @default process.execPath */
  runtime?: string;
  /** The host's environment. @default process.env */
  env?: NodeJS.ProcessEnv;
  timers?: WatchTimers;
  log?: (line: string) => void;
}

interface Pending {
  onEvents: EventsCallback;
  ready: { resolve: (s: RootSubscription) => void; reject: (e: Error) => void } | null;
}

export class ChildWatchBackend implements WatchBackend {
  /** What the host watches with: `native`, or `fs.watch` where the native module did not load. */
  #name = 'native';
  #instead: NativeRefusal | undefined;
  readonly #runtime: string;
  readonly #env: NodeJS.ProcessEnv;
  readonly #timers: WatchTimers;
  readonly #log: (line: string) => void;
  #child: ChildProcess | null = null;
  #startedAt = 0;
  #crashes = 0;
  #nextId = 1;
  #subs = new Map<number, Pending>();
  #closed = false;

  constructor(options: ChildBackendOptions = {}) {
    this.#runtime = options.runtime ?? process.execPath;
    this.#env = options.env ?? process.env;
    this.#timers = options.timers ?? realTimers;
    this.#log = options.log ?? ((line) => process.stderr.write(`gardener watch: ${line}\n`));
  }

  get name(): string {
    return this.#name;
  }

  /** Why the host watches with a fallback (undefined while it watches natively). */
  get instead(): NativeRefusal | undefined {
    return this.#instead;
  }

  /** The host's pid while it runs (tests kill it to prove a crash is survived). */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  async subscribe(root: string, onEvents: EventsCallback): Promise<RootSubscription> {
    if (this.#closed) throw new Error('the watch host is closed');
    const child = await this.#host();
    const id = this.#nextId++;
    return new Promise<RootSubscription>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (!this.#subs.get(id)?.ready) return;
        this.#subs.delete(id);
        this.#send(child, { op: 'unsubscribe', id });
        reject(new Error(`the watch host did not subscribe ${root} within ${HOST_SUBSCRIBE_TIMEOUT_MS} ms`));
      }, HOST_SUBSCRIBE_TIMEOUT_MS);
      timer.unref();
      const settle = <A extends unknown[]>(fn: (...a: A) => void) => (...a: A) => (clearTimeout(timer), fn(...a));
      this.#subs.set(id, { onEvents, ready: { resolve: settle(resolve), reject: settle(reject) } });
      this.#send(child, { op: 'subscribe', id, root });
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    const child = this.#child;
    this.#child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.stdin?.end();
    await exited;
  }

  #send(child: ChildProcess, req: HostRequest): void {
    child.stdin?.write(`${JSON.stringify(req)}\n`);
  }

  async #host(): Promise<ChildProcess> {
    if (this.#child) return this.#child;
    if (this.#crashes > 1) {
      const pause = Math.min(HOST_RESTART_MAX_MS, HOST_RESTART_BACKOFF_MS * 2 ** (this.#crashes - 2));
      await new Promise<void>((r) => this.#timers.setTimeout(r, pause));
      if (this.#child) return this.#child;
      if (this.#closed) throw new Error('the watch host is closed');
    }
    const child = spawn(this.#runtime, [HOST_SCRIPT], { stdio: ['pipe', 'pipe', 'inherit'], env: this.#env });
    this.#child = child;
    this.#startedAt = this.#timers.now();
    child.stdin?.on('error', () => {});
    createInterface({ input: child.stdout! }).on('line', (line) => this.#onReply(line));
    child.once('exit', (code, signal) => this.#onExit(child, code, signal));
    child.once('error', (err) => this.#log(`watch host failed to start: ${err.message}`));
    return child;
  }

  #onReply(line: string): void {
    let reply: HostReply;
    try {
      reply = JSON.parse(line) as HostReply;
    } catch {
      return;
    }
    const sub = this.#subs.get(reply.id);
    if (!sub) return;
    if (reply.op === 'subscribed') {
      this.#name = reply.backend;
      this.#instead = reply.instead;
      sub.ready?.resolve({ unsubscribe: async () => this.#unsubscribe(reply.id) });
      sub.ready = null;
    } else if (reply.op === 'failed') {
      const err = Object.assign(new Error(reply.message), { code: reply.code });
      if (sub.ready) {
        this.#subs.delete(reply.id);
        sub.ready.reject(err);
      } else sub.onEvents(err, []);
    } else {
      // A capped batch (WATCH_EVENTS_SENT) is still over RESUBSCRIBE_EVENT_COUNT: the root is
      // re-subscribed after the tick, which is all a larger batch would have caused.
      sub.onEvents(null, reply.events);
    }
  }

  #unsubscribe(id: number): void {
    if (!this.#subs.delete(id)) return;
    if (this.#child) this.#send(this.#child, { op: 'unsubscribe', id });
  }

  #onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.#child === child) this.#child = null;
    if (this.#closed) return;
    this.#crashes = this.#timers.now() - this.#startedAt >= HOST_HEALTHY_MS ? 1 : this.#crashes + 1;
    this.#log(`watch host exited (${signal ?? `code ${code}`}); subscriptions are re-made after a full detection`);
    const subs = [...this.#subs.values()];
    this.#subs.clear();
    const err = new Error(`the watch host exited (${signal ?? `code ${code}`})`);
    for (const s of subs) {
      if (s.ready) s.ready.reject(err);
      else s.onEvents(err, []);
    }
  }
}
