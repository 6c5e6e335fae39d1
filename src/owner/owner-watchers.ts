/**
 * The owner's live watchers: one BrainWatcher for every armed brain this home knows, whether
 * or not the brain is open in the LRU (an armed brain stays watched after eviction; its next
 * event re-opens it). At start the registry is read and every armed brain subscribed, with no
 * scan before the listeners are up; then each brain it starts watching gets one resume tick
 * (resume-queue.ts): one brain at a time, brains with saved work (a backlog, a tick lease a
 * crash left) first, so what a killed owner left is finished and what changed while no owner
 * ran is detected without waiting for an event.
 *
 * Arming reaches it two ways: `daemon_start`/`daemon_stop` through any of the owner's
 * sessions (at once), and a re-read of the registry every ARMED_RESCAN_MS (arming done by
 * another process: the CLI, an in-process `gardener mcp`). All watchers share one watch host
 * process (ChildWatchBackend): a native crash costs a restart, never the owner.
 */
import type { Brain, Brains } from '../brain/index.js';
import { brainFile } from '../brain/index.js';
import { countBacklog, openStore, readVigil, type Database } from '../store/index.js';
import type { Vigils } from '../vigil/index.js';
import { BrainWatcher, ChildWatchBackend, type BrainWatcherOptions, type WatchBackend, type WatchTimers } from '../watch/index.js';
import type { Logger } from '../log.js';
import { ResumeQueue } from './resume-queue.js';

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
  readonly #resume: ResumeQueue;
  #rescanTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: OwnerWatchersOptions) {
    this.#o = options;
    this.#resume = new ResumeQueue((id, err) => options.log.warn('resume tick failed', { brain: id, error: err.message }));
    this.#backend = options.backend ?? new ChildWatchBackend({ log: (line) => options.log.warn(line) });
  }

  /** Subscribes every armed brain of the registry, then re-reads it every ARMED_RESCAN_MS. */
  async start(): Promise<void> {
    await this.rescan();
    const every = this.#o.rescanMs ?? ARMED_RESCAN_MS;
    this.#rescanTimer = setInterval(() => void this.rescan().catch((err) => this.#o.log.warn('armed rescan failed', { error: (err as Error).message })), every);
    this.#rescanTimer.unref();
  }

  /**
   * Watches the armed brains the registry names (brains with saved work first, so their resume
   * ticks come first) and stops watching the others.
   */
  async rescan(): Promise<void> {
    const entries = this.#o.brains.registry().list();
    const armed = new Map<string, { roots: readonly string[]; pending: boolean }>();
    for (const entry of entries) {
      const state = this.#stateOf(entry.id);
      if (state.armed) armed.set(entry.id, { roots: entry.roots, pending: state.pending });
    }
    const order = [...armed].sort(([, a], [, b]) => Number(b.pending) - Number(a.pending));
    for (const [id, { roots, pending }] of order) await this.watch(id, roots, { pending });
    for (const id of [...this.#watching.keys()]) if (!armed.has(id)) await this.unwatch(id);
  }

  /** Resolves when no resume tick is running or waiting (tests, and the fault suite's owner). */
  resumed(): Promise<void> {
    return this.#resume.idle();
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

  /**
   * Starts watching a brain: subscribes its roots, then queues its resume tick (`pending`: it
   * has saved work, so it goes before brains that only need a detection).
   */
  async watch(id: string, roots: readonly string[], { pending = false }: { pending?: boolean } = {}): Promise<void> {
    if (this.#closed || this.#watching.has(id)) return;
    const { brains, vigils, log } = this.#o;
    // Re-opened through the LRU at each tick: an evicted brain comes back on its next event.
    const requestTick = () => vigils.get(brains.open(id, roots)).request();
    const watcher = new BrainWatcher({
      ...this.#o.watcher,
      roots,
      backend: this.#backend,
      timers: this.#o.timers,
      requestTick,
      alert: (code, message, path) => {
        log.warn(message, { brain: id, alert: code });
        void brains.open(id, roots).writer.recordAlert({ code, message, path }, Date.now()).catch((err: Error) => log.warn('alert not recorded', { brain: id, error: err.message }));
      },
      log: (line) => log.info(line, { brain: id }),
    });
    this.#watching.set(id, watcher);
    watcher.on('ticked', (reason: string) => log.debug('watch tick', { brain: id, reason }));
    await watcher.start();
    // After the subscription: whatever changes during the resume tick is an event for the next.
    if (this.#watching.get(id) === watcher) {
      this.#resume.add(id, pending, async () => {
        if (this.#watching.get(id) !== watcher) return;
        const outcome = await requestTick();
        // A brain no longer watched (removed, disarmed) ended its tick on purpose: nothing to say.
        if (this.#watching.get(id) !== watcher) return;
        if (outcome.ok) {
          const r = outcome.report;
          log.info('resumed', { brain: id, detected: r.detected, drained: r.drained, backlog_left: r.backlogLeft, ...(r.busyOwnerPid ? { busy_owner_pid: r.busyOwnerPid } : {}) });
        } else log.warn('resume tick failed', { brain: id, error: outcome.error.message });
      });
    }
    log.info('watching', { brain: id, roots, watch_backend: watcher.backend, resume: pending ? 'saved work' : 'detection' });
  }

  async unwatch(id: string): Promise<void> {
    const watcher = this.#watching.get(id);
    if (!watcher) return;
    this.#watching.delete(id);
    this.#resume.drop(id);
    await watcher.close();
    this.#o.log.info('not watching', { brain: id });
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#rescanTimer);
    await this.#resume.close();
    await Promise.allSettled([...this.#watching.keys()].map((id) => this.unwatch(id)));
    if (this.#backend instanceof ChildWatchBackend) await this.#backend.close();
  }

  /** Whether a brain is armed, and whether it has saved work (a backlog, a tick lease left set). */
  #stateOf(id: string): { armed: boolean; pending: boolean } {
    const read = (db: Database) => {
      const v = readVigil(db);
      return { armed: v.armed, pending: v.armed && (v.tickInFlight || countBacklog(db) > 0) };
    };
    const open = this.#o.brains.openBrains().find((b) => b.id === id);
    try {
      if (open) return read(open.reader);
      const db = openStore(brainFile(this.#o.home, id), { readonly: true });
      try {
        return read(db);
      } finally {
        db.close();
      }
    } catch {
      // A brain whose store is missing or unreadable is not watched; its own calls say why.
      return { armed: false, pending: false };
    }
  }
}
