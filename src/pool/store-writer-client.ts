/**
 * The main thread's handle on the store-writer worker.
 *
 * Comlink gives typed calls but no bounds: a call to a worker that died would wait forever.
 * So every call here races the worker's `exit`/`error` and a timeout; a dead worker rejects
 * every pending call with WorkerCrashedError, and the next call starts a fresh worker and
 * reopens the same store, so the writer recovers by itself.
 *
 * A writer with no call for WRITER_IDLE_MS ends its thread the same way (parked): an owner that
 * runs for a month opens brains for sessions that come once and go, and each kept a writer
 * thread (about 10 MB of RSS) until the LRU let the brain go, 16 brains later. The next call
 * starts a fresh one (a worker start and the store's open, tens of ms, once after the quiet).
 * Everything a writer holds between calls is in the store but the staged results of a drain
 * in progress, and a drain calls the writer without pause.
 */
import { Worker, type MessagePort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import { nodeEndpoint } from './node-endpoint.js';
import { WorkerCrashedError, WorkerTimeoutError, InvalidArgumentError } from '../errors.js';
import type { StoreWriter } from '../../workers/store-writer.js';
import { WORKER_RESOURCE_LIMITS } from './worker-pool.js';
import { realTimers, type Timers } from '../timers.js';

/** Bound on one writer call. A transaction of one 32-file batch takes milliseconds. */
export const STORE_CALL_TIMEOUT_MS = 60_000;
/**
 * A writer this long without a call ends its thread (the next call starts another). An armed,
 * watched brain ticks at least every 5 minutes (the watcher's safety net), so only the writers
 * of brains nothing uses are parked.
 */
export const WRITER_IDLE_MS = 10 * 60_000;

type Methods<T> = { [K in keyof T]: T[K] extends (...a: infer A) => infer R ? (...a: A) => Promise<Awaited<R>> : never };
export type StoreWriterApi = Omit<Methods<StoreWriter>, 'open' | 'close'>;

export interface StoreWriterClientOptions {
  /** Bound on each call, in ms. @default STORE_CALL_TIMEOUT_MS */
  callTimeoutMs?: number;
  /** Quiet after the last call before the thread ends, in ms. @default WRITER_IDLE_MS */
  idleMs?: number;
  /** The idle timer's clock (tests). @default realTimers (unref'd) */
  timers?: Timers;
  /** Told each time an idle writer's thread has ended. */
  onParked?: () => void;
}

/** The module the store writer's thread starts with: it sets the heap flags, then loads the writer. */
export const WRITER_THREAD_URL = new URL('../../workers/store-writer-thread.js', import.meta.url);

interface Live {
  worker: Worker;
  remote: Comlink.Remote<StoreWriter>;
  /** The calls waiting on this worker, each told if it dies; a call leaves the set when it settles. */
  waiting: Set<(err: WorkerCrashedError) => void>;
  /** Why the worker died, once it has. */
  death: WorkerCrashedError | undefined;
  opened: Promise<void>;
  /** True once `opened` resolved: a call then goes straight to the worker. */
  isOpen: boolean;
}

/**
 * `work`, or the worker's death if that comes first. Never a race against one long-lived promise
 * of the death: each race left a reaction on it holding the race's answer, so an owner kept every
 * answer of every writer call for the writer's life (test: store-writer-calls-leave-nothing-behind).
 */
function unlessDead<T>(live: Live, work: Promise<T>): Promise<T> {
  if (live.death) {
    work.catch(() => {});
    return Promise.reject(live.death);
  }
  return new Promise<T>((resolve, reject) => {
    live.waiting.add(reject);
    work.then(resolve, reject).finally(() => live.waiting.delete(reject));
  });
}

export class StoreWriterClient {
  readonly file: string;
  readonly api: StoreWriterApi;
  #timeoutMs: number;
  #idleMs: number;
  #timers: Timers;
  #onParked: () => void;
  #idleTimer: unknown;
  /** When the last call settled (the idle timer's clock). */
  #lastSettled = 0;
  #live: Live | undefined;
  #closed = false;
  /** Calls still running: close() lets them finish (each is bounded) before closing the store. */
  #pending = new Set<Promise<unknown>>();

  constructor(file: string, options: StoreWriterClientOptions = {}) {
    const t = options.callTimeoutMs ?? STORE_CALL_TIMEOUT_MS;
    if (!Number.isInteger(t) || t <= 0) {
      throw new InvalidArgumentError(`options.callTimeoutMs must be a positive integer, got ${String(t)} (${typeof t})`);
    }
    const idle = options.idleMs ?? WRITER_IDLE_MS;
    if (!Number.isInteger(idle) || idle <= 0) {
      throw new InvalidArgumentError(`options.idleMs must be a positive integer, got ${String(idle)} (${typeof idle})`);
    }
    this.file = file;
    this.#timeoutMs = t;
    this.#idleMs = idle;
    this.#timers = options.timers ?? realTimers;
    this.#onParked = options.onParked ?? (() => {});
    this.api = new Proxy({} as StoreWriterApi, {
      get: (_, name) => (...args: unknown[]) => this.call(String(name), args),
    });
  }

  /** Starts the worker and opens the store now (otherwise the first call does). */
  ready(): Promise<void> {
    return this.#track(this.#ensure().opened);
  }

  /** Whether a writer thread is running now (not before the first call, nor once parked or closed). */
  get running(): boolean {
    return this.#live !== undefined;
  }

  /** Calls one writer method, bounded; rejects with WorkerCrashedError or WorkerTimeoutError. */
  call(method: string, args: unknown[]): Promise<never> {
    return this.#track(this.#call(method, args));
  }

  /**
   * Counts `p` as a call until it settles. The idle check is one timer per quiet spell, not one
   * per call: a call only notes when it ended, and the timer, when it fires, parks the writer or
   * waits out the rest of the quiet (a drain makes tens of calls a second on the main thread).
   */
  #track<T>(p: Promise<T>): Promise<T> {
    this.#pending.add(p);
    const forget = () => {
      this.#pending.delete(p);
      this.#lastSettled = this.#timers.now();
    };
    p.then(forget, forget);
    this.#armIdle(this.#idleMs);
    return p;
  }

  /**
   * Starts the idle timer when a thread runs and none is set. Its own method: a timer made
   * inside `#track` would keep its scope, and with it a call's answer, for the whole idle time.
   */
  #armIdle(ms: number): void {
    if (this.#idleTimer === undefined && this.#live && !this.#closed) this.#idleTimer = this.#timers.setTimeout(() => this.#idleCheck(), ms);
  }

  #idleCheck(): void {
    this.#idleTimer = undefined;
    if (this.#pending.size > 0) return this.#armIdle(this.#idleMs);
    const quiet = this.#timers.now() - this.#lastSettled;
    if (quiet < this.#idleMs) return this.#armIdle(this.#idleMs - quiet);
    void this.#park();
  }

  /** Ends an idle writer's thread; the next call starts a fresh one on the same store. */
  async #park(): Promise<void> {
    const live = this.#live;
    if (!live || this.#pending.size > 0 || this.#closed) return;
    this.#live = undefined;
    await this.#end(live);
    this.#onParked();
  }

  async #end(live: Live): Promise<void> {
    try {
      await unlessDead(live, live.remote.close());
    } catch {
      // Closing a writer that already died is fine.
    }
    live.remote[Comlink.releaseProxy]();
    await live.worker.terminate();
  }

  async #call(method: string, args: unknown[]): Promise<never> {
    const live = this.#ensure();
    if (!live.isOpen) await unlessDead(live, live.opened);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // A wedged writer is as good as dead: end it so the next call starts clean.
        void live.worker.terminate();
        reject(new WorkerTimeoutError('store-writer', method, this.#timeoutMs));
      }, this.#timeoutMs);
    });
    try {
      const fn = (live.remote as unknown as Record<string, (...a: unknown[]) => Promise<never>>)[method]!;
      return await unlessDead(live, Promise.race([fn(...args), timeout]));
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    await Promise.allSettled([...this.#pending]);
    this.#closed = true;
    this.#timers.clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    const live = this.#live;
    this.#live = undefined;
    if (live) await this.#end(live);
  }

  #ensure(): Live {
    if (this.#closed) throw new WorkerCrashedError('store-writer (closed)');
    if (this.#live) return this.#live;
    const worker = new Worker(WRITER_THREAD_URL, { resourceLimits: WORKER_RESOURCE_LIMITS });
    const remote = Comlink.wrap<StoreWriter>(nodeEndpoint(worker));
    const waiting = new Set<(err: WorkerCrashedError) => void>();
    const opened = remote.open(this.file);
    const live: Live = { worker, remote, waiting, death: undefined, opened, isOpen: false };
    opened.then(() => (live.isOpen = true), () => {});
    const fail = (cause?: unknown) => {
      if (live.death) return;
      if (this.#live === live) this.#live = undefined;
      live.death = new WorkerCrashedError('store-writer', { cause });
      for (const reject of [...waiting]) reject(live.death);
      waiting.clear();
    };
    worker.once('error', fail);
    worker.once('exit', (code) => fail(new Error(`exit code ${code}`)));
    // A store that could not be opened (read-only, full, locked) fails this call with that
    // error; the next call starts a fresh worker and tries again, instead of every later call
    // replaying the first failure for the life of the process.
    opened.catch(() => {
      if (this.#live?.worker !== worker) return;
      this.#live = undefined;
      remote[Comlink.releaseProxy]();
      void worker.terminate();
    });
    this.#live = live;
    return live;
  }
}

/**
 * Marks a call argument so its buffers move to the writer instead of being copied (after the
 * call they are detached here). Use for ingest results, `moved(results, textBuffers(results))`,
 * and for a port the writer is to read from, `moved(port, [port])`.
 */
export function moved<T>(value: T, buffers: (ArrayBuffer | MessagePort)[]): T {
  return Comlink.transfer(value, buffers as unknown as Parameters<typeof Comlink.transfer>[1]);
}
