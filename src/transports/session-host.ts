/**
 * What every transport asks of whoever hosts its sessions: the whole API between the two.
 *
 * A transport turns bytes into `dispatchTool` calls and back (STYLE: transports are thin). It
 * never builds brains, vigils or probes and never imports src/owner/: it is handed a
 * SessionHost — the owner's (owner/owner-brains.ts: every session shares one Brains, Vigils and
 * FolderProbe) for the socket and HTTP, the in-process one (stdio/stdio-session.ts) for stdio —
 * and a Logger (src/log.ts). An MCP transport opens each session with `openSessionServer`
 * (session-server.ts: the one MCP `Server` of a session), connects its own SDK Transport to it
 * and moves bytes; a transport of its own shape (REST) calls `dispatchTool` with the session,
 * after `session.ready()`, as it has no handshake of its own.
 */
import type { Session } from '../session/index.js';

/** One opened session and how to end it. */
export interface SessionParts {
  session: Session;
  /** Ends the session and joins its background work. Idempotent. */
  close(): Promise<void>;
}

export interface SessionHost {
  /**
   * A new session for `folder`. Throws a GardenerError that names the problem for a folder that
   * cannot be one (not absolute, missing, not a folder): the transport answers with its message.
   * Building it costs nothing (no store, no git, no worker); `onToolsChanged` fires when late
   * verbs arm (MCP: notifications/tools/list_changed).
   */
  openSession(folder: string, onToolsChanged: () => void): SessionParts;
}

/**
 * The page (src/page/), as the HTTP listener sees it: mounted through this API as REST is, so
 * no transport imports it. The listener keeps its Host/Origin guard for the page's paths, asks
 * `gate` before it reads a body (no cookie, no body read), and hands `handle` the seam: the
 * same REST call every script makes, and the brains list `GET /api/brains` answers.
 */
export interface PageMount {
  /** Does this path belong to the page (it then takes a cookie, not the bearer token)? */
  owns(path: string): boolean;
  /** A refusal for a page request before its body is read, or null to go on. */
  gate(req: import('node:http').IncomingMessage, path: string): { status: number; code: string; message: string } | null;
  handle(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, url: URL, body: unknown, seam: PageSeam): Promise<void>;
  /** A one-time login code, for `POST /api/page/login` (bearer token). */
  issueCode(): { code: string; expires_in_s: number };
  /** Ends the page's event streams (shutdown). */
  close(): void;
}

export interface PageSeam {
  brains(): unknown;
  /** A tool call through the REST seam: the status REST would answer and its JSON body. */
  callTool(folder: string, name: string, args: unknown): Promise<{ status: number; value: unknown }>;
}
