/**
 * `gardener mcp` over stdio. stdout carries protocol only; logs go to stderr.
 *
 * The first frame never waits: this module loads only the SDK, and `initialize` is answered
 * before any store is opened, any git runs or any worker starts. The rest of the session is
 * loaded lazily and the folder probe is asked once the client says it is initialized.
 *
 * The server ends cleanly on stdin EOF, a stdin error (hosts hand over a socketpair whose
 * hang-up can surface as an error), a stdout error, SIGTERM/SIGINT, or the parent process
 * dying (ppid changes): background work is joined and no git child outlives it.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import { VERSION } from '../version.js';
import type { StdioSessionParts, StdioSessionOptions } from './stdio-session.js';

/** How often we check that the parent is still there, in ms (a reparented child has lost it). */
export const PARENT_CHECK_INTERVAL_MS = 1000;
/** Progress notifications at most this often per request, in ms. */
export const PROGRESS_INTERVAL_MS = 100;

export interface StdioServerOptions {
  folder: string;
  stdin?: Readable;
  stdout?: Writable;
  /** Watch signals and the parent process (off for in-process tests). @default true */
  processHooks?: boolean;
  /** Passed through to the session (tests inject a home folder or a tick). */
  session?: Omit<StdioSessionOptions, 'folder' | 'onToolsChanged'>;
  log?: (line: string) => void;
}

export interface RunningStdioServer {
  /** Resolves once the server has shut down and joined its work. */
  closed: Promise<void>;
  close(reason?: string): Promise<void>;
}

export async function runStdioServer(options: StdioServerOptions): Promise<RunningStdioServer> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const log = options.log ?? ((line: string) => process.stderr.write(`gardener mcp: ${line}\n`));
  const server = new Server({ name: 'gardener', version: VERSION }, { capabilities: { tools: { listChanged: true } } });

  let parts: Promise<StdioSessionParts> | undefined;
  let closing: Promise<void> | undefined;
  const sessionParts = () =>
    (parts ??= import('./stdio-session.js').then((m) =>
      m.createStdioSession({
        ...options.session,
        folder: options.folder,
        onToolsChanged: () => {
          if (!closing) server.sendToolListChanged().catch((err) => log(`list_changed not sent: ${(err as Error).message}`));
        },
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

  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  const hooks = options.processHooks ?? true;
  const initialPpid = process.ppid;
  let parentTimer: NodeJS.Timeout | undefined;

  const close = (reason = 'closed') =>
    (closing ??= (async () => {
      log(`shutting down (${reason})`);
      clearInterval(parentTimer);
      stdin.off('end', onEnd).off('close', onEnd).off('error', onStdinError);
      // Never spin on a dead descriptor: stop reading for good.
      if ('destroy' in stdin && typeof stdin.destroy === 'function' && stdin !== process.stdin) stdin.destroy();
      else stdin.pause();
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
      if (hooks) {
        process.off('SIGTERM', onSigterm);
        process.off('SIGINT', onSigint);
      }
      resolveClosed();
    })());

  const onEnd = () => void close('stdin ended');
  const onStdinError = (err: Error) => void close(`stdin error: ${err.message}`);
  const onSigterm = () => void close('SIGTERM');
  const onSigint = () => void close('SIGINT');
  stdin.on('end', onEnd).on('close', onEnd).on('error', onStdinError);
  stdout.on('error', (err) => void close(`stdout error: ${err.message}`));
  if (hooks) {
    process.on('SIGTERM', onSigterm);
    process.on('SIGINT', onSigint);
    parentTimer = setInterval(() => {
      if (process.ppid !== initialPpid) void close('the parent process is gone');
    }, PARENT_CHECK_INTERVAL_MS);
    parentTimer.unref();
  }

  await server.connect(new StdioServerTransport(stdin, stdout));
  return { closed, close };
}
