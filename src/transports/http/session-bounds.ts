/**
 * The one rule every HTTP session lives by, MCP Streamable HTTP and REST alike, and the
 * bound on a REST call (REST_CALL_TIMEOUT_MS).
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
 * One map holds every HTTP session, MCP and REST (`HttpSessions`): it gives the places, and one
 * reaper (every REAP_INTERVAL_MS, unref'd: it never keeps the process up) ends what `isExpired`
 * says is past its bound. mcp-http-sessions.ts and rest-tools.ts only open and use sessions.
 */
import { TooManySessionsError } from '../../errors.js';
import { monotonicNow } from '../../timers.js';

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
/**
 * How long a REST call may take before the client is told to look later (504), in ms. The work
 * goes on: a plain HTTP client has no way to cancel, and a tick or an ingest is not lost because
 * it stopped waiting. (MCP clients cancel with notifications/cancelled, so /mcp has no bound.)
 */
export const REST_CALL_TIMEOUT_MS = 30_000;

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

export type HttpSessionKind = 'mcp' | 'rest';

/** A session the map holds: how long it was used, and how to end it. */
export interface HttpSession extends SessionUse {
  /** Closes the server and the session behind it. Called once the session has left the map. */
  end(): Promise<void>;
}

/** A taken place: a session being opened, then the one held under its key. */
export interface SessionPlace {
  /** Puts the opened session in the map under its kind and key. */
  hold(kind: HttpSessionKind, key: string, session: HttpSession): void;
  /** Takes the session (if held) out of the map and gives back the place. Idempotent. */
  release(): void;
}

export interface HttpSessionsOptions {
  /** Sessions kept at once, MCP and REST together. @default MAX_SESSIONS */
  max?: number;
  /** A used session unused this long is ended, in ms. @default HTTP_SESSION_IDLE_MS */
  idleMs?: number;
  /** The clock of `SessionUse`, injectable for tests. @default monotonicNow (src/timers.ts: a sleep is not idle time) */
  now?: () => number;
}

interface Held {
  session: HttpSession;
  place: SessionPlace;
}

/** The one map of HTTP sessions, its places and its reaper. */
export class HttpSessions {
  readonly max: number;
  readonly now: () => number;
  #held = new Map<string, Held>();
  #taken = 0;
  #idleMs: number;
  #reaper: NodeJS.Timeout;

  constructor(options: HttpSessionsOptions = {}) {
    const max = options.max ?? MAX_SESSIONS;
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`options.maxSessions must be a positive integer, got ${String(max)} (${typeof max})`);
    this.max = max;
    this.now = options.now ?? monotonicNow;
    this.#idleMs = options.idleMs ?? HTTP_SESSION_IDLE_MS;
    this.#reaper = setInterval(() => void this.reap(), REAP_INTERVAL_MS);
    this.#reaper.unref();
  }

  get taken(): number {
    return this.#taken;
  }

  /** Sessions of this kind held now (all kinds without one). */
  size(kind?: HttpSessionKind): number {
    if (kind === undefined) return this.#held.size;
    let n = 0;
    for (const key of this.#held.keys()) if (key.startsWith(`${kind} `)) n++;
    return n;
  }

  get(kind: HttpSessionKind, key: string): HttpSession | undefined {
    return this.#held.get(`${kind} ${key}`)?.session;
  }

  /**
   * Takes a place for a new session, ending expired ones first when all are taken; throws
   * TooManySessionsError when none is free even then.
   */
  take(): SessionPlace {
    if (this.#taken >= this.max) void this.reap();
    if (this.#taken >= this.max) throw new TooManySessionsError(this.max, UNUSED_SESSION_IDLE_MS, HTTP_SESSION_IDLE_MS);
    this.#taken++;
    let key: string | undefined;
    let given = false;
    const place: SessionPlace = {
      hold: (kind, k, session) => {
        key = `${kind} ${k}`;
        this.#held.set(key, { session, place });
      },
      release: () => {
        if (given) return;
        given = true;
        this.#taken--;
        if (key !== undefined && this.#held.get(key)?.place === place) this.#held.delete(key);
      },
    };
    return place;
  }

  /** Ends the sessions past the rule above; they leave the map (and give back their place) at once. */
  async reap(): Promise<void> {
    const now = this.now();
    const expired = [...this.#held.values()].filter((h) => isExpired(h.session, now, this.#idleMs));
    await Promise.allSettled(expired.map((h) => this.#end(h)));
  }

  /** Stops the reaper and ends every session. */
  async close(): Promise<void> {
    clearInterval(this.#reaper);
    await Promise.allSettled([...this.#held.values()].map((h) => this.#end(h)));
  }

  #end(h: Held): Promise<void> {
    h.place.release();
    return h.session.end();
  }
}
