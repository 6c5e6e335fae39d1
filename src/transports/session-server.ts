/**
 * The MCP `Server` for one session, the same for every transport: stdio, the owner's socket
 * and Streamable HTTP all call `createSessionServer` and only move bytes.
 *
 * `initialize` is answered by the SDK alone: the session is loaded by `openSession` only when
 * a request needs it (or the client says it is initialized, which starts the folder probe), so
 * the first frame never waits for a store, a git or a worker. tools/list and tools/call go
 * through the session and `dispatchTool`; list_changed is sent when late verbs arm; progress
 * and cancellation ride on the request's token and signal. Prompts, resources, completions and
 * the session's feed (alerts as log messages, resource updates after a tick) are src/mcp/'s,
 * loaded on the first request that needs them; each handler here only moves its call there.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { SessionHost, SessionParts } from './session-host.js';
import type { Session } from '../session/index.js';
import { VERSION } from '../version.js';
import { monotonicNow } from '../timers.js';

export type { SessionParts } from './session-host.js';

/** Progress notifications at most this often per request, in ms. */
export const PROGRESS_INTERVAL_MS = 100;

/** What a session offers: tools, prompts and resources (each list can change), logging, completions. */
const CAPABILITIES = Object.freeze({
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  logging: {},
  completions: {},
});

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
  const server = new Server({ name: 'gardener', version: VERSION }, { capabilities: CAPABILITIES });
  let parts: Promise<SessionParts> | undefined;
  let closing: Promise<void> | undefined;
  let feed: import('../mcp/index.js').SessionFeed | undefined;
  const quiet = (what: string) => (err: Error) => log(`${what} not sent: ${err.message}`);
  const sink: import('../mcp/index.js').FeedSink = {
    // The SDK keeps the level logging/setLevel set, per transport session, and drops what is below it.
    log: (level, data) => void server.sendLoggingMessage({ level, logger: 'gardener', data }, server.transport?.sessionId).catch(quiet('log message')),
    updated: (uri) => void server.sendResourceUpdated({ uri }).catch(quiet('resource update')),
    resourcesChanged: () => void server.sendResourceListChanged().catch(quiet('resources list_changed')),
  };
  /**
   * Runs a prompt/resource/completion call in src/mcp/ with the session, its feed following the
   * brain before and after (`follow: false` for the lists that need no brain: no store opens).
   */
  const withMcp = async <T>(
    run: (session: Session, mcp: typeof import('../mcp/index.js'), feed: import('../mcp/index.js').SessionFeed) => Promise<T> | T,
    { follow = true }: { follow?: boolean } = {},
  ): Promise<T> => {
    const { session } = await sessionParts();
    const mcp = await import('../mcp/index.js');
    const f = (feed ??= new mcp.SessionFeed(session, sink));
    if (closing) f.close(); // a request that raced the close follows nothing
    if (follow) f.follow();
    try {
      return await run(session, mcp, f);
    } catch (err) {
      throw mcp.asProtocolError(err);
    } finally {
      if (follow) f.follow();
    }
  };
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
    let lastProgressAt = -Infinity;
    const progress = (done: number, total?: number, message?: string) => {
      if (token === undefined || extra.signal.aborted) return;
      const now = monotonicNow();
      if (now - lastProgressAt < PROGRESS_INTERVAL_MS && (total === undefined || done < total)) return;
      lastProgressAt = now;
      void extra
        .sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: done, total, message } })
        .catch(() => {});
    };
    feed?.follow();
    const result = await dispatchTool(session.toolsByName, request.params.name, request.params.arguments, {
      session,
      signal: extra.signal,
      progress,
    });
    if (!closing) (feed ??= new (await import('../mcp/index.js')).SessionFeed(session, sink)).toolCalled(request.params.name);
    return toMcpToolResult(session.toolsByName.get(request.params.name), result);
  });

  server.setRequestHandler(ListPromptsRequestSchema, () => withMcp((_s, mcp) => ({ prompts: mcp.listPrompts() }), { follow: false }));
  server.setRequestHandler(GetPromptRequestSchema, (request, extra) =>
    withMcp((session, mcp) => mcp.getPrompt(session, request.params.name, request.params.arguments ?? {}, extra.signal)),
  );
  server.setRequestHandler(ListResourcesRequestSchema, () => withMcp((session, mcp) => mcp.listResources(session)));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => withMcp((_s, mcp) => ({ resourceTemplates: [...mcp.RESOURCE_TEMPLATES] }), { follow: false }));
  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) => withMcp((session, mcp) => mcp.readResource(session, request.params.uri, extra.signal)));
  server.setRequestHandler(SubscribeRequestSchema, (request) => withMcp((_s, _m, f) => (f.subscribe(request.params.uri), {})));
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => withMcp((_s, _m, f) => (f.unsubscribe(request.params.uri), {})));
  server.setRequestHandler(CompleteRequestSchema, (request) =>
    withMcp((session, mcp) => mcp.complete(session, request.params.ref as import('../mcp/index.js').CompletionRef, request.params.argument, request.params.context)),
  );

  const close = () =>
    (closing ??= (async () => {
      feed?.close();
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
