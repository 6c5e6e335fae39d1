/**
 * A clock that moves only when the test says so, with timers that fire in due order as it
 * advances: bursts and polls are driven by `advance(ms)`, never by waiting.
 */
import type { WatchTimers } from '../../src/watch/index.js';

interface Pending {
  id: number;
  due: number;
  fn: () => void;
}

export class ManualClock implements WatchTimers {
  #now = 1_000_000;
  #next = 1;
  #timers = new Map<number, Pending>();

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

  /** Moves the clock forward, firing every timer that falls due, in order. */
  advance(ms: number): void {
    const until = this.#now + ms;
    for (;;) {
      const due = [...this.#timers.values()].filter((t) => t.due <= until).sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (!due) break;
      this.#timers.delete(due.id);
      this.#now = due.due;
      due.fn();
    }
    this.#now = until;
  }
}
