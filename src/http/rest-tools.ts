/**
 * `POST /api/tools/<name>`: the REST seam. The JSON body is the tool's arguments; the session
 * folder comes from the X-Gardener-Folder header or the `folder` query parameter; the answer is
 * the tool's result as JSON. One session per folder is kept (its folder probe answered before
 * the first call, so late verbs work) and reused, like an agent session that never ends until
 * it idles out.
 *
 * A call is bounded by REST_CALL_TIMEOUT_MS: past it the client gets 504, and the work goes on
 * in the background (a tick or an ingest is not lost because a client stopped waiting; a client
 * that disconnects does not cancel it either).
 */
import type { ServerResponse } from 'node:http';
import { dispatchTool } from '../dispatch/index.js';
import { GardenerError } from '../errors.js';
import type { SessionParts } from '../mcp/session-server.js';

/** How long a REST call may take before the client is told to look later, in ms. */
export const REST_CALL_TIMEOUT_MS = 30_000;
/** A REST session unused this long is closed, in ms. */
export const REST_SESSION_IDLE_MS = 30 * 60_000;

const STATUS_BY_CODE: Record<string, number> = {
  GDN_UNKNOWN_TOOL: 404,
  GDN_INVALID_ARGUMENT: 400,
  GDN_FOLDER_NOT_FOUND: 400,
  GDN_BRAIN_NOT_FOUND: 400,
};

export interface RestToolsOptions {
  openSession: (folder: string) => SessionParts;
  /** @default REST_CALL_TIMEOUT_MS */
  timeoutMs?: number;
  now?: () => number;
}

interface RestSession {
  parts: SessionParts;
  ready: Promise<unknown>;
  lastUsed: number;
}

export class RestTools {
  #sessions = new Map<string, RestSession>();
  #options: RestToolsOptions;
  #now: () => number;

  constructor(options: RestToolsOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  async handle(res: ServerResponse, name: string, args: unknown, folder: string): Promise<void> {
    let s: RestSession;
    try {
      s = this.#session(folder);
    } catch (err) {
      if (err instanceof GardenerError) return json(res, STATUS_BY_CODE[err.code] ?? 500, { error: { code: err.code, message: err.message } });
      throw err;
    }
    s.lastUsed = this.#now();
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

  /** Closes sessions idle longer than REST_SESSION_IDLE_MS. */
  async reap(): Promise<void> {
    const now = this.#now();
    const idle = [...this.#sessions].filter(([, s]) => now - s.lastUsed > REST_SESSION_IDLE_MS);
    await Promise.allSettled(idle.map(([k, s]) => (this.#sessions.delete(k), s.parts.close())));
  }

  async close(): Promise<void> {
    const all = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(all.map((s) => s.parts.close()));
  }

  #session(folder: string): RestSession {
    let s = this.#sessions.get(folder);
    if (!s) {
      const parts = this.#options.openSession(folder);
      parts.session.start();
      // The REST "handshake": late verbs are offered once the probe has answered.
      const ready = parts.session.probe
        .ask(parts.session.folder, parts.session.closingSignal)
        .catch(() => {})
        // The session arms on the same answer; let its handler run first.
        .then(() => new Promise((r) => setImmediate(r)));
      s = { parts, ready, lastUsed: this.#now() };
      this.#sessions.set(folder, s);
    }
    return s;
  }
}

export function json(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}
