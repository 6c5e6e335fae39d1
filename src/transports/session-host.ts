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
