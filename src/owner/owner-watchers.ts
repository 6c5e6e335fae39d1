/**
 * The owner's live watchers: one BrainWatcher for every armed brain this home knows, whether
 * or not the brain is open in the LRU (an armed brain stays watched after eviction; its next
 * event re-opens it). Subscribing is the whole resume: at start the registry is read and every
 * armed brain subscribed, with no scan before the listeners are up (the first burst, poll or
 * safety-net tick does the detection).
 *
 * Arming reaches it two ways: `daemon_start`/`daemon_stop` through any of the owner's
 * sessions (at once), and a re-read of the registry every ARMED_RESCAN_MS (arming done by
 * another process: the CLI, an in-process `gardener mcp`). All watchers share one watch host
 * process (ChildWatchBackend): a native crash costs a restart, never the owner.
 */
import type { Brain, Brains } from '../brain/index.js';
import { brainFile } from '../brain/index.js';
import { openStore, readVigil } from '../store/index.js';
import type { Vigils } from '../vigil/index.js';
import { BrainWatcher, ChildWatchBackend, type BrainWatcherOptions, type WatchBackend, type WatchTimers } from '../watch/index.js';
import type { Logger } from './log.js';

/** Arming done by another process is noticed within this, in ms (a registry read + one row per brain). */
export const ARMED_RESCAN_MS = 30_000;

export interface OwnerWatchersOptions {
  home: string;
  brains: Brains;
  vigils: Vigils;
  log: Logger;
  /** @default one ChildWatchBackend for the whole owner */
  backend?: WatchBackend | Error;
  timers?: WatchTimers;
  /** Passed to every BrainWatcher (tests shorten the windows). */
  watcher?: Pick<BrainWatcherOptions, 'pollMs' | 'safetyNetMs' | 'burst'>;
  /** @default ARMED_RESCAN_MS */
  rescanMs?: number;
}

export class OwnerWatchers {
  readonly #o: OwnerWatchersOptions;
  readonly #backend: WatchBackend | Error;
  readonly #watching = new Map<string, BrainWatcher>();
  #rescanTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: OwnerWatchersOptions) {
    this.#o = options;
    this.#backend = options.backend ?? new ChildWatchBackend({ log: (line) => options.log.warn(line) });
  }

  /** Subscribes every armed brain of the registry, then re-reads it every ARMED_RESCAN_MS. */
  async start(): Promise<void> {
    await this.rescan();
    const every = this.#o.rescanMs ?? ARMED_RESCAN_MS;
    this.#rescanTimer = setInterval(() => void this.rescan().catch((err) => this.#o.log.warn('armed rescan failed', { error: (err as Error).message })), every);
    this.#rescanTimer.unref();
  }

  /** Watches the armed brains the registry names and stops watching the others. */
  async rescan(): Promise<void> {
    const entries = this.#o.brains.registry().list();
    const armed = new Set<string>();
    for (const entry of entries) {
      if (this.#isArmed(entry.id)) armed.add(entry.id);
    }
    for (const entry of entries) if (armed.has(entry.id)) await this.watch(entry.id, entry.roots);
    for (const id of [...this.#watching.keys()]) if (!armed.has(id)) await this.unwatch(id);
  }

  /** `native` / `poll(5s)` while this owner watches the brain, `none` otherwise. */
  backendOf(id: string): string {
    return this.#watching.get(id)?.backend ?? 'none';
  }

  /** Every watched brain and what watches it (for status and `GET /api/brains`). */
  describe(): { id: string; watch_backend: string }[] {
    return [...this.#watching].map(([id, w]) => ({ id, watch_backend: w.backend }));
  }

  /** A tool armed or disarmed a brain through one of the owner's sessions. Never rejects. */
  async armedChanged(brain: Brain, armed: boolean): Promise<void> {
    try {
      await (armed ? this.watch(brain.id, brain.roots) : this.unwatch(brain.id));
    } catch (err) {
      this.#o.log.warn('watcher change failed', { brain: brain.id, error: (err as Error).message });
    }
  }

  async watch(id: string, roots: readonly string[]): Promise<void> {
    if (this.#closed || this.#watching.has(id)) return;
    const { brains, vigils, log } = this.#o;
    const watcher = new BrainWatcher({
      ...this.#o.watcher,
      roots,
      backend: this.#backend,
      timers: this.#o.timers,
      // Re-opened through the LRU at each tick: an evicted brain comes back on its next event.
      requestTick: () => vigils.get(brains.open(id, roots)).request(),
      alert: (code, message, path) => {
        log.warn(message, { brain: id, alert: code });
        void brains.open(id, roots).writer.recordAlert({ code, message, path }, Date.now()).catch((err: Error) => log.warn('alert not recorded', { brain: id, error: err.message }));
      },
      log: (line) => log.info(line, { brain: id }),
    });
    this.#watching.set(id, watcher);
    watcher.on('ticked', (reason: string) => log.debug('watch tick', { brain: id, reason }));
    await watcher.start();
    log.info('watching', { brain: id, roots, watch_backend: watcher.backend });
  }

  async unwatch(id: string): Promise<void> {
    const watcher = this.#watching.get(id);
    if (!watcher) return;
    this.#watching.delete(id);
    await watcher.close();
    this.#o.log.info('not watching', { brain: id });
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#rescanTimer);
    await Promise.allSettled([...this.#watching.keys()].map((id) => this.unwatch(id)));
    if (this.#backend instanceof ChildWatchBackend) await this.#backend.close();
  }

  #isArmed(id: string): boolean {
    const open = this.#o.brains.openBrains().find((b) => b.id === id);
    try {
      if (open) return readVigil(open.reader).armed;
      const db = openStore(brainFile(this.#o.home, id), { readonly: true });
      try {
        return readVigil(db).armed;
      } finally {
        db.close();
      }
    } catch {
      // A brain whose store is missing or unreadable is not watched; its own calls say why.
      return false;
    }
  }
}
