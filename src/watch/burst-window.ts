/**
 * Coalesces file events into one detection per burst: fire after BURST_COALESCE_WINDOW_MS of
 * silence, or BURST_COALESCE_CAP_MS after the first event of a burst under continuous churn.
 * Events are hints, never the truth: firing only asks for a tick, whose detection decides
 * what changed.
 */
import { realTimers, type WatchTimers } from './timers.js';

/** Silence that ends a burst: a save, or a checkout's stream of writes, is one detection. */
export const BURST_COALESCE_WINDOW_MS = 500;
/** Continuous churn (a file rewritten every 100 ms) still ticks at least this often. */
export const BURST_COALESCE_CAP_MS = 5000;

export interface BurstWindowOptions {
  /** Silence before firing, in ms. @default BURST_COALESCE_WINDOW_MS */
  windowMs?: number;
  /** Longest a burst is held after its first event, in ms. @default BURST_COALESCE_CAP_MS */
  capMs?: number;
  timers?: WatchTimers;
}

export class BurstWindow {
  readonly #fire: () => void;
  readonly #windowMs: number;
  readonly #capMs: number;
  readonly #timers: WatchTimers;
  #firstAt: number | null = null;
  #timer: unknown = null;
  #closed = false;

  constructor(fire: () => void, options: BurstWindowOptions = {}) {
    const windowMs = options.windowMs ?? BURST_COALESCE_WINDOW_MS;
    const capMs = options.capMs ?? BURST_COALESCE_CAP_MS;
    if (!Number.isInteger(windowMs) || windowMs < 1) throw new TypeError(`options.windowMs must be a positive integer (ms), got ${String(windowMs)}`);
    if (!Number.isInteger(capMs) || capMs < windowMs) throw new TypeError(`options.capMs must be an integer ≥ windowMs (${windowMs} ms), got ${String(capMs)}`);
    this.#fire = fire;
    this.#windowMs = windowMs;
    this.#capMs = capMs;
    this.#timers = options.timers ?? realTimers;
  }

  /** True while events wait for their burst to end. */
  get pending(): boolean {
    return this.#firstAt !== null;
  }

  /** An event arrived: (re)start the silence timer, never past the burst's cap. */
  hint(): void {
    if (this.#closed) return;
    const now = this.#timers.now();
    this.#firstAt ??= now;
    const due = Math.min(now + this.#windowMs, this.#firstAt + this.#capMs);
    if (this.#timer !== null) this.#timers.clearTimeout(this.#timer);
    this.#timer = this.#timers.setTimeout(() => this.#end(), Math.max(0, due - now));
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== null) this.#timers.clearTimeout(this.#timer);
    this.#timer = null;
    this.#firstAt = null;
  }

  #end(): void {
    this.#timer = null;
    this.#firstAt = null;
    if (!this.#closed) this.#fire();
  }
}
