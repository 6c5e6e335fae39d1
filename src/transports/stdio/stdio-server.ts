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
import type { Readable, Writable } from 'node:stream';
import { LineTransport } from '../line-transport.js';
import { createSessionServer } from '../session-server.js';
import { keepPagesReturned } from '../../page-return.js';
import { callsInFlight } from '../../dispatch/calls-in-flight.js';
import type { StdioSessionOptions } from './stdio-session.js';

export { PROGRESS_INTERVAL_MS } from '../session-server.js';

/** How often we check that the parent is still there, in ms (a reparented child has lost it). */
export const PARENT_CHECK_INTERVAL_MS = 1000;

export interface StdioServerOptions {
  folder: string;
  stdin?: Readable;
  stdout?: Writable;
  /** Watch signals and the parent process (off for in-process tests). @default true */
  processHooks?: boolean;
  /** Passed through to the session (tests inject a home folder or a tick). */
  session?: StdioSessionOptions;
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
  let closing: Promise<void> | undefined;
  // The session (brains, vigils, probe: the in-process host) loads only once initialize has been answered.
  const { server, close: closeSession } = createSessionServer({
    log,
    openSession: (onToolsChanged) =>
      import('./stdio-session.js').then((m) => m.inProcessHost(options.session).openSession(options.folder, onToolsChanged)),
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
      await closeSession();
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
    // Owning its process, it gives the main heap's garbage pages back once the heap grew (src/page-return.ts),
    // just after an answer has left, so no call waits behind the collection (src/dispatch/calls-in-flight.ts).
    keepPagesReturned(callsInFlight.afterLastCall);
  }

  // Not the SDK's StdioServerTransport: see line-transport.ts for the lines it leaves unanswered.
  await server.connect(new LineTransport(stdin, stdout));
  return { closed, close };
}
