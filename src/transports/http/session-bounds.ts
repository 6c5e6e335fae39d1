/**
 * The one rule every HTTP session lives by, MCP Streamable HTTP and REST alike.
 *
 *   - A session that was used (a call after `initialize`; a REST session is opened by its
 *     first call) ends after HTTP_SESSION_IDLE_MS without traffic: hosts keep one per window
 *     for hours, and their users step away.
 *   - A session that made no call after `initialize` ends after UNUSED_SESSION_IDLE_MS: hosts'
 *     health checks open one each time they look, and would otherwise pin 30 minutes apiece.
 *   - At most MAX_SESSIONS are kept per owner, MCP and REST together. There is one token per
 *     home and one HTTP listener per owner, so this is the bound per token. When it is reached,
 *     sessions past the rules above are ended first; if none is, the new session is refused
 *     (REST 503 GDN_TOO_MANY_SESSIONS, /mcp a JSON-RPC error), never an old one pushed out:
 *     an MCP session is a host's state, and ending it under the host would break a live window.
 *
 * The two session maps (mcp-http-sessions.ts, rest-tools.ts) keep their own reapers, both
 * asking `isExpired`; they share one `SessionSlots`.
 */
import { TooManySessionsError } from '../../errors.js';

/** A used HTTP session unused this long is closed, in ms: hosts keep one per window for hours. */
export const HTTP_SESSION_IDLE_MS = 30 * 60_000;
/** A session with no call after `initialize` is closed after this long, in ms (health checks). */
export const UNUSED_SESSION_IDLE_MS = 60_000;
/**
 * HTTP sessions kept at once per owner (per token), MCP and REST together. A busy developer
 * has a few host windows and scripts on a handful of folders; 128 is far past that and bounds
 * what one client holding the token can make the owner keep.
 */
export const MAX_SESSIONS = 128;
/** How often expired sessions are looked for, in ms (an unused session lives at most this past its minute). */
export const REAP_INTERVAL_MS = 15_000;

/** What the rule needs to know of a session, in the injected clock's ms. */
export interface SessionUse {
  openedAt: number;
  lastUsedAt: number;
  /** True once the session made a call after `initialize` (REST: from its first call). */
  used: boolean;
}

/** True when the session is past its bound and should be closed. */
export function isExpired(s: SessionUse, now: number, idleMs: number = HTTP_SESSION_IDLE_MS, unusedMs: number = UNUSED_SESSION_IDLE_MS): boolean {
  return s.used ? now - s.lastUsedAt > idleMs : now - s.openedAt > unusedMs;
}

export interface SessionSlotsOptions {
  /** Sessions kept at once. @default MAX_SESSIONS */
  max?: number;
  /** Ends every expired session now (each map's reaper); called when the slots are full. */
  reapExpired: () => void;
}

/** One place per kept session, shared by /mcp and REST. */
export class SessionSlots {
  readonly max: number;
  #taken = 0;
  #reapExpired: () => void;

  constructor(options: SessionSlotsOptions) {
    const max = options.max ?? MAX_SESSIONS;
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`options.maxSessions must be a positive integer, got ${String(max)} (${typeof max})`);
    this.max = max;
    this.#reapExpired = options.reapExpired;
  }

  get taken(): number {
    return this.#taken;
  }

  /**
   * Takes a place for a new session, ending expired ones first when all are taken; throws
   * TooManySessionsError when none is free even then. The returned function gives the place
   * back (once, however often it is called).
   */
  take(): () => void {
    if (this.#taken >= this.max) this.#reapExpired();
    if (this.#taken >= this.max) throw new TooManySessionsError(this.max, UNUSED_SESSION_IDLE_MS, HTTP_SESSION_IDLE_MS);
    this.#taken++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.#taken--;
    };
  }
}
