/**
 * The Piscina pool for stateless heavy work: detection (git, stat walk) and hash+extract
 * batches. One pool serves both task files, so idle cost is a couple of threads at most.
 *
 * Every run has a bound (POOL_TASK_TIMEOUT_MS) and an abort path. Piscina rejects a task whose
 * worker throws or exits and replaces the worker, so the pool recovers by itself; we only
 * translate its errors into Gardener's typed ones. Piscina's abort ends the worker's thread:
 * right for a hash batch (no child process), wrong for a detect task, whose git would outlive
 * the thread. So a detect task's cancel is relayed to the worker on a MessagePort and the
 * worker kills its git and answers; its gits are bounded inside the worker, below this bound.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { MessagePort } from 'node:worker_threads';
import { AbortedError, InvalidArgumentError, WorkerCrashedError, WorkerTimeoutError } from '../errors.js';
import { realTimers, type Timers } from '../timers.js';
import { errorFromWire, isErrorWire } from './error-wire.js';
import { requestGate, type RequestGate } from './request-gate.js';
import { LeavingPaths } from './leaving-paths.js';
import { DETECT_TASK_TIMEOUT_MS, type DetectRequest, type DetectResult, type DetectTask, type HashExtractDelivered, type HashExtractDeliverTask, type HashExtractOutput, type HashExtractTask, type PoolHashExtractTask, type MineHistoryTask, type ResolveCommitTask, type ThreadHeap } from '../../workers/types.js';
import type { MineRequest, MineOutcome } from '../history/types.js';

/**
 * Bound on any pool task, in ms (a detection, a hash+extract batch of `max_files` files): each
 * takes seconds on a huge repository, never minutes. Past it Piscina ends the worker's thread,
 * so a detect task bounds its own gits well inside it (DETECT_TASK_TIMEOUT_MS).
 */
export const POOL_TASK_TIMEOUT_MS = 120_000;
/**
 * After a cancel, how long a detect task has to kill its git and answer, in ms (it takes
 * milliseconds); past it the call is answered anyway and the task stays under its bounds.
 */
export const ABORT_ANSWER_MS = 5_000;
export { DETECT_TASK_TIMEOUT_MS };
/**
 * Pool threads: one core is left to the store writer and the main thread. The writer is the
 * drain's critical path; a second pool thread on a 2-core machine only takes CPU from it
 * (measured: 1000-file burst 276 ms with one pool thread, 310 ms with two; 100 files 49 vs 58).
 */
export const DEFAULT_POOL_THREADS = Math.max(1, availableParallelism() - 1);

/**
 * Heap limits for worker threads. Left alone, each worker's heap grows with the strings of
 * every burst before V8 bothers to collect; small limits make it collect early. Measured on a
 * 5000-file ingest: peak RSS 286 MB without limits, 221 MB with an 8 MB young generation,
 * 190 MB with these. The old generation still holds a 32-file batch at the 1 MiB index cap,
 * or one commit's MAX_BYTES_PER_COMMIT of text, several times over.
 */
export const WORKER_RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 128 } as const;

/**
 * A pool whose threads loaded tree-sitter grammars is ended after it has run nothing for this
 * long, in ms, and the next task starts fresh threads. A thread's WebAssembly memory never
 * shrinks (the runtime and four grammars hold about 40 MB), so ending the thread is the only
 * way to give it back; the next file of such a language loads its grammar again (30–150 ms a
 * language). A minute keeps a stream of edits in one language from paying that each time.
 */
export const GRAMMAR_RELEASE_IDLE_MS = 60_000;

/**
 * How an idle pool thread waits for its next task (Piscina's `atomics`): on its event loop, as
 * any thread does, not blocked in Atomics.wait (Piscina's default, 'sync'). A blocked loop reads
 * nothing, so a child that exits after its task answered (a git killed past its reap bound, a
 * grandchild's pipe held open) stayed a zombie of this process until the next task woke the
 * thread, and for ever if the thread was ended first. The cost is one message event per task,
 * microseconds against tasks of milliseconds.
 */
export const POOL_ATOMICS = 'disabled' as const;

