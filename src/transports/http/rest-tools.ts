/**
 * `POST /api/tools/<name>`: the REST seam. The JSON body is the tool's arguments; the session
 * folder comes from the X-Gardener-Folder header or the `folder` query parameter; the answer is
 * the tool's result as JSON. One session per folder is kept and reused, like an agent session
 * that never ends until it idles out; each call waits for `session.ready()` (the folder probe
 * has answered, so late verbs work). Sessions are keyed by the folder's real path: `/repo/././.`, `/repo//` and a
 * symlink to it are one session, not one each (1,000 spellings made 1,000 sessions). They are
 * held by the listener's one HttpSessions map, beside /mcp's, and live by its rule
 * (session-bounds.ts); when every place is taken, a call that needs a new session gets 503
 * GDN_TOO_MANY_SESSIONS.
 *
 * A call is bounded by REST_CALL_TIMEOUT_MS (session-bounds.ts): past it the client gets 504
 * (the status table of http-answers.ts), and the work goes on in the background (a tick or an
 * ingest is not lost because a client stopped waiting; a client that disconnects does not
 * cancel it either).
 */
import { realpathSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { ServerResponse } from 'node:http';
import { json, statusOf } from './http-answers.js';
import { dispatchTool } from '../../dispatch/index.js';
import { GardenerError, RestTimeoutError, TooManySessionsError } from '../../errors.js';
import type { SessionHost, SessionParts } from '../session-host.js';
import { REAP_INTERVAL_MS, REST_CALL_TIMEOUT_MS, type HttpSession, type HttpSessions } from './session-bounds.js';

export interface RestToolsOptions {
  /** Builds a session for a folder; throws a GardenerError for a bad one (its checks are the one rule). */
  sessionHost: SessionHost;
  /** The map that holds them, shared with /mcp. */
  sessions: HttpSessions;
  /** @default REST_CALL_TIMEOUT_MS */
  timeoutMs?: number;
}

interface RestSession extends HttpSession {
  parts: SessionParts;
}

export class RestTools {
  #options: RestToolsOptions;

  constructor(options: RestToolsOptions) {
    this.#options = options;
  }

  async handle(res: ServerResponse, name: string, args: unknown, folder: string): Promise<void> {
    const { status, value, headers } = await this.call(name, args, folder);
    json(res, status, value, headers);
  }

  /** One REST call, answered as status and JSON body: what `handle` sends, and what the page's seam gets. */
  async call(name: string, args: unknown, folder: string): Promise<{ status: number; value: unknown; headers?: Record<string, string> }> {
    let s: RestSession;
    try {
      s = this.#session(folder);
    } catch (err) {
      if (!(err instanceof GardenerError)) throw err;
      const headers: Record<string, string> = err instanceof TooManySessionsError ? { 'retry-after': String(Math.ceil(REAP_INTERVAL_MS / 1000)) } : {};
      return { status: statusOf(err.code), value: { error: { code: err.code, message: err.message } }, headers };
    }
    s.lastUsedAt = this.#options.sessions.now();
    const { session } = s.parts;
    // REST has no handshake: its first call waits for the session to know its folder (late verbs).
    const work = session.ready().then(() => dispatchTool(session.toolsByName, name, args, { session, signal: session.closingSignal, progress: () => {} }));
    const timeoutMs = this.#options.timeoutMs ?? REST_CALL_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), timeoutMs)));
    const outcome = await Promise.race([work, timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      work.catch(() => {});
      const err = new RestTimeoutError(name, timeoutMs);
      return { status: statusOf(err.code), value: { error: { code: err.code, message: err.message } } };
    }
    if (!outcome.isError) return { status: 200, value: outcome.value };
    const code = (outcome.value as { error?: { code?: string } }).error?.code ?? '';
    return { status: statusOf(code), value: outcome.value };
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
    let s = key === null ? undefined : (this.#options.sessions.get('rest', key) as RestSession | undefined);
    if (!s) {
      // A new session: the folder checks (absolute, exists, a readable folder) are openSession's,
      // and its session's folder is the real path the map is keyed by.
      const place = this.#options.sessions.take();
      let parts: SessionParts;
      try {
        parts = this.#options.sessionHost.openSession(folder, () => {});
      } catch (err) {
        place.release();
        throw err;
      }
      const existing = this.#options.sessions.get('rest', parts.session.folder) as RestSession | undefined;
      if (existing) {
        // Only when the folder changed between the realpath and the checks: keep the one there is.
        place.release();
        void parts.close();
        return existing;
      }
      void parts.session.ready();
      const now = this.#options.sessions.now();
      // A REST session is opened by its first call: it is used from the start.
      s = { parts, end: () => parts.close(), openedAt: now, lastUsedAt: now, used: true };
      place.hold('rest', parts.session.folder, s);
    }
    return s;
  }
}
