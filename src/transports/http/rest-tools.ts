/**
 * `POST /api/tools/<name>`: the REST seam. The JSON body is the tool's arguments; the session
 * folder comes from the X-Gardener-Folder header or the `folder` query parameter; the answer is
 * the tool's result as JSON. One session per folder is kept (its folder probe answered before
 * the first call, so late verbs work) and reused, like an agent session that never ends until
 * it idles out. Sessions are keyed by the folder's real path: `/repo/././.`, `/repo//` and a
 * symlink to it are one session, not one each (1,000 spellings made 1,000 sessions). Each
 * holds a place in the owner's SessionSlots and lives by the rule in session-bounds.ts; when
 * every place is taken, a call that needs a new session gets 503 GDN_TOO_MANY_SESSIONS.
 *
 * A call is bounded by REST_CALL_TIMEOUT_MS: past it the client gets 504, and the work goes on
 * in the background (a tick or an ingest is not lost because a client stopped waiting; a client
 * that disconnects does not cancel it either).
 */
import { realpathSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { ServerResponse } from 'node:http';
import { dispatchTool } from '../../dispatch/index.js';
import { GardenerError } from '../../errors.js';
import type { SessionHost, SessionParts } from '../session-host.js';
import { HTTP_SESSION_IDLE_MS, REAP_INTERVAL_MS, SessionSlots, isExpired, type SessionUse } from './session-bounds.js';

/** How long a REST call may take before the client is told to look later, in ms. */
export const REST_CALL_TIMEOUT_MS = 30_000;
/** A REST session unused this long is closed, in ms (the one idle bound of session-bounds.ts). */
export const REST_SESSION_IDLE_MS = HTTP_SESSION_IDLE_MS;

const STATUS_BY_CODE: Record<string, number> = {
  GDN_UNKNOWN_TOOL: 404,
  GDN_INVALID_ARGUMENT: 400,
  GDN_FOLDER_NOT_FOUND: 400,
  GDN_BRAIN_NOT_FOUND: 400,
  GDN_TOO_MANY_SESSIONS: 503,
};

export interface RestToolsOptions {
  /** Builds a session for a folder; throws a GardenerError for a bad one (its checks are the one rule). */
  sessionHost: SessionHost;
  /** The places shared with /mcp; @default a SessionSlots of its own (MAX_SESSIONS) */
  slots?: SessionSlots;
  /** @default REST_CALL_TIMEOUT_MS */
  timeoutMs?: number;
  now?: () => number;
}

interface RestSession extends SessionUse {
  parts: SessionParts;
  ready: Promise<unknown>;
  release: () => void;
}

export class RestTools {
  #sessions = new Map<string, RestSession>();
  #options: RestToolsOptions;
  #now: () => number;
  #slots: SessionSlots;

  constructor(options: RestToolsOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#slots = options.slots ?? new SessionSlots({ reapExpired: () => void this.reap() });
  }

  get size(): number {
    return this.#sessions.size;
  }

  async handle(res: ServerResponse, name: string, args: unknown, folder: string): Promise<void> {
    let s: RestSession;
    try {
      s = this.#session(folder);
    } catch (err) {
      if (!(err instanceof GardenerError)) throw err;
      if (err.code === 'GDN_TOO_MANY_SESSIONS') res.setHeader('retry-after', String(Math.ceil(REAP_INTERVAL_MS / 1000)));
      return json(res, STATUS_BY_CODE[err.code] ?? 500, { error: { code: err.code, message: err.message } });
    }
    s.lastUsedAt = this.#now();
    const { session } = s.parts;
    const work = s.ready.then(() => dispatchTool(session.toolsByName, name, args, { session, signal: session.closingSignal, progress: () => {} }));
    const timeoutMs = this.#options.timeoutMs ?? REST_CALL_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), timeoutMs)));
    const outcome = await Promise.race([work, timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      work.catch(() => {});
      return json(res, 504, {
        error: { code: 'GDN_REST_TIMEOUT', message: `${name} did not finish within ${timeoutMs} ms; the work goes on in the background: call again (or read status) later` },
      });
    }
    if (!outcome.isError) return json(res, 200, outcome.value);
    const code = (outcome.value as { error?: { code?: string } }).error?.code ?? '';
    json(res, STATUS_BY_CODE[code] ?? 500, outcome.value);
  }

  /** Closes sessions past the rule of session-bounds.ts; they leave the map (and give back their place) at once. */
  async reap(): Promise<void> {
    const now = this.#now();
    const expired = [...this.#sessions].filter(([, s]) => isExpired(s, now, REST_SESSION_IDLE_MS));
    await Promise.allSettled(expired.map(([k, s]) => this.#end(k, s)));
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.#sessions].map(([k, s]) => this.#end(k, s)));
  }

  #end(key: string, s: RestSession): Promise<void> {
    this.#sessions.delete(key);
    s.release();
    return s.parts.close();
  }

  /** The real path a session for `folder` would have, or null when the folder's checks must say why not. */
  #keyOf(folder: string): string | null {
    if (!isAbsolute(folder)) return null;
    try {
      return realpathSync(folder);
    } catch {
      return null;
    }
  }

  #session(folder: string): RestSession {
    const key = this.#keyOf(folder);
    let s = key === null ? undefined : this.#sessions.get(key);
    if (!s) {
      // A new session: the folder checks (absolute, exists, a readable folder) are openSession's,
      // and its session's folder is the real path the map is keyed by.
      const release = this.#slots.take();
      let parts: SessionParts;
      try {
        parts = this.#options.sessionHost.openSession(folder, () => {});
      } catch (err) {
        release();
        throw err;
      }
      const existing = this.#sessions.get(parts.session.folder);
      if (existing) {
        // Only when the folder changed between the realpath and the checks: keep the one there is.
        release();
        void parts.close();
        return existing;
      }
      parts.session.start();
      // The REST "handshake": late verbs are offered once the probe has answered.
      const ready = parts.session.probe
        .ask(parts.session.folder, parts.session.closingSignal)
        .catch(() => {})
        // The session arms on the same answer; let its handler run first.
        .then(() => new Promise((r) => setImmediate(r)));
      const now = this.#now();
      // A REST session is opened by its first call: it is used from the start.
      s = { parts, ready, release, openedAt: now, lastUsedAt: now, used: true };
      this.#sessions.set(parts.session.folder, s);
    }
    return s;
  }
}

export function json(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}