/**
 * Pool threads load their task files without require(esm), where Node has it. Piscina loads a
 * task file with `require(file)` before `import()`, so on Node 20.19+ (require(esm) on by
 * default) a thread's first detect task loaded detect.js synchronously, and a thread ended in
 * that window (the pool closed, a task aborted or past its bound) aborted the whole process:
 * "v8::Module::IsGraphAsync must be used on an instantiated module", or a failed assertion in
 * CreateRequiredModuleFacade (Node 20.20; Node 24 survives it). With it off the require fails at
 * once and Piscina imports the file, which an ended thread leaves cleanly. Bun has no such flag.
 */
export const NO_REQUIRE_ESM = '--no-experimental-require-module';

/**
 * The flags pool threads start with: the process's own and NO_REQUIRE_ESM, or undefined (the
 * process's own, inherited) where Node has no such flag.
 */
export function poolExecArgv(flags: ReadonlySet<string> | undefined = process.allowedNodeEnvironmentFlags, execArgv: readonly string[] = process.execArgv): string[] | undefined {
  if (!flags?.has(NO_REQUIRE_ESM)) return undefined;
  return [...execArgv, NO_REQUIRE_ESM];
}

/**
 * A Piscina of `options` whose threads start with poolExecArgv(), listened to for what it says
 * outside any task (onPoolError). A thread takes only some of the process's flags (a V8 flag
 * such as --max-old-space-size, or --expose-gc, it refuses when named, though it inherits them):
 * then Node throws ERR_WORKER_INVALID_EXEC_ARGV at once, and the pool inherits the process's
 * flags as it would have without ours.
 */
export function startPiscina(options: ConstructorParameters<typeof Piscina>[0] & object): Piscina {
  const pool = withPoolFlags(options);
  pool.on('error', onPoolError);
  return pool;
}

