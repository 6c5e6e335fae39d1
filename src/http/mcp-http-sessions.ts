/**
 * MCP Streamable HTTP at `/mcp`: the SDK's transport, one `Server` per session (built by
 * `createSessionServer`, as stdio and the socket build theirs), and a session map — nothing
 * else. An unknown or ended session id gets 404 (the client starts a new session); a session
 * idle longer than HTTP_SESSION_IDLE_MS is closed by a reaper that never keeps the process up.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createSessionServer, type SessionParts, type SessionServer } from '../mcp/session-server.js';
import type { Logger } from '../owner/log.js';

/** An HTTP MCP session unused this long is closed, in ms: hosts keep one per window for hours. */
export const HTTP_SESSION_IDLE_MS = 30 * 60_000;
/** How often idle sessions are looked for, in ms. */
export const REAP_INTERVAL_MS = 60_000;
/** SSE keep-alive comment frames this often, in ms (proxies drop silent streams). */
export const SSE_KEEP_ALIVE_MS = 15_000;

interface Entry {
  transport: StreamableHTTPServerTransport;
  server: SessionServer;
  lastUsed: number;
}

export interface McpHttpSessionsOptions {
  log: Logger;
  /** Builds a session for the folder named by the request; throws a GardenerError for a bad one. */
  openSession: (folder: string, onToolsChanged: () => void) => SessionParts;
  /** @default HTTP_SESSION_IDLE_MS */
  idleMs?: number;
  now?: () => number;
}

export class McpHttpSessions {
  #sessions = new Map<string, Entry>();
  #options: McpHttpSessionsOptions;
  #now: () => number;
  #reaper: NodeJS.Timeout;

  constructor(options: McpHttpSessionsOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
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
      entry.lastUsed = this.#now();
      return entry.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return rpcError(res, 400, -32000, 'Bad Request: no Mcp-Session-Id header; a session starts with an initialize request');
    }
    if (!folder) {
      return rpcError(res, 400, -32000, 'Bad Request: name the session folder with the X-Gardener-Folder header or the folder query parameter (/mcp?folder=/path/to/project)');
    }
    let parts: SessionParts;
    let notify = () => {};
    try {
      parts = this.#options.openSession(folder, () => notify());
    } catch (err) {
      return rpcError(res, 400, -32000, `Bad Request: ${(err as Error).message}`);
    }
    let server: SessionServer | undefined;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      keepAliveMs: SSE_KEEP_ALIVE_MS,
      onsessioninitialized: (sid) => {
        this.#sessions.set(sid, { transport, server: server!, lastUsed: this.#now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.#sessions.delete(transport.sessionId);
      void server?.close();
    };
    server = createSessionServer({
      openSession: (onToolsChanged) => ((notify = onToolsChanged), parts),
      log: (line) => this.#options.log.warn(line),
    });
    await server.server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  /** Closes sessions idle longer than the bound. */
  async reap(): Promise<void> {
    const idleMs = this.#options.idleMs ?? HTTP_SESSION_IDLE_MS;
    const now = this.#now();
    const idle = [...this.#sessions].filter(([, e]) => now - e.lastUsed > idleMs);
    await Promise.allSettled(idle.map(([sid, e]) => (this.#sessions.delete(sid), e.server.close())));
  }

  async close(): Promise<void> {
    clearInterval(this.#reaper);
    const all = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(all.map((e) => e.server.close()));
  }
}

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
