/**
 * The auto-reconciler of one brain: after a burst settles, refresh what the ratified skeleton
 * derives from the code map, and tell (one `skeleton_drift` alert) when new imports break a
 * `may_use` rule or new files fall in no room.
 *
 *   tick changed the map ──► deadline = now + AUTO_RECONCILE_QUIET_WINDOW_MS (persisted by
 *                            the tick, in the store) ──► this timer is armed for it
 *   deadline reached ──► no ratified skeleton: skip (a candidate is refreshed by a re-scan)
 *                    ──► a live candidate lease: yield, one window later (never wait on it)
 *                    ──► derive (in the store writer, off the main thread), write keyed on the
 *                        version read; moved meanwhile: exactly one retry, then an
 *                        `auto_reconcile_conflict` alert and stop. Never a loop.
 *
 * The deadline lives in the store, so a process restarted inside the window reconciles when it
 * comes back (`schedule()` on start). Fail-open like every vigil: a failure is logged and
 * recorded as a `reconcile_failed` alert, never thrown at anyone. Timers are injectable and
 * unref'd: they never keep a process alive.
 */
import { EventEmitter } from 'node:events';
import type { AlertInput } from '../store/index.js';
import { realTimers, type Timers } from '../timers.js';
import type { Derived, Violation } from './derive.js';
import type { ReconcileRead, SkeletonMeta } from './skeleton-store.js';

/**
 * How long the map must stay quiet before a reconcile: a burst (checkout, rebase, codegen, an
 * agent's edit-and-test loop) spans several ticks, and one derive after it settles costs less
 * than one per tick, while 45 s still reports drift within the minute.
 */
export const AUTO_RECONCILE_QUIET_WINDOW_MS = 45_000;
/** Items a drift alert lists of each kind; the counts stay exact. */
export const DRIFT_ALERT_MAX_ITEMS = 20;

/** What the reconciler needs of the store (the brain's writer; tests wrap it). All async. */
export interface ReconcileStore {
  skeletonMeta(): Promise<SkeletonMeta>;
  skeletonReadForReconcile(now: number): Promise<ReconcileRead>;
  skeletonWriteReconciled(storeVersion: number, derived: Derived, now: number): Promise<{ ok: true; storeVersion: number } | { ok: false; current: number }>;
  skeletonSetDeadline(at: number): Promise<void>;
  skeletonClearDeadline(atMost: number): Promise<void>;
  recordAlert(alert: AlertInput, now: number): Promise<number>;
}

export interface ReconcilerOptions {
  /** Wall clock, in ms. @default Date.now */
  now?: () => number;
  /** The quiet window's timer (src/timers.ts); deadlines are read on `now`. @default realTimers (unref'd) */
  timers?: Timers;
  /** @default AUTO_RECONCILE_QUIET_WINDOW_MS */
  quietWindowMs?: number;
  /** @default a line on stderr */
  log?: (line: string) => void;
}

export type ReconcileOutcome =
  | { kind: 'reconciled'; storeVersion: number; retried: boolean; driftAlertId: number | null }
  | { kind: 'skipped'; reason: 'no_skeleton' | 'candidate_only' }
  | { kind: 'yielded'; holder: string; until: number; nextAt: number }
  | { kind: 'conflict'; alertId: number | null }
  | { kind: 'failed'; message: string; alertId: number | null };

export class Reconciler extends EventEmitter {
  readonly brainId: string;
  #store: ReconcileStore;
  #now: () => number;
  #timers: Timers;
  #windowMs: number;
  #log: (line: string) => void;
  #timer: unknown = null;
  #timerAt: number | null = null;
  #running: Promise<ReconcileOutcome> | null = null;
  #closed = false;

  constructor(brainId: string, store: ReconcileStore, options: ReconcilerOptions = {}) {
    super();
    const w = options.quietWindowMs ?? AUTO_RECONCILE_QUIET_WINDOW_MS;
    if (!Number.isInteger(w) || w < 0) throw new TypeError(`options.quietWindowMs must be a non-negative integer, got ${String(w)}`);
    this.brainId = brainId;
    this.#store = store;
    this.#now = options.now ?? Date.now;
    this.#timers = options.timers ?? realTimers;
    this.#windowMs = w;
    this.#log = options.log ?? ((line) => process.stderr.write(`gardener: ${line}\n`));
  }

  /** When the armed timer fires (ms), or null. */
  get dueAt(): number | null {
    return this.#timerAt;
  }

  /**
   * Arms the timer for the persisted deadline (after a tick that changed the map, or on start).
   * Emits 'scheduled' with the deadline (or null) when done. Never rejects.
   */
  async schedule(): Promise<void> {
    if (this.#closed) return;
    try {
      const { reconcileDueAt } = await this.#store.skeletonMeta();
      if (reconcileDueAt !== null) this.#arm(reconcileDueAt);
      this.emit('scheduled', reconcileDueAt);
    } catch (err) {
      this.#log(`reconcile of brain ${this.brainId} not scheduled: ${(err as Error).message}`);
    }
  }

  /** Pushes the deadline to now + the quiet window (persisted) and arms for it. Never rejects. */
  async push(): Promise<void> {
    if (this.#closed) return;
    const at = this.#now() + this.#windowMs;
    try {
      await this.#store.skeletonSetDeadline(at);
      this.#arm(at);
    } catch (err) {
      this.#log(`reconcile deadline of brain ${this.brainId} not pushed: ${(err as Error).message}`);
    }
  }

  /** Reconciles now (what the timer runs); one at a time; emits 'reconcile' with the outcome. Never rejects. */
  reconcileNow(): Promise<ReconcileOutcome> {
    this.#running ??= this.#reconcile().then((outcome) => {
      this.#running = null;
      this.emit('reconcile', outcome);
      return outcome;
    });
    return this.#running;
  }

