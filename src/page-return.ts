/**
 * A long-lived thread gives its heap's garbage pages back to the system once the heap has grown
 * since it last did: every PAGE_RETURN_CHECK_MS the thread reads its heap's physical size, and
 * when that is PAGE_RETURN_GROWTH_BYTES above the least it held since its last return, it runs the one
 * collection its runtime has that hands emptied pages back (returnPagesNow()). An idle thread's
 * heap does not grow, so it only reads a number; the timer is unref'd.
 *
 * Why: the owner's live heaps stay flat over a working day, but what the heaps hold does not.
 * V8 keeps the pages of a collected old generation (and sizes the next one from them), so in a
 * 30-minute soak of `gardener serve` the main thread's old space went 38.7 -> 43.5 MB for a live
 * set of 29.7 -> 31.7 MB, and the writers' physical heaps 30 -> 34 MB with their live sets flat
 * (docs/reliability.md). Measured on Node 24, two 16-minute soaks side by side, every thread
 * running the page-returning collection every 30 s against none: heap slopes main -0.16 and
 * writers -0.01 MB/10 min against 5.76 and 5.10, RSS medians 233 MB against 276, seek p99 1.63x
 * idle against 1.66x. This file runs it only when a heap grew, so a quiet owner pays nothing.
 *
 * What each runtime has, measured (a heap grown to 140-200 MB by a million objects of which
 * 20,000 stay live, with the heap flags of src/heap-growth.ts; RSS polled for 2 s after):
 * - V8 12 and later (Node 24: 13.6): `gc({ type: 'major', execution: 'sync', flavor:
 *   'last-resort' })`, V8's collect-all-available-garbage: the heap 7 MB for 6 live, RSS
 *   199 -> 60 MB within 25 ms. Its plain gc() freed as much of the heap but put the pages in
 *   V8's pool, which gives them back only when the memory reducer finds the thread idle: RSS
 *   196 -> 187 MB, and 61 MB 8.1 s later (a busy owner may never be idle that long).
 * - V8 11 (Node 20: 11.3): gc() with `--compact-on-every-full-gc` set for that one collection.
 *   Plain gc() frees the dead objects' pages (the heap 10 MB, RSS 208 -> 66 MB within 60 ms; the
 *   pages are unmapped on another thread) but does not move the survivors together, so a page
 *   that keeps one living object stays: in a 16-minute soak of `gardener serve` the main
 *   thread's old space held 40.7 MB for 30.7 MB in use, and a heap that kept one object in four
 *   (28 MB used) held 41 MB after plain gc(), 29 MB after the compacting one (49 against 81 ms).
 *   V8 12's last-resort collection compacts on its own (28.4 MB). The options object is not the
 *   same collection on V8 11: `{ type: 'major', execution: 'sync', flavor: 'last-resort' }` freed
 *   nothing (143 MB held; it ran a scavenge, 0.4 ms).
 * - Bun (JavaScriptCore): Bun.gc(true): capacity 148 -> 4.5 MB, RSS 208 -> 41 MB; Bun.gc(false)
 *   gave back 5 MB.
 * Node 22 (V8 12.4) is taken to collect as Node 24 does; it was not measured here.
 * Node has no gc() without --expose-gc; the flag is read when a context is made, so this sets it,
 * makes one context to take its gc function, and unsets it at once (no other context, worker or
 * user code, sees a global gc).
 *
 * Imported by the worker entries and the owner: it imports node:v8, node:vm and the ground only.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { onBun } from './heap-growth.js';
import { bunThreadHeap } from './bun-heap.js';
import { monotonicNow, realTimers, type Timers } from './timers.js';

/** How often a thread reads its heap's size, in ms. The Node 24 pair above collected this often. */
export const PAGE_RETURN_CHECK_MS = 30_000;

/**
 * How far a thread's heap may grow past the least it held since its last return before the next, in
 * bytes. What a heap holds beyond its live set creeps: in a 30-minute soak of `gardener serve`
 * (Node 20, docs/reliability.md) with a bound of a quarter of the heap (1 to 4 MB), the main
 * thread returned pages 6 times in the first 5 minutes and 4 times in the 25 after while its
 * heap crept 47 -> 50.5 MB under the bound, and the three store writers never reached theirs
 * (their sum 28.8 -> 34.5 MB): slopes 2.24 and 2.21 MB/10 min. A busy thread passes 1 MB within
 * one check, so it returns pages once per PAGE_RETURN_CHECK_MS, as every thread did in the
 * Node 24 pair above; an idle one allocates next to nothing and does not.
 */
export const PAGE_RETURN_GROWTH_BYTES = 1 << 20;

/** What a PageReturn reads and calls: this thread's real heap unless a test hands in its own. */
export interface PageProbe {
  /** The physical size of this thread's heap, in bytes (on Bun with what its objects hold outside it: bunHeldBytes). */
  heapBytes(): number;
  /** Collects and hands emptied pages back, synchronously. */
  returnPages(): void;
  /** A monotonic clock in ms, to time each return. */
  now(): number;
}

/** How often a thread returned pages and for how long, in total. */
export interface PageReturns {
  count: number;
  ms: number;
}

