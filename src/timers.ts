/**
 * The clock and timers the background work runs on (burst windows, the proxy's liveness
 * check), injectable so tests drive them by advancing a clock instead of waiting. Real timers
 * are unref'd: a timer never keeps a process alive.
 *
 * Every bound on time (a window, an idle bound, a deadline) is read on `monotonicNow`, the
 * clock the timers themselves run on, never on the wall clock. An owner lives for weeks on
 * laptops: the wall clock jumps ahead by the length of each sleep, which the timers and this
 * clock do not count (the process did not run), and an NTP step can move it back. Read on
 * the wall clock, a sleep with a call waiting made the proxy leave a live owner, a lunch break
 * with the lid closed ended every HTTP session, and a step back held a burst past its cap
 * (test/a-wall-clock-jump-drops-no-session-and-leaves-no-live-owner.test.ts). What is stored
 * or shown as a time of day stays on `Date.now`.
 *
 * This file is loaded by the `gardener mcp` proxy: it imports nothing.
 */
export interface Timers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Milliseconds on the monotonic clock the timers run on (`performance.now()`): for durations only. */
export const monotonicNow = (): number => performance.now();

export const realTimers: Timers = Object.freeze({
  now: monotonicNow,
  setTimeout(fn: () => void, ms: number) {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clearTimeout: (handle: unknown) => clearTimeout(handle as NodeJS.Timeout),
});

/**
 * A bound in ms from the environment variable `name` (tests and loaded machines change the
 * proxy's bounds this way): unset or empty gives `fallback`; a value that is not a whole
 * number of ms of at least `min` is said through `log` and ignored.
 */
export function msFromEnv(name: string, fallback: number, min: number, log: (line: string) => void): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const ms = Number(raw);
  if (Number.isInteger(ms) && ms >= min) return ms;
  log(`${name} must be a whole number of ms (at least ${min}), got "${raw}": using ${fallback}`);
  return fallback;
}
