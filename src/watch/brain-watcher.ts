/**
 * Keeps one armed brain fresh from file events: every root subscribed natively, events folded
 * by a burst window into one tick request, and guards for the native watcher's known holes:
 *
 *  (a) a folder created in a burst is watched but reports nothing inside it
 *      (parcel-bundler/watcher#97): a batch with a created folder, or more than
 *      RESUBSCRIBE_EVENT_COUNT events, re-subscribes that root after the tick;
 *  (b) queue overflow is dropped silently: a safety-net tick every SAFETY_NET_TICK_MS;
 *  (c) a deleted root goes silent: it is unsubscribed and looked for again at every poll,
 *      then subscribed fresh;
 *  (d) a subscribe that fails (ENOSPC: the inotify watch limit) falls back to polling, with a
 *      `watcher_failed` alert that names the cause and the fix.
 *
 * While every root holds a native subscription, `backend` says `native`; otherwise the brain
 * is polled (an idle tick costs about one `git status`) and it says `poll(5s)`; once closed,
 * `none`. Events are hints: the tick's detection decides what changed.
 */
import { EventEmitter } from 'node:events';
import { stat } from 'node:fs/promises';
import { BurstWindow, type BurstWindowOptions } from './burst-window.js';
import { realTimers, type WatchTimers } from './timers.js';
import { NATIVE_WATCHER_OFF, nativeWatcherAdvice, type RootSubscription, type WatchBackend, type WatchEvent } from './native-backend.js';

/** Polling period when a root has no native subscription, in ms: an idle tick ≈ one git status. */
export const POLL_INTERVAL_MS = 5000;
/** The native queue can overflow silently: tick this often anyway, in ms. */
export const SAFETY_NET_TICK_MS = 5 * 60_000;
/** A batch this large may hide created folders (and the watcher's own limits): re-subscribe. */
export const RESUBSCRIBE_EVENT_COUNT = 1000;
/** Created paths stat'ed per batch to find new folders; past this the root is re-subscribed. */
const CREATED_PATHS_CHECKED = 64;
/** A root whose subscribe failed (not vanished) is tried again this often, in ms. */
export const SUBSCRIBE_RETRY_MS = 60_000;

export interface BrainWatcherOptions {
  /** Absolute paths of the brain's ingest roots. */
  roots: readonly string[];
  /** Asks the brain's vigil for a tick; resolves when that tick ends. Never rejects. */
  requestTick: () => Promise<unknown>;
  /** The native backend, or why it is unavailable (then every root is polled). */
  backend: WatchBackend | Error;
  /** Records a brain alert (fail-open: the watcher never throws for it). */
  alert: (code: string, message: string, path?: string) => void;
  /** Polling period, in ms. @default POLL_INTERVAL_MS */
  pollMs?: number;
  /** Safety-net tick period, in ms. @default SAFETY_NET_TICK_MS */
  safetyNetMs?: number;
  burst?: Omit<BurstWindowOptions, 'timers'>;
  timers?: WatchTimers;
  log?: (line: string) => void;
}

type RootState =
  | { kind: 'subscribed'; sub: RootSubscription; resubscribe: boolean }
  | { kind: 'missing' }
  | { kind: 'failed'; at: number };

export class BrainWatcher extends EventEmitter {
  readonly #o: Required<Omit<BrainWatcherOptions, 'burst' | 'backend'>> & { backend: WatchBackend | Error };
  readonly #burst: BurstWindow;
  readonly #roots = new Map<string, RootState>();
  #pollTimer: unknown = null;
  #safetyTimer: unknown = null;
  #closed = false;
  #fallbackSaid = false;
  #ticking = new Set<Promise<void>>();
  /** Stats of created paths still running: the repair after a tick waits for them. */
  #checks = new Set<Promise<void>>();

