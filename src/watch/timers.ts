/**
 * The clock and timers the watch stage runs on, injectable so tests drive bursts by advancing
 * a clock instead of waiting. Real timers are unref'd: a watcher never keeps a process alive.
 */
export interface WatchTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: WatchTimers = Object.freeze({
  now: () => Date.now(),
  setTimeout(fn: () => void, ms: number) {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clearTimeout: (handle: unknown) => clearTimeout(handle as NodeJS.Timeout),
});
