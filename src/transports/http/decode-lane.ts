/**
 * Large bodies are decoded one at a time, and never hog the thread. Decoding a body within the
 * bounds of the untrusted-JSON rule still costs up to tens of ms for 4 MiB (the scan, UTF-8,
 * the parse); bodies that finish arriving together were decoded back to back, and 32 of them
 * held another client's `seek` for 400-600 ms. In the lane each decode runs on its own, and
 * after a decode of d ms the next waits d ms: at least half of the thread stays with everyone
 * else (a `seek` needs a few turns of the loop, each of which would otherwise wait for a
 * decode). Small bodies never enter the lane: they cost microseconds.
 */

export interface DecodeLaneOptions {
  /** Clock, in ms. @default performance.now */
  now?: () => number;
  /** Runs `fn` after `ms` ms (0: in the next turn of the loop). @default setTimeout, or setImmediate for 0 */
  defer?: (ms: number, fn: () => void) => void;
}

const deferOnTheLoop = (ms: number, fn: () => void): void => {
  if (ms > 0) setTimeout(fn, ms);
  else setImmediate(fn);
};

export class DecodeLane {
  #queue: (() => void)[] = [];
  #running = false;
  /** Until when the lane leaves the thread to others (the clock's ms). */
  #restUntil = -Infinity;
  #now: () => number;
  #defer: (ms: number, fn: () => void) => void;

  constructor(options: DecodeLaneOptions = {}) {
    this.#now = options.now ?? (() => performance.now());
    this.#defer = options.defer ?? deferOnTheLoop;
  }

  /** Runs `decode` once the decodes queued before it have run and given their time back. */
  run<T>(decode: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push(() => {
        try {
          resolve(decode());
        } catch (err) {
          reject(err);
        }
      });
      if (!this.#running) this.#next();
    });
  }

  /** Runs the next decode once the lane's rest is over; after it, rests as long as it took. */
  #next(): void {
    const job = this.#queue.shift();
    this.#running = job !== undefined;
    if (!job) return;
    // Even with no rest, an immediate queued from an immediate runs in the next turn, after
    // that turn's I/O.
    this.#defer(Math.max(0, Math.round(this.#restUntil - this.#now())), () => {
      const started = this.#now();
      job();
      const ended = this.#now();
      this.#restUntil = ended + (ended - started);
      this.#next();
    });
  }
}
