/**
 * What a session is told without asking: alerts as log messages (MCP logging), and
 * `notifications/resources/updated` for the subscribed resources after a tick that changed the
 * map. Freshness is pushed to the host instead of asked for.
 *
 * The feed follows the vigil of the brain the session is anchored to (the process's one Vigil
 * per brain, shared by every session and the owner's watchers) and its reconciler. It starts
 * following at the session's first request, never at the handshake (the first frame never
 * waits, and a session that asks nothing opens no store), and follows again after each request
 * (an `ingest` may have anchored the session elsewhere, or made the brain). Alerts are read from
 * the store after each tick or reconcile: the ones recorded since the feed last looked, so a
 * tick failure, an extract failure or a reconcile conflict reaches every following session once.
 */
import type { Session } from '../session/index.js';
import type { Brain } from '../brain/index.js';
import type { TickOutcome, Vigil } from '../vigil/index.js';
import { listAlerts, type Alert } from '../store/index.js';
import { ResourceNotFoundError } from '../errors.js';
import { SKELETON_URI, SUBSCRIBABLE } from './resources.js';

export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** Each alert code's log level; a code not named here is a warning. */
export const ALERT_LEVELS: Readonly<Record<string, LogLevel>> = Object.freeze({
  tick_failed: 'error',
  reconcile_failed: 'error',
  auto_reconcile_conflict: 'warning',
  ingest_failed: 'warning',
  extract_failed: 'warning',
  extract_skipped: 'notice',
  team_note_skipped: 'warning',
  root_config_invalid: 'warning',
  skeleton_drift: 'notice',
});

/** Tools after which the list of resources (one per note) may have changed. */
const CHANGES_NOTES: ReadonlySet<string> = new Set(['remember', 'forget', 'ingest', 'scan', 'scan_all']);

/** Where the feed's messages go (the transport's MCP server). Each send is fire-and-forget. */
export interface FeedSink {
  log(level: LogLevel, data: Record<string, unknown>): void;
  updated(uri: string): void;
  resourcesChanged(): void;
}

export class SessionFeed {
  #session: Session;
  #sink: FeedSink;
  #subscribed = new Set<string>();
  #vigil: Vigil | undefined;
  #detach: () => void = () => {};
  /** The highest alert id this session was told of (or that existed when the feed began). */
  #alertMark = 0;
  #closed = false;

  constructor(session: Session, sink: FeedSink) {
    this.#session = session;
    this.#sink = sink;
  }

  /** Follows the vigil of the brain the session is anchored to now; cheap when that did not change. Never throws. */
  follow(): void {
    if (this.#closed) return;
    let brain: Brain | null;
    let vigil: Vigil;
    try {
      brain = this.#session.brain();
      if (!brain) return;
      vigil = this.#session.vigils.get(brain);
    } catch {
      return; // a brain that cannot be opened now: the next request follows again (fail-open)
    }
    if (vigil === this.#vigil) return;
    this.#detach();
    this.#vigil = vigil;
    this.#alertMark = lastAlertId(brain);
    // One listener per following session on the process's one vigil (the owner bounds its
    // sessions): many is the design, not a leak, so Node's 10-listener warning is lifted.
    vigil.setMaxListeners(0);
    const onTick = (outcome: TickOutcome) => this.#afterTick(brain, outcome);
    const onReconcile = () => this.#afterReconcile(brain);
    vigil.on('tick', onTick);
    const reconciler = this.#session.vigils.reconciler(brain.id);
    reconciler?.setMaxListeners(0);
    reconciler?.on('reconcile', onReconcile);
    this.#detach = () => {
      vigil.off('tick', onTick);
      reconciler?.off('reconcile', onReconcile);
    };
  }

  /** resources/subscribe: only the resources that change on their own can be followed. */
  subscribe(uri: string): void {
    if (!SUBSCRIBABLE.has(uri)) throw new ResourceNotFoundError(uri, `only ${[...SUBSCRIBABLE].join(' and ')} change on their own and can be subscribed to`);
    this.#subscribed.add(uri);
    this.follow();
  }

  unsubscribe(uri: string): void {
    this.#subscribed.delete(uri);
  }

  /** After a tools/call: the note resources may have come or gone; the anchor may have moved. */
  toolCalled(name: string): void {
    if (this.#closed) return;
    if (CHANGES_NOTES.has(name)) this.#sink.resourcesChanged();
    this.follow();
  }

  close(): void {
    this.#closed = true;
    this.#detach();
    this.#subscribed.clear();
  }

  #afterTick(brain: Brain, outcome: TickOutcome): void {
    if (this.#closed) return;
    if (outcome.ok && outcome.report.drained > 0) {
      const r = outcome.report;
      this.#sink.log('info', { event: 'map_advanced', brain: brain.id, detected: r.detected, drained: r.drained, backlog: r.backlogLeft });
      for (const uri of this.#subscribed) this.#sink.updated(uri);
    }
    this.#tellAlerts(brain);
  }

  #afterReconcile(brain: Brain): void {
    if (this.#closed) return;
    if (this.#subscribed.has(SKELETON_URI)) this.#sink.updated(SKELETON_URI);
    this.#tellAlerts(brain);
  }

  #tellAlerts(brain: Brain): void {
    let fresh: Alert[];
    try {
      fresh = listAlerts(brain.reader, { includeAcked: true }).filter((a) => a.id > this.#alertMark);
    } catch {
      return; // a closed or evicted brain: nothing to tell (fail-open)
    }
    for (const a of fresh) {
      this.#alertMark = Math.max(this.#alertMark, a.id);
      this.#sink.log(ALERT_LEVELS[a.code] ?? 'warning', { event: 'alert', brain: brain.id, id: a.id, code: a.code, message: a.message, ...(a.path ? { path: a.path } : {}) });
    }
  }
}


function lastAlertId(brain: Brain): number {
  try {
    return listAlerts(brain.reader, { includeAcked: true }).at(-1)?.id ?? 0;
  } catch {
    return 0;
  }
}