export interface PageReturnOptions {
  timers?: Timers;
  probe?: PageProbe;
  checkMs?: number;
  /** @default PAGE_RETURN_GROWTH_BYTES */
  growthBytes?: number;
  /**
   * Hands a due return to the thread's next good moment, which calls it once: the owner's main
   * thread waits for its last tool call to leave (src/dispatch/calls-in-flight.ts), so no answer
   * waits behind the collection. By default a return runs at the check that found it due.
   */
  moment?: (run: () => void) => void;
}

/** One thread's page returns: check() reads the heap and returns pages when it grew. */
export class PageReturn {
  readonly #timers: Timers;
  readonly #probe: PageProbe;
  readonly #checkMs: number;
  readonly #growthBytes: number;
  readonly #moment: ((run: () => void) => void) | undefined;
  #due = false;
  #kept: number;
  #timer: unknown = null;
  #stopped = false;
  readonly returns: PageReturns = { count: 0, ms: 0 };

  constructor(options: PageReturnOptions = {}) {
    this.#timers = options.timers ?? realTimers;
    this.#probe = options.probe ?? threadProbe();
    this.#checkMs = options.checkMs ?? PAGE_RETURN_CHECK_MS;
    this.#growthBytes = options.growthBytes ?? PAGE_RETURN_GROWTH_BYTES;
    this.#moment = options.moment;
    this.#kept = this.#probe.heapBytes();
  }

  /** Checks every checkMs until stop(). */
  start(): this {
    this.#schedule();
    return this;
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer !== null) this.#timers.clearTimeout(this.#timer);
    this.#timer = null;
  }

  /**
   * Returns pages if the heap grew growthBytes past the least it has held since the last return
   * (or since the start), at once or at the moment options.moment picks; says whether it did so at
   * once. The least, not the first reading: a thread's heap is at its largest while its modules
   * compile (a store writer's 14.8 MB at start was 8.2 MB ten seconds later), and growth measured
   * from there went unseen for a whole soak.
   */
  check(): boolean {
    if (this.#due) return false;
    const now = this.#probe.heapBytes();
    if (now < this.#kept) this.#kept = now;
    if (now - this.#kept < this.#growthBytes) return false;
    if (!this.#moment) {
      this.#returnNow();
      return true;
    }
    this.#due = true;
    this.#moment(() => {
      this.#due = false;
      if (!this.#stopped) this.#returnNow();
    });
    return false;
  }

  #returnNow(): void {
    const started = this.#probe.now();
    this.#probe.returnPages();
    this.returns.count++;
    this.returns.ms += this.#probe.now() - started;
    this.#kept = this.#probe.heapBytes();
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = this.#timers.setTimeout(() => {
      this.check();
      this.#schedule();
    }, this.#checkMs);
  }
}

/** This thread's collection that hands emptied pages back (see the top of this file). */
export function returnPagesNow(): void {
  collector()();
}

let thisCollector: (() => void) | undefined;
function collector(): () => void {
  if (thisCollector) return thisCollector;
  if (onBun) {
    const bun = (globalThis as unknown as { Bun: { gc(full: boolean): void } }).Bun;
    return (thisCollector = () => bun.gc(true));
  }
  setFlagsFromString('--expose-gc');
  let gc: unknown;
  try {
    gc = runInNewContext('typeof gc === "function" ? gc : undefined');
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  // A runtime that ignores the flag gives no function: the thread then keeps its pages, as before.
  if (typeof gc !== 'function') return (thisCollector = () => {});
  const lastResort = Number(process.versions.v8.split('.')[0]) >= 12;
  return (thisCollector = lastResort ? () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' }) : () => compacting(gc as () => void));
}

/**
 * One full collection that also moves survivors out of part-free pages (V8 11). The flag is
 * process-wide, so a collection another thread runs meanwhile compacts too: it costs that one
 * more time, never a wrong result.
 */
function compacting(gc: () => void): void {
  setFlagsFromString('--compact-on-every-full-gc');
  try {
    gc();
  } finally {
    setFlagsFromString('--no-compact-on-every-full-gc');
  }
}

/**
 * What a Bun thread holds: its heap of cells and the memory its objects keep outside it (the
 * storage of ArrayBuffers and large strings), garbage included until a collection. A store
 * writer receives each file's text as a moved buffer, so its garbage is mostly there: in a
 * 30-minute Bun soak the writers' external memory swung 2.6 -> 14.3 MB and rose 3.50 MB/10 min
 * while their heaps of cells stayed put, and the returns, reading the cells alone, ran 5 times.
 * (V8's physical size leaves that memory out too, but there it did not pile up: the writers'
 * external memory rose 0.05 MB/10 min in the 30-minute Node 24 soak.)
 */
function bunHeldBytes(): number {
  const h = bunThreadHeap();
  return h.heap + h.external;
}

/** This thread's heap and collection. */
export function threadProbe(): PageProbe {
  return {
    heapBytes: onBun ? bunHeldBytes : () => getHeapStatistics().total_physical_size,
    returnPages: returnPagesNow,
    now: monotonicNow,
  };
}

let thisThread: PageReturn | undefined;

/**
 * Starts this thread's page returns on real timers, once per thread; the later calls get the same.
 * `moment`: see PageReturnOptions (the first call's is kept).
 */
export function keepPagesReturned(moment?: (run: () => void) => void): PageReturn {
  thisThread ??= new PageReturn({ moment }).start();
  return thisThread;
}

/** This thread's returns so far; null in a thread that does not run them (keepPagesReturned()). */
export function pageReturns(): PageReturns | null {
  return thisThread ? { ...thisThread.returns } : null;
}
