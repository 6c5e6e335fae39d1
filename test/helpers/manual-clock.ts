/**
 * The one test clock: time moves only when the test says so, and the timers set on it (src/timers.ts's
 * `Timers`: bursts, polls, the proxy's liveness check, the reconciler's quiet window) fire in
 * order of their deadline as it advances, never by waiting.
 */
import type { Timers } from '../../src/timers.js';

interface Pending {
  id: number;
  due: number;
  fn: () => void;
}

export class ManualClock implements Timers {
  #now: number;
  #next = 1;
  #timers = new Map<number, Pending>();

  /** @param start the clock's first reading, in ms */
  constructor(start = 1_000_000) {
    this.#now = start;
  }

  now = (): number => this.#now;

  setTimeout = (fn: () => void, ms: number): unknown => {
    const id = this.#next++;
    this.#timers.set(id, { id, due: this.#now + ms, fn });
    return id;
  };

  clearTimeout = (handle: unknown): void => {
    this.#timers.delete(handle as number);
  };

  /** Timers waiting to fire. */
  get pending(): number {
    return this.#timers.size;
  }

  /** Moves the clock forward by `ms`, firing every timer that falls due, in order. */
  advance(ms: number): void {
    this.advanceTo(this.#now + ms);
  }

  /** Moves the clock to `t` (never back), firing every timer due by then, in order. */
  advanceTo(t: number): void {
    for (;;) {
      const due = [...this.#timers.values()].filter((x) => x.due <= t).sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (!due) break;
      this.#timers.delete(due.id);
      this.#now = Math.max(this.#now, due.due);
      due.fn();
    }
    this.#now = Math.max(this.#now, t);
  }
}
