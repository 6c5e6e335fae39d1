/**
 * The Piscina pool for stateless heavy work: detection (git, stat walk) and hash+extract
 * batches. One pool serves both task files, so idle cost is a couple of threads at most.
 *
 * Every run has a bound (a timeout joined to the caller's signal). Piscina rejects a task
 * whose worker throws or exits and replaces the worker, so the pool recovers by itself; we
 * only translate its errors into Gardener's typed ones.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { AbortedError, InvalidArgumentError, WorkerCrashedError, WorkerTimeoutError } from '../errors.js';
import type { DetectRequest, DetectResult, HashExtractOutput, HashExtractTask } from '../../workers/types.js';

/** Bound on one detection, in ms: git on a huge repo is seconds, never minutes. */
export const DETECT_TIMEOUT_MS = 120_000;
/** Bound on one hash+extract batch of `max_files` files, in ms. */
export const BATCH_TIMEOUT_MS = 120_000;
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

export interface WorkerPoolOptions {
  /** Most pool threads. @default DEFAULT_POOL_THREADS */
  maxThreads?: number;
}

const DETECT_FILE = fileURLToPath(new URL('../../workers/detect.js', import.meta.url));
const HASH_FILE = fileURLToPath(new URL('../../workers/hash-extract.js', import.meta.url));

export class WorkerPool {
  readonly maxThreads: number;
  #pool: Piscina | undefined;

  constructor(options: WorkerPoolOptions = {}) {
    const n = options.maxThreads ?? DEFAULT_POOL_THREADS;
    if (!Number.isInteger(n) || n < 1) {
      throw new InvalidArgumentError(`options.maxThreads must be a positive integer, got ${String(n)} (${typeof n})`);
    }
    this.maxThreads = n;
  }

  detect(req: DetectRequest, signal?: AbortSignal): Promise<DetectResult> {
    return this.#run('detect', DETECT_FILE, { ...req, timeoutMs: req.timeoutMs ?? DETECT_TIMEOUT_MS }, DETECT_TIMEOUT_MS, signal);
  }

  hashExtract(task: HashExtractTask, signal?: AbortSignal): Promise<HashExtractOutput> {
    return this.#run('hash-extract', HASH_FILE, task, BATCH_TIMEOUT_MS, signal);
  }

  /** Starts the threads now, so a measurement does not include their start-up. */
  warm(): void {
    this.#ensure();
  }

  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    await pool?.destroy();
  }

  #ensure(): Piscina {
    this.#pool ??= new Piscina({
      maxThreads: this.maxThreads,
      minThreads: Math.min(this.maxThreads, 2),
      idleTimeout: 30_000,
      resourceLimits: WORKER_RESOURCE_LIMITS,
    });
    return this.#pool;
  }

  async #run<T, R>(name: string, filename: string, task: T, timeoutMs: number, signal?: AbortSignal): Promise<R> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const joined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      return (await this.#ensure().run(task, { filename, signal: joined })) as R;
    } catch (err) {
      if (signal?.aborted) throw new AbortedError(name, { cause: err });
      if (timeout.aborted) throw new WorkerTimeoutError(name, 'run', timeoutMs);
      if (err instanceof Error && /terminated|exited|worker/i.test(err.message) && !(err as { code?: string }).code?.startsWith('GDN_')) {
        throw new WorkerCrashedError(name, { cause: err });
      }
      throw err;
    }
  }
}
