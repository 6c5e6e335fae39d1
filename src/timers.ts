/**
 * The clock and timers the background work runs on (burst windows, the proxy's liveness
 * check), injectable so tests drive them by advancing a clock instead of waiting. Real timers
 * are unref'd: a timer never keeps a process alive.
 *
 * This file is loaded by the `gardener mcp` proxy: it imports nothing.
 */
export interface Timers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = Object.freeze({
  now: () => Date.now(),
  setTimeout(fn: () => void, ms: number) {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clearTimeout: (handle: unknown) => clearTimeout(handle as NodeJS.Timeout),
});