  constructor(options: BrainWatcherOptions) {
    super();
    const pollMs = options.pollMs ?? POLL_INTERVAL_MS;
    if (!Number.isInteger(pollMs) || pollMs < 100) throw new TypeError(`options.pollMs must be an integer ≥ 100 (ms), got ${String(pollMs)}`);
    this.#o = {
      ...options,
      // `??`, not spread defaults: an option passed as undefined keeps its default.
      timers: options.timers ?? realTimers,
      safetyNetMs: options.safetyNetMs ?? SAFETY_NET_TICK_MS,
      log: options.log ?? ((line) => process.stderr.write(`gardener watch: ${line}\n`)),
      pollMs,
    };
    this.#burst = new BurstWindow(() => void this.#tick('burst'), { ...options.burst, timers: this.#o.timers });
  }

  /** `native` while every root holds a native subscription, `poll(Ns)` otherwise, `none` once closed. */
  get backend(): string {
    if (this.#closed) return 'none';
    const native = this.#o.backend instanceof Error ? null : this.#o.backend.name;
    if (native && this.#roots.size > 0 && [...this.#roots.values()].every((r) => r.kind === 'subscribed')) return native;
    return `poll(${Math.round(this.#o.pollMs / 1000)}s)`;
  }

  /** Subscribes every root; a root that cannot be is polled. Resolves once all have answered. */
  async start(): Promise<void> {
    if (this.#o.backend instanceof Error) {
      const refusal = { message: this.#o.backend.message, code: (this.#o.backend as NodeJS.ErrnoException).code };
      this.#o.alert('watcher_failed', `the native file watcher is not used (${refusal.message}): polling every ${this.#o.pollMs / 1000}s instead. ${nativeWatcherAdvice(refusal)}`);
    }
    await Promise.all(this.#o.roots.map((root) => this.#subscribe(root)));
    this.#armTimers();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#burst.close();
    this.#o.timers.clearTimeout(this.#pollTimer);
    this.#o.timers.clearTimeout(this.#safetyTimer);
    const subs = [...this.#roots.values()].flatMap((r) => (r.kind === 'subscribed' ? [r.sub] : []));
    this.#roots.clear();
    await Promise.allSettled(subs.map((s) => s.unsubscribe()));
    await this.idle();
    this.emit('closed');
  }

  async #subscribe(root: string): Promise<void> {
    if (this.#closed) return;
    const backend = this.#o.backend;
    if (backend instanceof Error) {
      this.#roots.set(root, { kind: 'failed', at: this.#o.timers.now() });
      return;
    }
    try {
      await stat(root);
    } catch {
      this.#markMissing(root);
      return;
    }
    try {
      const sub = await backend.subscribe(root, (err, events) => this.#onEvents(root, err, events));
      if (this.#closed) return void sub.unsubscribe().catch(() => {});
      this.#roots.set(root, { kind: 'subscribed', sub, resubscribe: false });
      if (backend.name !== 'native' && !this.#fallbackSaid) {
        this.#fallbackSaid = true;
        const why = backend.instead?.message ?? 'it could not load';
        this.#o.alert('watcher_failed', `the native file watcher is not used (${why}): ${root} is watched with ${backend.name} instead. ${nativeWatcherAdvice(backend.instead)}`, root);
      }
      this.emit('subscribed', root);
    } catch (err) {
      const again = this.#roots.get(root)?.kind === 'failed';
      this.#roots.set(root, { kind: 'failed', at: this.#o.timers.now() });
      // One alert per failure, not one per retry (SUBSCRIBE_RETRY_MS).
      if (!again) this.#o.alert('watcher_failed', describeFailure(root, err as NodeJS.ErrnoException, this.#o.pollMs), root);
    }
  }

  #markMissing(root: string): void {
    const was = this.#roots.get(root);
    this.#roots.set(root, { kind: 'missing' });
    if (was?.kind === 'subscribed') void was.sub.unsubscribe().catch(() => {});
    if (was?.kind !== 'missing') {
      this.emit('missing', root);
      this.#o.alert('watcher_failed', `the ingest root ${root} is gone: it is looked for every ${this.#o.pollMs / 1000}s and watched again when it comes back (if it will not, \`gardener brains --prune\` removes its brain)`, root);
    }
    this.#armTimers();
  }

  #onEvents(root: string, err: Error | null, events: WatchEvent[]): void {
    if (this.#closed) return;
    if (err) {
      // The subscription is dead (a watcher error, a crashed watch host): say so (polling),
      // detect fully at the next tick, and subscribe afresh right after it.
      this.#o.log(`watcher error on ${root}: ${err.message}`);
      const state = this.#roots.get(root);
      if (state?.kind === 'subscribed') {
        void state.sub.unsubscribe().catch(() => {});
        this.#roots.set(root, { kind: 'failed', at: -Infinity });
        this.emit('lost', root);
      }
      void stat(root).then(() => {}, () => this.#markMissing(root));
      this.#armTimers();
      this.#burst.hint();
      return;
    }
    this.emit('events', root, events.length);
    if (events.some((e) => e.type === 'delete' && e.path === root)) {
      this.#markMissing(root);
      this.#burst.hint();
      return;
    }
    const created = events.filter((e) => e.type === 'create');
    if (events.length > RESUBSCRIBE_EVENT_COUNT || created.length > CREATED_PATHS_CHECKED) this.#needsResubscribe(root);
    else if (created.length > 0) {
      const check = this.#checkCreatedFolders(root, created).finally(() => this.#checks.delete(check));
      this.#checks.add(check);
    }
    this.#burst.hint();
  }

  async #checkCreatedFolders(root: string, created: WatchEvent[]): Promise<void> {
    const kinds = await Promise.allSettled(created.map((e) => stat(e.path)));
    if (kinds.some((k) => k.status === 'fulfilled' && k.value.isDirectory())) this.#needsResubscribe(root);
  }

  #needsResubscribe(root: string): void {
    const state = this.#roots.get(root);
    if (state?.kind === 'subscribed') state.resubscribe = true;
  }

  /** One tick at a time from the watcher (the vigil folds extra requests into its follow-up). */
  #tick(reason: string): Promise<void> {
    this.emit('tick-requested', reason);
    const run = (async () => {
      await this.#o.requestTick();
      await Promise.all(this.#checks);
      await this.#repair();
      this.emit('ticked', reason);
    })();
    const tracked = run.finally(() => this.#ticking.delete(tracked));
    this.#ticking.add(tracked);
    return tracked;
  }

  /** Resolves when no burst is waiting for its window and no tick of the watcher runs. */
  async settled(): Promise<void> {
    for (;;) {
      if (this.#ticking.size > 0) await this.idle();
      else if (this.#burst.pending && !this.#closed) await new Promise((r) => this.once('ticked', r));
      else return;
    }
  }

  /** Resolves when no tick the watcher asked for is still running (with its repair). */
  async idle(): Promise<void> {
    while (this.#ticking.size > 0) await Promise.all(this.#ticking);
  }

  /** After a tick: re-subscribe roots that asked for it, and look for missing or failed ones. */
  async #repair(): Promise<void> {
    const now = this.#o.timers.now();
    for (const [root, state] of [...this.#roots]) {
      if (this.#closed) return;
      if (state.kind === 'subscribed' && state.resubscribe) {
        // A fresh subscription sees folders the old one never watched (parcel-bundler/watcher#97).
        await state.sub.unsubscribe().catch(() => {});
        this.#roots.delete(root);
        await this.#subscribe(root);
      } else if (state.kind === 'missing' || (state.kind === 'failed' && now - state.at >= SUBSCRIBE_RETRY_MS)) {
        await this.#subscribe(root);
        if (this.#roots.get(root)?.kind === 'subscribed') this.#burst.hint();
      }
    }
    this.#armTimers();
  }

  #armTimers(): void {
    if (this.#closed) return;
    const t = this.#o.timers;
    const polling = this.backend.startsWith('poll');
    if (polling && this.#pollTimer === null) {
      const poll = () => {
        this.#pollTimer = null;
        if (this.#closed) return;
        void this.#tick('poll');
      };
      this.#pollTimer = t.setTimeout(poll, this.#o.pollMs);
    }
    if (!polling && this.#pollTimer !== null) {
      t.clearTimeout(this.#pollTimer);
      this.#pollTimer = null;
    }
    if (this.#safetyTimer === null) {
      this.#safetyTimer = t.setTimeout(() => {
        this.#safetyTimer = null;
        if (this.#closed) return;
        void this.#tick('safety-net');
      }, this.#o.safetyNetMs);
    }
  }
}

function describeFailure(root: string, err: NodeJS.ErrnoException, pollMs: number): string {
  const polling = `polling every ${pollMs / 1000}s instead`;
  // First: a load failure's text may name ENOSPC (the reason Node's fs.watch is no fallback).
  if (err.code === 'ELOAD' || err.code === NATIVE_WATCHER_OFF) {
    return `the native file watcher is not used for ${root} (${err.message}): ${polling}. ${nativeWatcherAdvice({ message: err.message, code: err.code })}`;
  }
  if (err.code === 'ENOSPC' || /ENOSPC|inotify/i.test(err.message)) {
    return `the native watcher of ${root} hit the inotify watch limit (${err.message}): ${polling}. ` +
      'Raise the limit: sudo sysctl fs.inotify.max_user_watches=524288 (and put it in /etc/sysctl.d/ to keep it).';
  }
  return `the native watcher of ${root} failed (${err.message}): ${polling}`;
}
