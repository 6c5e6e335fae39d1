/**
 * The soak's seek prober, on a thread of its own. The workload writes bursts and runs git
 * (checkout, rebase, `git gc`) synchronously on the soak's main thread; a probe timed there
 * counted those stalls as the owner's: a probe whose answer came back while the soak's loop was
 * inside `git gc` waited for it to end before its clock stopped. Here nothing else runs between
 * a request and its answer, so a probe measures the owner alone, idle and during the day alike.
 *
 * The main side (`SeekProber`) starts the thread; the thread answers `idle` (back-to-back
 * seeks, the idle p99's calls), `start` (one seek every `everyMs` until `stop`) and `stop`
 * (with what it measured).
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { restCall } from './sessions.js';

export interface ProberSetup {
  url: string;
  token: string;
  folder: string;
  words: readonly string[];
  everyMs: number;
}

type Request = { op: 'idle'; count: number; warmup: number } | { op: 'start' } | { op: 'stop' };
type Reply =
  | { op: 'idle'; ms: number[]; error?: string }
  | { op: 'stopped'; ms: number[]; at: number[]; failures: string[] };

/** The soak's handle on the prober thread. */
export class SeekProber {
  readonly #worker: Worker;
  #waiting: ((r: Reply) => void) | undefined;

  constructor(setup: ProberSetup) {
    this.#worker = new Worker(new URL(import.meta.url), { workerData: setup });
    this.#worker.on('message', (r: Reply) => {
      const w = this.#waiting;
      this.#waiting = undefined;
      w?.(r);
    });
    this.#worker.on('error', (err) => {
      const w = this.#waiting;
      this.#waiting = undefined;
      w?.({ op: 'stopped', ms: [], at: [], failures: [`the prober thread failed: ${err.message}`] });
    });
  }

  #ask(req: Request): Promise<Reply> {
    return new Promise((resolve) => {
      this.#waiting = resolve;
      this.#worker.postMessage(req);
    });
  }

  /**
   * `count` seeks after `warmup` unmeasured ones, one a probe period apart as the day's probes
   * are: the idle p99 is the day's measure only at the day's cadence. A tenth of the period
   * apart, as they were, each idle call ran warmer than a probe of the day: on an idle machine
   * the same owner answered a seek 50 ms after the last at a median of 6.6-6.9 ms and p99 of
   * 10.8-12.0, 500 ms after at 9.0-9.4 and 14.7-15.2 (`/healthz` alone 1.9 against 3.2 ms), so
   * a third of the ratio the soak judged was the cadence, not the load.
   */
  async idle(count: number, warmup: number): Promise<number[]> {
    const r = await this.#ask({ op: 'idle', count, warmup });
    if (r.op !== 'idle' || r.error) throw new Error(`soak: idle seek failed: ${r.op === 'idle' ? r.error : r.failures.join('; ')}`);
    return r.ms;
  }

  start(): void {
    this.#worker.postMessage({ op: 'start' } satisfies Request);
  }

  /** Stops probing; what the probes measured (with when each started, epoch ms), and why any failed. */
  async stop(): Promise<{ ms: number[]; at: number[]; failures: string[] }> {
    const r = await this.#ask({ op: 'stop' });
    await this.#worker.terminate();
    return r.op === 'stopped' ? { ms: r.ms, at: r.at, failures: r.failures } : { ms: [], at: [], failures: ['the prober answered out of turn'] };
  }
}

/** The thread: one seek at a time on the big brain, timed here and nowhere else. */
function runThread(setup: ProberSetup): void {
  const port = parentPort!;
  const owner = { url: setup.url, token: setup.token };
  const seek = (i: number) => restCall(owner, setup.folder, 'seek', { query: setup.words[i % setup.words.length], scope: 'code' });
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let probing = false;
  let probed: Promise<void> = Promise.resolve();
  const ms: number[] = [];
  const at: number[] = [];
  const failures: string[] = [];
  port.on('message', (req: Request) => {
    if (req.op === 'idle') {
      void (async () => {
        const out: number[] = [];
        for (let i = -req.warmup; i < req.count; i++) {
          const r = await seek(i + req.warmup);
          if (!r.ok) return port.postMessage({ op: 'idle', ms: out, error: r.text.slice(0, 300) } satisfies Reply);
          if (i >= 0) out.push(r.ms);
          await pause(setup.everyMs);
        }
        port.postMessage({ op: 'idle', ms: out } satisfies Reply);
      })();
    } else if (req.op === 'start') {
      probing = true;
      probed = (async () => {
        for (let i = 0; probing; i++) {
          const started = Date.now();
          const r = await seek(i);
          if (r.ok) {
            ms.push(r.ms);
            at.push(started);
          }
          else if (failures.length < 200) failures.push(`probe seek failed: ${r.text.slice(0, 200)}`);
          await pause(setup.everyMs);
        }
      })();
    } else {
      probing = false;
      void probed.then(() => port.postMessage({ op: 'stopped', ms, at, failures } satisfies Reply));
    }
  });
}

if (!isMainThread && parentPort && (workerData as ProberSetup | undefined)?.folder !== undefined) runThread(workerData as ProberSetup);
