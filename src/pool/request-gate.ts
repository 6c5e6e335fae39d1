/**
 * Agents first: while the main thread answers a recall call, the pool threads hashing and
 * extracting a drain wait between two files. The main thread reads the map for recall; on a
 * two-core machine a drain keeps two threads busy (pool and writer), so at any priority the
 * kernel sometimes put a recall query on a core with one of them, and the query waited its turn
 * (runqueue wait, read from /proc/thread-self/schedstat, was most of a slow query's time during
 * a drain: 8 ms at p99 against under 1 ms of its own CPU more than idle). With the pool parked
 * while a query runs, the writer and the query have a core each.
 *
 * The gate is one SharedArrayBuffer: a count of recall calls in flight, the most a pool thread
 * waits for them per file, and a count of the waits (for tests and the bench). The main thread
 * enters and leaves it around a recall handler (src/dispatch/dispatch-tool.ts); a pool thread
 * checks it before each file. The wait is bounded, so a stream of queries slows a drain but
 * never stops it: at worst one file goes through per bound. Measured (bench, Node 20, quiet):
 * seek p99 during a 1000-file drain went from 1.81× the idle p99 to 1.19× (3.72 against 3.13
 * ms), while queries back to back (about one a millisecond) stretched that drain's tick to
 * 1.1 s, against 0.2 s for the burst alone: the drain takes the gaps between queries.
 *
 * Only recall calls enter: they read the map and never wait for the pool. A call that does
 * (ingest, scan, a note's ties) would wait on a pool that waits on it.
 */
import { InvalidArgumentError } from '../errors.js';

/**
 * Longest a pool thread waits for recall calls before it hashes one file anyway, in ms: a few
 * slow recall queries (the slowest idle ones take 3–5 ms), so a query is never shared with a
 * pool thread, and a stream of queries leaves a drain at least a file per bound.
 */
export const GIVE_WAY_MAX_MS = 5;

const IN_FLIGHT = 0;
const MAX_WAIT_MS = 1;
const WAITS = 2;
const SLOTS = 3;

export class RequestGate {
  /** The shared slots; a pool task carries this view (shared, never copied). */
  readonly view: Int32Array;

  constructor(maxWaitMs: number = GIVE_WAY_MAX_MS) {
    if (!Number.isInteger(maxWaitMs) || maxWaitMs < 0) {
      throw new InvalidArgumentError(`request gate: maxWaitMs must be a non-negative integer, got ${String(maxWaitMs)} (${typeof maxWaitMs})`);
    }
    this.view = new Int32Array(new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT));
    Atomics.store(this.view, MAX_WAIT_MS, maxWaitMs);
  }

  /** A recall call starts on the main thread. */
  enter(): void {
    Atomics.add(this.view, IN_FLIGHT, 1);
  }

  /** It ended: when none is left, waiting pool threads go on at once. */
  leave(): void {
    if (Atomics.sub(this.view, IN_FLIGHT, 1) === 1) Atomics.notify(this.view, IN_FLIGHT);
  }

  /** Runs `work` inside the gate, whether it returns or throws. */
  async around<T>(work: () => Promise<T>): Promise<T> {
    this.enter();
    try {
      return await work();
    } finally {
      this.leave();
    }
  }

  get inFlight(): number {
    return Atomics.load(this.view, IN_FLIGHT);
  }

  /** Times a pool thread found recall calls in flight and waited. */
  get waits(): number {
    return Atomics.load(this.view, WAITS);
  }
}

/** The process's gate: one main thread, one set of recall calls, whichever brain they read. */
export const requestGate = new RequestGate();

/**
 * Pool side, before a file: waits while recall calls are in flight, at most the gate's bound.
 * A thread without a gate (a task from an older caller) goes straight on.
 */
export function giveWay(view: Int32Array | undefined): void {
  if (view === undefined) return;
  let inFlight = Atomics.load(view, IN_FLIGHT);
  if (inFlight === 0) return;
  Atomics.add(view, WAITS, 1);
  const deadline = performance.now() + Atomics.load(view, MAX_WAIT_MS);
  while (inFlight > 0) {
    const left = deadline - performance.now();
    if (left <= 0) return;
    Atomics.wait(view, IN_FLIGHT, inFlight, left);
    inFlight = Atomics.load(view, IN_FLIGHT);
  }
}