function withPoolFlags(options: ConstructorParameters<typeof Piscina>[0] & object): Piscina {
  const execArgv = poolExecArgv();
  if (execArgv === undefined) return new Piscina(options);
  try {
    return new Piscina({ ...options, execArgv });
  } catch (err) {
    if ((err as { code?: unknown } | null)?.code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw err;
    return new Piscina(options);
  }
}

/**
 * What Piscina says outside any task: the answer of a task it had already let go (the pool closed
 * or the task aborted while the thread answered), nothing to do; or a thread's uncaught error
 * while it ran no task (Piscina replaces the thread), a process warning. Without a listener its
 * 'error' event ended the process.
 */
export function onPoolError(err: unknown): void {
  const message = err instanceof Error ? err.message : String(err);
  if (message.startsWith('Unexpected message from Worker')) return;
  process.emitWarning(`a pool thread failed outside any task: ${message}`, 'GardenerPoolWarning');
}

/** The Piscina options of the pool's threads, but the task file (tests build a pool of their own with them). */
export function piscinaOptions(maxThreads: number) {
  return {
    maxThreads,
    minThreads: Math.min(maxThreads, 2),
    idleTimeout: 30_000,
    resourceLimits: WORKER_RESOURCE_LIMITS,
    atomics: POOL_ATOMICS,
  };
}

export interface WorkerPoolOptions {
  /** Most pool threads. @default DEFAULT_POOL_THREADS */
  maxThreads?: number;
  /** Idle time after which threads holding grammars are ended, in ms. @default GRAMMAR_RELEASE_IDLE_MS */
  grammarReleaseIdleMs?: number;
  /** Timers for the grammar release (tests drive them). @default realTimers */
  timers?: Timers;
  /** The gate hash+extract batches give way at while recall calls run. @default requestGate (the process's) */
  gate?: RequestGate;
}

const DETECT_FILE = fileURLToPath(new URL('../../workers/detect.js', import.meta.url));
const HASH_FILE = fileURLToPath(new URL('../../workers/hash-extract.js', import.meta.url));
/** The module each pool thread starts with: it sets the heap flags, then loads HASH_FILE. */
export const POOL_THREAD_FILE = fileURLToPath(new URL('../../workers/pool-thread.js', import.meta.url));

export class WorkerPool {
  readonly maxThreads: number;
  readonly grammarReleaseIdleMs: number;
  #timers: Timers;
  #pool: Piscina | undefined;
  /** Tasks running now; the grammar release waits for none. */
  #running = 0;
  /** Whether a thread of the current pool loaded grammars. */
  #holdsGrammars = false;
  #release: unknown;
  #gate: RequestGate;
  /** Paths detection found git-ignored, until a batch takes them out unread (leaving-paths.ts). */
  #leaving = new LeavingPaths();

  constructor(options: WorkerPoolOptions = {}) {
    const n = options.maxThreads ?? DEFAULT_POOL_THREADS;
    if (!Number.isInteger(n) || n < 1) {
      throw new InvalidArgumentError(`options.maxThreads must be a positive integer, got ${String(n)} (${typeof n})`);
    }
    const idle = options.grammarReleaseIdleMs ?? GRAMMAR_RELEASE_IDLE_MS;
    if (!Number.isInteger(idle) || idle < 1) {
      throw new InvalidArgumentError(`options.grammarReleaseIdleMs must be a positive integer, got ${String(idle)} (${typeof idle})`);
    }
    this.maxThreads = n;
    this.grammarReleaseIdleMs = idle;
    this.#timers = options.timers ?? realTimers;
    this.#gate = options.gate ?? requestGate;
  }

  /** Detects the changes of one root; `signal` kills its git (in the worker) and rejects with AbortedError. */
  async detect(request: DetectRequest, signal?: AbortSignal): Promise<DetectResult> {
    const result = await this.#runCancellable<DetectTask, DetectResult>('detect', 'default', (abort) => ({ request, abort }), signal);
    this.#leaving.record(request.root, result);
    return result;
  }

  /** The commit `ref` names in the work tree `root`, or null; its git runs in the pool, under `signal`. */
  resolveCommit(root: string, ref: string, signal?: AbortSignal): Promise<string | null> {
    return this.#runCancellable<ResolveCommitTask, string | null>('detect', 'resolveCommit', (abort) => ({ root, ref, abort }), signal);
  }

  /** A root's history up to `request.head`, mined in the detect worker (its git killed on `signal`). */
  mineHistory(request: MineRequest, signal?: AbortSignal): Promise<MineOutcome> {
    return this.#runCancellable<MineHistoryTask, MineOutcome>('history', 'mineHistory', (abort) => ({ request, abort }), signal);
  }

  async hashExtract(task: HashExtractTask, signal?: AbortSignal): Promise<HashExtractOutput> {
    const leave = this.#leaving.take(task);
    const out = await this.#run<PoolHashExtractTask, HashExtractOutput>('hash-extract', HASH_FILE, 'default', { ...task, gate: this.#gate.view, leave }, [], signal).catch((err: unknown) => {
      this.#leaving.giveBack(task, leave);
      throw err;
    });
    if (out.holdsGrammars && !this.#holdsGrammars) {
      this.#holdsGrammars = true;
      this.#armRelease();
    }
    return out;
  }

  /**
   * A drain's batch: the results are posted on `deliverTo` (moved there with the task; the store
   * writer holds its other end) and the answer carries only their summaries, so a file's text
   * and definitions never cross the main thread. The results are on the port before it answers.
   */
  async hashExtractTo(task: HashExtractTask, deliverTo: MessagePort, signal?: AbortSignal): Promise<HashExtractDelivered> {
    const leave = this.#leaving.take(task);
    const out = await this.#run<HashExtractDeliverTask, HashExtractDelivered>('hash-extract', HASH_FILE, 'deliver', { ...task, gate: this.#gate.view, leave, deliverTo }, [deliverTo], signal).catch((err: unknown) => {
      this.#leaving.giveBack(task, leave);
      throw err;
    });
    if (out.holdsGrammars && !this.#holdsGrammars) {
      this.#holdsGrammars = true;
      this.#armRelease();
    }
    return out;
  }

  /** Whether the pool's threads may hold grammars now (ended GRAMMAR_RELEASE_IDLE_MS after the pool went idle). */
  get holdsGrammars(): boolean {
    return this.#holdsGrammars;
  }

  /** The heap of the pool thread that takes this call (all of them with one thread), for the bench. */
  heapStats(): Promise<ThreadHeap> {
    return this.#run('heap-stats', HASH_FILE, 'heapStats', {}, []);
  }

  /**
   * A pool thread's heap while the pool runs, else null: never starts the pool nor touches its
   * idle clocks (the grammar release), so asking it (the owner's status, every 10 s in the soak)
   * changes nothing it measures.
   */
  heapStatsIfRunning(): Promise<ThreadHeap> | null {
    const pool = this.#pool;
    if (!pool) return null;
    return pool.run({}, { filename: HASH_FILE, name: 'heapStats', signal: AbortSignal.timeout(POOL_TASK_TIMEOUT_MS) }) as Promise<ThreadHeap>;
  }

  /** Starts the threads now, so a measurement does not include their start-up. */
  warm(): void {
    this.#ensure();
  }

  async close(): Promise<void> {
    this.#timers.clearTimeout(this.#release);
    const pool = this.#pool;
    this.#pool = undefined;
    await pool?.destroy();
  }

  /** Ends the threads that hold grammars once the pool has run nothing for grammarReleaseIdleMs. */
  #armRelease(): void {
    this.#timers.clearTimeout(this.#release);
    if (this.#running > 0 || !this.#holdsGrammars) return;
    this.#release = this.#timers.setTimeout(() => {
      if (this.#running > 0 || !this.#pool) return;
      const pool = this.#pool;
      this.#pool = undefined;
      this.#holdsGrammars = false;
      void pool.destroy().catch(() => {});
    }, this.grammarReleaseIdleMs);
  }

  #ensure(): Piscina {
    this.#pool ??= startPiscina({
      ...piscinaOptions(this.maxThreads),
      // Loaded as each thread starts, so the thread sets the heap flags again at once (src/heap-growth.ts).
      filename: POOL_THREAD_FILE,
    });
    return this.#pool;
  }

  /**
   * Runs a detect-worker task whose cancel goes to the worker on a MessagePort (it kills its
   * git), never to Piscina (which would end the thread and leave the git running).
   */
  async #runCancellable<T, R>(name: string, fn: string, task: (abort: MessagePort) => T, signal?: AbortSignal): Promise<R> {
    if (signal?.aborted) throw new AbortedError(name, { cause: signal.reason });
    const { port1, port2 } = new MessageChannel();
    let answerBound: NodeJS.Timeout | undefined;
    let onAbort = () => {};
    const cancelled = new Promise<never>((_, reject) => {
      onAbort = () => {
        port1.postMessage('abort');
        answerBound = setTimeout(() => reject(new AbortedError(name, { cause: signal!.reason })), ABORT_ANSWER_MS);
      };
    });
    cancelled.catch(() => {});
    // A long-lived signal (a vigil's) sees one task after another: each takes its listener back.
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await Promise.race([this.#run<T, R>(name, DETECT_FILE, fn, task(port2), [port2], undefined, signal), cancelled]);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      clearTimeout(answerBound);
      port1.close();
    }
  }

  /**
   * One task under POOL_TASK_TIMEOUT_MS. `abortSignal` goes to Piscina (ends the thread);
   * `cancelledBy` only names a cancel the task itself answered (its rejection is an AbortedError).
   */
  async #run<T, R>(name: string, filename: string, fn: string, task: T, transferList: MessagePort[], abortSignal?: AbortSignal, cancelledBy: AbortSignal | undefined = abortSignal): Promise<R> {
    const timeout = AbortSignal.timeout(POOL_TASK_TIMEOUT_MS);
    const joined = abortSignal ? AbortSignal.any([abortSignal, timeout]) : timeout;
    this.#running++;
    this.#timers.clearTimeout(this.#release);
    try {
      return (await this.#ensure().run(task, { filename, name: fn, signal: joined, transferList })) as R;
    } catch (thrown) {
      // A Gardener error left its thread as data (error-wire.ts): it is itself again, never a crash.
      const err = isErrorWire(thrown) ? errorFromWire(thrown) : thrown;
      if (cancelledBy?.aborted) throw new AbortedError(name, { cause: err });
      if (timeout.aborted) throw new WorkerTimeoutError(name, 'run', POOL_TASK_TIMEOUT_MS);
      if (err instanceof Error && /terminated|exited|worker/i.test(err.message) && !(err as { code?: string }).code?.startsWith('GDN_')) {
        throw new WorkerCrashedError(name, { cause: err });
      }
      throw err;
    } finally {
      this.#running--;
      this.#armRelease();
    }
  }
}
