/**
 * An injected clock with timers, for background timers (the reconciler's quiet window): time
 * moves only when the test says so, and due timers run in order of their deadline.
 */
import type { ReconcileTimers } from '../../src/skeleton/index.js';

export class FakeClock {
  #t: number;
  #next = 1;
  #timers = new Map<number, { at: number; fn: () => void }>();

  constructor(start = 1_800_000_000_000) {
    this.#t = start;
  }

  readonly now = (): number => this.#t;

  readonly timers: ReconcileTimers = {
    set: (fn, ms) => {
      const id = this.#next++;
      this.#timers.set(id, { at: this.#t + ms, fn });
      return id;
    },
    clear: (id) => void this.#timers.delete(id as number),
  };

  /** Timers waiting. */
  get pending(): number {
    return this.#timers.size;
  }

  /** Moves time to `t`, running every timer due by then (in deadline order). */
  advanceTo(t: number): void {
    for (;;) {
      const due = [...this.#timers.entries()].filter(([, x]) => x.at <= t).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.#timers.delete(due[0]);
      this.#t = Math.max(this.#t, due[1].at);
      due[1].fn();
    }
    this.#t = Math.max(this.#t, t);
  }

  advanceBy(ms: number): void {
    this.advanceTo(this.#t + ms);
  }
}
