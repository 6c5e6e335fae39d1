/**
 * The tool calls this thread's dispatcher is answering, and the moment the last of them has left:
 * the moment an owner does work that stops its loop (the main thread's page return, 100-150 ms of
 * compacting collection on a 2-core box, src/page-return.ts) so that no answer waits behind it.
 *
 * Why that moment: an agent asks, reads the answer, thinks, and asks again; right after an
 * answer leaves, the next call of that agent is furthest away. Measured in a 90-minute soak of
 * `gardener serve` on Node 20 (docs/reliability.md): probe seeks whose 10 s included a main-thread
 * page return were slower than 2x the idle p99 4.1% of the time, against 2.5% in the others. A
 * call that arrives while the work runs still waits (a second agent's, say); the work waits at
 * most `maxWaitMs` for a moment, so a thread whose calls never pause, or that has none, still
 * does it.
 *
 * dispatchTool (./dispatch-tool.ts) enters and leaves around every call, on every transport.
 * Not the request gate's count (src/pool/request-gate.ts): that one holds recall calls alone,
 * since pool threads wait on it, while a collection delays any call's continuation.
 */
import { realTimers, type Timers } from '../timers.js';

/** The longest a piece of work waits for the last call to leave before it runs anyway, in ms. */
export const QUIET_WAIT_MS = 5_000;

export class CallsInFlight {
  #count = 0;
  #waiting: Array<() => void> = [];
  readonly #timers: Timers;
  readonly #defer: (fn: () => void) => void;

  /**
   * @param timers the deadline's clock
   * @param defer runs a function after the current answer is written: the transport writes it in
   *   the continuation of the dispatch, so a macrotask later (setImmediate) it is on its way
   */
  constructor(timers: Timers = realTimers, defer: (fn: () => void) => void = (fn) => void setImmediate(fn)) {
    this.#timers = timers;
    this.#defer = defer;
  }

  get count(): number {
    return this.#count;
  }

  enter(): void {
    this.#count++;
  }

  leave(): void {
    if (this.#count === 0) return;
    if (--this.#count > 0 || this.#waiting.length === 0) return;
    const ready = this.#waiting;
    this.#waiting = [];
    for (const fn of ready) fn();
  }

  /**
   * Runs `work` once: just after the next time the last call in flight leaves (whether one is in
   * flight now or not), or after `maxWaitMs` if no such moment came. Bound, so it is a
   * PageReturn's `moment` as it is.
   */
  readonly afterLastCall = (work: () => void, maxWaitMs: number = QUIET_WAIT_MS): void => {
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      this.#timers.clearTimeout(deadline);
      this.#waiting = this.#waiting.filter((w) => w !== onLeave);
      work();
    };
    const onLeave = () => this.#defer(once);
    const deadline = this.#timers.setTimeout(once, maxWaitMs);
    this.#waiting.push(onLeave);
  };
}

/** This thread's dispatcher's calls: one per process's main thread (the owner, `gardener mcp`). */
export const callsInFlight = new CallsInFlight();
