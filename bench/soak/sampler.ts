/**
 * Every SAMPLE_EVERY_MS, what the owner holds: RSS, each thread's heap (asked of the owner:
 * its status carries them), descriptors, inotify watches, threads, children and zombies, and
 * how many sessions the soak has open. A sample taken with no session open and the brains
 * settled is marked `quiet`: the levels that must come back are read from those.
 */
import type { OwnerProcess, PageReturnsJson } from './owner-process.js';
import { lastingZombies, treeCounts } from './proc-tree.js';
import type { StoreSize } from './store-sizes.js';

export const SAMPLE_EVERY_MS = 10_000;
const MB = 1 << 20;

export interface Sample {
  /** ms since the day started (after the idle seeks). */
  t: number;
  rssMb: number;
  /** Of rssMb, the pages mapped from files: the runtime's code and native modules as they are touched (absent in older reports). */
  rssFileMb?: number;
  /** Physical heap size per thread, in MB (garbage not yet collected included: it is what RSS holds). */
  mainHeapMb: number | null;
  /** What the main thread's heap holds in objects, in MB (its garbage included until a collection): beside mainHeapMb, what the heap keeps free. */
  mainUsedMb?: number;
  poolHeapMb: number | null;
  writersHeapMb: number | null;
  /** Memory outside each heap its engine counts (ArrayBuffers, WebAssembly memory), in MB: main, one pool thread, the writers summed. */
  externalMb?: { main: number; pool: number | null; writers: number | null };
  fds: number;
  threads: number;
  watches: number;
  /** The folders the watch backend watches under the soak's roots (watched-folders.ts), read with quiet samples. */
  folders?: number;
  children: number;
  /** Children still zombies ZOMBIE_GRACE_MS after the reading (bench/soak/proc-tree.ts). */
  zombies: number;
  zombieNames?: string[];
  /** Zombies the reading saw that their parent reaped within the grace: every child's exit. */
  zombiesReaped?: number;
  childFds: number;
  childThreads: number;
  sessionsOpen: number;
  /** The page returns each thread has run so far (the writers summed; the pool as one of its threads answered), when the status said. */
  pageReturns?: { main: PageReturnsJson | null; pool: PageReturnsJson | null; writers: PageReturnsJson };
  /** Each brain's store on disk (store-sizes.ts), by brain kind. */
  stores?: Record<string, StoreSize>;
  /** Backlog summed over the open brains, when the status answered. */
  backlog: number | null;
  quiet: boolean;
}

export class Sampler {
  readonly samples: Sample[] = [];
  #timer: NodeJS.Timeout | undefined;
  #busy = false;
  #t0 = performance.now();

  constructor(
    private owner: OwnerProcess,
    private sessionsOpen: () => number,
    private log: (line: string) => void,
    /** The folders watched under the soak's roots (watched-folders.ts), read with quiet samples. */
    private folders?: () => number,
    /** Each brain's store on disk (store-sizes.ts). */
    private stores?: () => Record<string, StoreSize>,
  ) {}

  /** Samples from now on, every SAMPLE_EVERY_MS; each sample's `t` counts from `t0`, the day's start. */
  start(t0: number): void {
    this.#t0 = t0;
    this.#timer = setInterval(() => void this.take(false), SAMPLE_EVERY_MS);
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** One sample now (`quiet`: the caller saw no session open and the brains settled). */
  async take(quiet: boolean): Promise<Sample | null> {
    if (this.#busy && !quiet) return null;
    this.#busy = true;
    try {
      // /proc first: the status dial opens a connection of its own in the owner.
      const c = treeCounts(this.owner.pid);
      let mainHeapMb: number | null = null;
      let mainUsedMb: number | undefined;
      let poolHeapMb: number | null = null;
      let writersHeapMb: number | null = null;
      let backlog: number | null = null;
      let pageReturns: Sample['pageReturns'];
      let externalMb: Sample['externalMb'];
      try {
        const s = await this.owner.status();
        const h = s.heaps;
        if (h) {
          mainHeapMb = h.main.heap / MB;
          mainUsedMb = h.main.used / MB;
          poolHeapMb = h.pool ? h.pool.heap / MB : null;
          const w = Object.values(h.writers);
          writersHeapMb = w.length ? w.reduce((a, x) => a + x.heap, 0) / MB : null;
          externalMb = { main: h.main.external / MB, pool: h.pool ? h.pool.external / MB : null, writers: w.length ? w.reduce((a, x) => a + x.external, 0) / MB : null };
          if (h.main.returns !== undefined) {
            const writers = { count: 0, ms: 0 };
            for (const x of w) {
              writers.count += x.returns?.count ?? 0;
              writers.ms += x.returns?.ms ?? 0;
            }
            pageReturns = { main: h.main.returns, pool: h.pool?.returns ?? null, writers };
          }
        }
        backlog = s.brains.reduce((a, b) => a + (b.backlog ?? 0), 0);
      } catch (err) {
        this.log(`soak: status failed: ${(err as Error).message}`);
      }
      const lasting = await lastingZombies(c.zombieList);
      const sample: Sample = {
        t: Math.round(performance.now() - this.#t0),
        rssMb: c.owner.rssMb,
        ...(Number.isFinite(c.owner.rssFileMb) ? { rssFileMb: c.owner.rssFileMb } : {}),
        mainHeapMb,
        ...(mainUsedMb === undefined ? {} : { mainUsedMb }),
        poolHeapMb,
        writersHeapMb,
        ...(externalMb ? { externalMb } : {}),
        fds: c.owner.fds,
        threads: c.owner.threads,
        watches: c.watches,
        ...(quiet && this.folders ? { folders: this.folders() } : {}),
        children: c.children,
        zombies: lasting.length,
        ...(lasting.length ? { zombieNames: lasting.map((z) => z.comm) } : {}),
        ...(c.zombies > lasting.length ? { zombiesReaped: c.zombies - lasting.length } : {}),
        childFds: c.childFds,
        childThreads: c.childThreads,
        sessionsOpen: this.sessionsOpen(),
        ...(pageReturns ? { pageReturns } : {}),
        ...(this.stores ? { stores: this.stores() } : {}),
        backlog,
        quiet,
      };
      this.samples.push(sample);
      return sample;
    } finally {
      this.#busy = false;
    }
  }
}
