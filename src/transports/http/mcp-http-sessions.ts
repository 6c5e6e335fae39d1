/**
 * MCP Streamable HTTP at `/mcp`: the SDK's transport and one `Server` per session (built by
 * `createSessionServer`, as stdio and the socket build theirs) — nothing else. An unknown or
 * ended session id gets 404 (the client starts a new session). Sessions are held by the
 * listener's one HttpSessions map and live by its rule (session-bounds.ts): ended once idle past
 * HTTP_SESSION_IDLE_MS, or past UNUSED_SESSION_IDLE_MS when no call followed `initialize` (a
 * host's health check).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { openSessionServer, type SessionServer } from '../session-server.js';
import type { SessionHost } from '../session-host.js';
import type { Logger } from '../../log.js';
import { TooManySessionsError } from '../../errors.js';
import { REAP_INTERVAL_MS, type HttpSession, type HttpSessions, type SessionPlace } from './session-bounds.js';

export { HTTP_SESSION_IDLE_MS, REAP_INTERVAL_MS } from './session-bounds.js';
/** SSE keep-alive comment frames this often, in ms (proxies drop silent streams). */
export const SSE_KEEP_ALIVE_MS = 15_000;
/** JSON-RPC code for a refusal of the server's own (the SDK's transport uses it too). */
const JSONRPC_SERVER_ERROR = -32000;

interface Entry extends HttpSession {
  transport: StreamableHTTPServerTransport;
}

export interface McpHttpSessionsOptions {
  log: Logger;
  /** Builds a session for the folder named by the request; throws a GardenerError for a bad one. */
  sessionHost: SessionHost;
  /** The map that holds them, shared with REST. */
  sessions: HttpSessions;
}

/** True when a POST body holds a request other than `initialize` (notifications are not calls). */
function holdsCall(body: unknown): boolean {
  return (Array.isArray(body) ? body : [body]).some((m) => isJSONRPCRequest(m) && m.method !== 'initialize');
}

export class McpHttpSessions {
  #options: McpHttpSessionsOptions;

  constructor(options: McpHttpSessionsOptions) {
    this.#options = options;
  }

  async handle(req: IncomingMessage, res: ServerResponse, body: unknown, folder: string | null): Promise<void> {
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const entry = this.#options.sessions.get('mcp', id) as Entry | undefined;
      if (!entry) return rpcError(res, 404, -32001, 'Session not found: it ended or never existed; start a new session with initialize');
      entry.lastUsedAt = this.#options.sessions.now();
      if (req.method === 'POST' && holdsCall(body)) entry.used = true;
      return entry.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return rpcError(res, 400, JSONRPC_SERVER_ERROR, 'Bad Request: no Mcp-Session-Id header; a session starts with an initialize request');
    }
    if (!folder) {
      return rpcError(res, 400, JSONRPC_SERVER_ERROR, 'Bad Request: name the session folder with the X-Gardener-Folder header or the folder query parameter (/mcp?folder=/path/to/project)');
    }
    let place: SessionPlace;
    try {
      place = this.#options.sessions.take();
    } catch (err) {
      if (!(err instanceof TooManySessionsError)) throw err;
      res.setHeader('retry-after', String(Math.ceil(REAP_INTERVAL_MS / 1000)));
      return rpcError(res, 503, JSONRPC_SERVER_ERROR, err.message, { code: err.code });
    }
    let server: SessionServer;
    try {
      server = openSessionServer(this.#options.sessionHost, folder, (line) => this.#options.log.warn(line));
    } catch (err) {
      place.release();
      return rpcError(res, 400, JSONRPC_SERVER_ERROR, `Bad Request: ${(err as Error).message}`);
    }
    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        place.release();
        await server.close();
      })());
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      keepAliveMs: SSE_KEEP_ALIVE_MS,
      onsessioninitialized: (sid) => {
        const now = this.#options.sessions.now();
        const entry: Entry = { transport, end: close, openedAt: now, lastUsedAt: now, used: false };
        place.hold('mcp', sid, entry);
      },
    });
    transport.onclose = () => void close();
    try {
      await server.server.connect(transport);
      await transport.handleRequest(req, res, body);
    } finally {
      // An initialize the transport refused (406, a bad protocol version) made no session.
      if (!transport.sessionId) void close();
    }
  }
}

function rpcError(res: ServerResponse, status: number, code: number, message: string, data?: unknown): void {
  const error = data === undefined ? { code, message } : { code, message, data };
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error, id: null }));
}
