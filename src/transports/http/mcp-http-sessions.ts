/**
 * MCP Streamable HTTP at `/mcp`: the SDK's transport, one `Server` per session (built by
 * `createSessionServer`, as stdio and the socket build theirs), and a session map — nothing
 * else. An unknown or ended session id gets 404 (the client starts a new session). Sessions
 * live by the rule in session-bounds.ts: a place in the owner's shared SessionSlots, closed by
 * a reaper that never keeps the process up once idle past HTTP_SESSION_IDLE_MS, or past
 * UNUSED_SESSION_IDLE_MS when no call followed `initialize` (a host's health check).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { createSessionServer, type SessionServer } from '../session-server.js';
import type { SessionHost, SessionParts } from '../session-host.js';
import type { Logger } from '../../log.js';
import { TooManySessionsError } from '../../errors.js';
import { HTTP_SESSION_IDLE_MS, REAP_INTERVAL_MS, SessionSlots, isExpired, type SessionUse } from './session-bounds.js';

export { HTTP_SESSION_IDLE_MS, REAP_INTERVAL_MS } from './session-bounds.js';
/** SSE keep-alive comment frames this often, in ms (proxies drop silent streams). */
export const SSE_KEEP_ALIVE_MS = 15_000;
/** JSON-RPC code for a refusal of the server's own (the SDK's transport uses it too). */
const JSONRPC_SERVER_ERROR = -32000;

interface Entry extends SessionUse {
  transport: StreamableHTTPServerTransport;
  /** Closes the server and the session behind it, and gives back the place. Idempotent. */
  close: () => Promise<void>;
}

export interface McpHttpSessionsOptions {
  log: Logger;
  /** Builds a session for the folder named by the request; throws a GardenerError for a bad one. */
  sessionHost: SessionHost;
  /** The places shared with REST; @default a SessionSlots of its own (MAX_SESSIONS) */
  slots?: SessionSlots;
  /** @default HTTP_SESSION_IDLE_MS */
  idleMs?: number;
  now?: () => number;
}

/** True when a POST body holds a request other than `initialize` (notifications are not calls). */
function holdsCall(body: unknown): boolean {
  return (Array.isArray(body) ? body : [body]).some((m) => isJSONRPCRequest(m) && m.method !== 'initialize');
}

export class McpHttpSessions {
  #sessions = new Map<string, Entry>();
  #options: McpHttpSessionsOptions;
  #slots: SessionSlots;
  #now: () => number;
  #reaper: NodeJS.Timeout;

  constructor(options: McpHttpSessionsOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#slots = options.slots ?? new SessionSlots({ reapExpired: () => void this.reap() });
    this.#reaper = setInterval(() => void this.reap(), REAP_INTERVAL_MS);
    this.#reaper.unref();
  }

  get size(): number {
    return this.#sessions.size;
  }

  async handle(req: IncomingMessage, res: ServerResponse, body: unknown, folder: string | null): Promise<void> {
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const entry = this.#sessions.get(id);
      if (!entry) return rpcError(res, 404, -32001, 'Session not found: it ended or never existed; start a new session with initialize');
      entry.lastUsedAt = this.#now();
      if (req.method === 'POST' && holdsCall(body)) entry.used = true;
      return entry.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return rpcError(res, 400, JSONRPC_SERVER_ERROR, 'Bad Request: no Mcp-Session-Id header; a session starts with an initialize request');
    }
    if (!folder) {
      return rpcError(res, 400, JSONRPC_SERVER_ERROR, 'Bad Request: name the session folder with the X-Gardener-Folder header or the folder query parameter (/mcp?folder=/path/to/project)');
    }
    let release: () => void;
    try {
      release = this.#slots.take();
    } catch (err) {
      if (!(err instanceof TooManySessionsError)) throw err;
      res.setHeader('retry-after', String(Math.ceil(REAP_INTERVAL_MS / 1000)));
      return rpcError(res, 503, JSONRPC_SERVER_ERROR, err.message, { code: err.code });
    }
    let parts: SessionParts;
    let notify = () => {};
    try {
      parts = this.#options.sessionHost.openSession(folder, () => notify());
    } catch (err) {
      release();
      return rpcError(res, 400, JSONRPC_SERVER_ERROR, `Bad Request: ${(err as Error).message}`);
    }
    // The server closes the session only if a request opened it; a health check's never was.
    let partsClosed: Promise<void> | undefined;
    const closeParts = () => (partsClosed ??= parts.close());
    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        if (transport.sessionId) this.#sessions.delete(transport.sessionId);
        release();
        await server.close();
        await closeParts();
      })());
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      keepAliveMs: SSE_KEEP_ALIVE_MS,
      onsessioninitialized: (sid) => {
        const now = this.#now();
        this.#sessions.set(sid, { transport, close, openedAt: now, lastUsedAt: now, used: false });
      },
    });
    transport.onclose = () => void close();
    const server: SessionServer = createSessionServer({
      openSession: (onToolsChanged) => ((notify = onToolsChanged), { session: parts.session, close: closeParts }),
      log: (line) => this.#options.log.warn(line),
    });
    try {
      await server.server.connect(transport);
      await transport.handleRequest(req, res, body);
    } finally {
      // An initialize the transport refused (406, a bad protocol version) made no session.
      if (!transport.sessionId) void close();
    }
  }

  /** Closes sessions past the rule of session-bounds.ts; they leave the map at once. */
  async reap(): Promise<void> {
    const now = this.#now();
    const expired = [...this.#sessions.values()].filter((e) => isExpired(e, now, this.#options.idleMs ?? HTTP_SESSION_IDLE_MS));
    await Promise.allSettled(expired.map((e) => e.close()));
  }

  async close(): Promise<void> {
    clearInterval(this.#reaper);
    const all = [...this.#sessions.values()];
    await Promise.allSettled(all.map((e) => e.close()));
  }
}

function rpcError(res: ServerResponse, status: number, code: number, message: string, data?: unknown): void {
  const error = data === undefined ? { code, message } : { code, message, data };
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error, id: null }));
}
