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