  /** Resolves when no reconcile is running. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#disarm();
    await this.idle();
  }

  #arm(at: number): void {
    if (this.#closed) return;
    if (this.#timerAt === at) return;
    this.#disarm();
    this.#timerAt = at;
    this.#timer = this.#timers.setTimeout(() => {
      this.#timer = null;
      this.#timerAt = null;
      void this.reconcileNow();
    }, Math.max(0, at - this.#now()));
  }

  #disarm(): void {
    if (this.#timer !== null) this.#timers.clearTimeout(this.#timer);
    this.#timer = null;
    this.#timerAt = null;
  }

  /**
   * Clears the deadlines this reconcile covered, due or not: every tick that changed the map
   * before it started pushed the deadline to at most `startedAt` + the window, and the derive read
   * the map after. A deadline of exactly that could come from a tick in the same millisecond whose
   * change the read missed, so it is kept (one spare reconcile, never a lost one); a later push is
   * past it too, and stays, timer and all.
   */
  async #settle(startedAt: number): Promise<void> {
    const covered = startedAt + this.#windowMs - 1;
    await this.#store.skeletonClearDeadline(covered);
    if (this.#timerAt !== null && this.#timerAt <= covered) this.#disarm();
  }

  async #reconcile(): Promise<ReconcileOutcome> {
    const startedAt = this.#now();
    try {
      for (let attempt = 0; ; attempt++) {
        const read = await this.#store.skeletonReadForReconcile(this.#now());
        if (read.kind === 'skip') {
          await this.#settle(startedAt);
          return { kind: 'skipped', reason: read.reason };
        }
        if (read.kind === 'yield') {
          // Someone is editing the candidate: leave them the store, come back one window later.
          const nextAt = this.#now() + this.#windowMs;
          await this.#store.skeletonSetDeadline(nextAt);
          this.#arm(nextAt);
          return { kind: 'yielded', holder: read.holder, until: read.until, nextAt };
        }
        const written = await this.#store.skeletonWriteReconciled(read.storeVersion, read.derived, this.#now());
        if (written.ok) {
          await this.#settle(startedAt);
          const driftAlertId = await this.#alertDrift(read.drift);
          return { kind: 'reconciled', storeVersion: written.storeVersion, retried: attempt > 0, driftAlertId };
        }
        if (attempt >= 1) {
          await this.#settle(startedAt);
          const alertId = await this.#store.recordAlert({
            code: 'auto_reconcile_conflict',
            message: `the skeleton moved twice while it was being reconciled (read at store_version ${read.storeVersion}, now ${written.current}); gave up until the next burst. Its derived data may be stale: \`gardener skeleton check\` recomputes it`,
          }, this.#now());
          return { kind: 'conflict', alertId };
        }
      }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.#log(`reconcile of brain ${this.brainId} failed: ${message}`);
      let alertId: number | null = null;
      try {
        alertId = await this.#store.recordAlert({ code: 'reconcile_failed', message }, this.#now());
      } catch (alertErr) {
        this.#log(`could not record the alert: ${(alertErr as Error).message}`);
      }
      return { kind: 'failed', message, alertId };
    }
  }

  async #alertDrift(drift: { violations: Violation[]; unroomed: string[] }): Promise<number | null> {
    if (drift.violations.length === 0 && drift.unroomed.length === 0) return null;
    return this.#store.recordAlert({ code: 'skeleton_drift', message: driftMessage(drift), path: drift.violations[0]?.file ?? drift.unroomed[0] ?? null }, this.#now());
  }
}

/** One message for a reconcile's drift: each breaking import and each new unroomed file, capped. */
export function driftMessage(drift: { violations: Violation[]; unroomed: string[] }): string {
  const parts: string[] = [];
  const more = (n: number) => (n > DRIFT_ALERT_MAX_ITEMS ? `; and ${n - DRIFT_ALERT_MAX_ITEMS} more` : '');
  if (drift.violations.length > 0) {
    const items = drift.violations.slice(0, DRIFT_ALERT_MAX_ITEMS).map((v) => `${v.file}:${v.line} imports ${v.module} (${v.target}): room ${v.from_room} may not use room ${v.to_room}`);
    parts.push(`${drift.violations.length} new import${drift.violations.length === 1 ? '' : 's'} break${drift.violations.length === 1 ? 's' : ''} a may_use rule: ${items.join('; ')}${more(drift.violations.length)}`);
  }
  if (drift.unroomed.length > 0) {
    parts.push(`${drift.unroomed.length} new file${drift.unroomed.length === 1 ? '' : 's'} in no room: ${drift.unroomed.slice(0, DRIFT_ALERT_MAX_ITEMS).join(', ')}${more(drift.unroomed.length)}`);
  }
  return parts.join('. ');
}
