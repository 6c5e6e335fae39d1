/**
 * The MCP `Server` for one session, the same for every transport: stdio, the owner's socket
 * and Streamable HTTP all call `createSessionServer` and only move bytes.
 *
 * `initialize` is answered by the SDK alone: the session is loaded by `openSession` only when
 * a request needs it (or the client says it is initialized, which starts the folder probe), so
 * the first frame never waits for a store, a git or a worker. tools/list and tools/call go
 * through the session and `dispatchTool`; list_changed is sent when late verbs arm; progress
 * and cancellation ride on the request's token and signal.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { SessionHost, SessionParts } from './session-host.js';
import { VERSION } from '../version.js';

export type { SessionParts } from './session-host.js';

/** Progress notifications at most this often per request, in ms. */
export const PROGRESS_INTERVAL_MS = 100;

export interface SessionServerOptions {
  /** Builds the session (lazily, once); `onToolsChanged` must be wired to its tool list. */
  openSession: (onToolsChanged: () => void) => Promise<SessionParts> | SessionParts;
  log: (line: string) => void;
}

export interface SessionServer {
  server: Server;
  /** Closes the transport (if connected) and the session (if it was opened). Idempotent. */
  close(): Promise<void>;
}

export function createSessionServer(options: SessionServerOptions): SessionServer {
  const { log } = options;
  const server = new Server({ name: 'gardener', version: VERSION }, { capabilities: { tools: { listChanged: true } } });
  let parts: Promise<SessionParts> | undefined;
  let closing: Promise<void> | undefined;
  const sessionParts = () =>
    (parts ??= Promise.resolve(
      options.openSession(() => {
        if (!closing) server.sendToolListChanged().catch((err) => log(`list_changed not sent: ${(err as Error).message}`));
      }),
    ));

  server.oninitialized = () => {
    void sessionParts().then((p) => p.session.start(), (err) => log(`session failed to start: ${(err as Error).message}`));
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const { session } = await sessionParts();
    const { listedTool } = await import('./tool-schemas.js');
    return { tools: (await session.listTools()).map(listedTool) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { session } = await sessionParts();
    const [{ dispatchTool }, { toMcpToolResult }] = await Promise.all([import('../dispatch/index.js'), import('./tool-result.js')]);
    const token = request.params._meta?.progressToken;
    let lastProgressAt = 0;
    const progress = (done: number, total?: number, message?: string) => {
      if (token === undefined || extra.signal.aborted) return;
      const now = Date.now();
      if (now - lastProgressAt < PROGRESS_INTERVAL_MS && (total === undefined || done < total)) return;
      lastProgressAt = now;
      void extra
        .sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: done, total, message } })
        .catch(() => {});
    };
    const result = await dispatchTool(session.toolsByName, request.params.name, request.params.arguments, {
      session,
      signal: extra.signal,
      progress,
    });
    return toMcpToolResult(session.toolsByName.get(request.params.name), result);
  });

  const close = () =>
    (closing ??= (async () => {
      try {
        await server.close();
      } catch (err) {
        log(`transport close failed: ${(err as Error).message}`);
      }
      if (parts) {
        try {
          await (await parts).close();
        } catch (err) {
          log(`session close failed: ${(err as Error).message}`);
        }
      }
    })());

  return { server, close };
}

/**
 * A session server over a session opened now for `folder`: what the socket does on a hello and
 * /mcp on an initialize. Throws the host's GardenerError for a folder that cannot be a session
 * (the transport answers with its message). Its `close` ends the server and the session, whether
 * a request ever loaded it or not (a health check's never was).
 */
export function openSessionServer(host: SessionHost, folder: string, log: (line: string) => void): SessionServer {
  let notify = () => {};
  const parts = host.openSession(folder, () => notify());
  let partsClosed: Promise<void> | undefined;
  const closeParts = () => (partsClosed ??= parts.close());
  const { server, close } = createSessionServer({
    log,
    openSession: (onToolsChanged) => ((notify = onToolsChanged), { session: parts.session, close: closeParts }),
  });
  let closing: Promise<void> | undefined;
  // The server closes (and logs) a session a request loaded; one it never loaded is closed here.
  const closeAll = () =>
    close()
      .then(() => (partsClosed ? undefined : closeParts()))
      .catch((err) => log(`session close failed: ${(err as Error).message}`));
  return { server, close: () => (closing ??= closeAll()) };
}
