/**
 * `gardener mcp` as a proxy: the host's stdio piped to the owner's socket, line by line.
 *
 * The proxy parses just enough JSON to remember the session's `initialize` and `initialized`
 * and the requests still waiting for an answer. If the owner goes away mid-session (killed,
 * restarted, shut down), the proxy serves in-process from then on: it replays `initialize`
 * (its answer is swallowed: the host already has one) and `initialized`, re-sends the requests
 * that were in flight, and goes on; the host sees one session that kept answering.
 *
 * Only node built-ins are loaded while proxying; the in-process server (the SDK, zod, SQLite,
 * workers) is imported only on fallback. Lines cross whole, so a half line from a dying owner
 * never reaches the host.
 */
import type { Socket } from 'node:net';
import { PassThrough, Writable, type Readable } from 'node:stream';
import { LineSplitter, peekMessage } from './line-splitter.js';

/** How often the proxy checks that its host is still there, in ms. */
export const PROXY_PARENT_CHECK_MS = 1000;

export interface ProxyOptions {
  socket: Socket;
  /** Bytes the owner sent after its hello. */
  rest: Buffer;
  folder: string;
  stdin?: Readable;
  stdout?: NodeJS.WritableStream;
  log: (line: string) => void;
  /** Starts the in-process server on these streams (the fallback). */
  serveInProcess: (stdin: Readable, stdout: Writable) => Promise<{ close(reason?: string): Promise<void>; closed: Promise<void> }>;
  processHooks?: boolean;
}

export async function runProxy(options: ProxyOptions): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const { socket, log } = options;
  const fromHost = new LineSplitter();
  const fromOwner = new LineSplitter();
  let initialize: Buffer | undefined;
  let initializeId: string | number | undefined;
  let initialized: Buffer | undefined;
  let initializeAnswered = false;
  /** Requests sent and not yet answered, by id, in the order sent. */
  const inflight = new Map<string, Buffer>();
  let mode: 'owner' | 'switching' | 'local' = 'owner';
  const queued: Buffer[] = [];
  let local: { input: PassThrough; server: { close(reason?: string): Promise<void>; closed: Promise<void> } } | undefined;
  let ending = false;

  let resolveDone!: () => void;
  const done = new Promise<void>((r) => (resolveDone = r));
  const end = async (reason: string) => {
    if (ending) return;
    ending = true;
    log(`shutting down (${reason})`);
    clearInterval(parentTimer);
    socket.destroy();
    if (local) await local.server.close(reason);
    resolveDone();
  };

  const toHost = (line: Buffer) => {
    stdout.write(Buffer.concat([line, Buffer.from('\n')]));
  };

  socket.on('data', (chunk: Buffer) => {
    for (const line of fromOwner.push(chunk)) {
      const m = peekMessage(line);
      if (m && m.id !== undefined && m.method === undefined) {
        inflight.delete(String(m.id));
        if (m.id === initializeId) initializeAnswered = true;
      }
      toHost(line);
    }
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    if (!ending) void fallBack();
  });

  const send = (line: Buffer) => {
    if (mode === 'owner') socket.write(Buffer.concat([line, Buffer.from('\n')]));
    else if (mode === 'switching') queued.push(line);
    else local!.input.write(Buffer.concat([line, Buffer.from('\n')]));
  };

  const onHostData = (chunk: Buffer) => {
    for (const line of fromHost.push(chunk)) {
      const m = peekMessage(line);
      if (m?.method === 'initialize') {
        initialize = line;
        initializeId = m.id;
      } else if (m?.method === 'notifications/initialized') {
        initialized = line;
      } else if (m?.method === 'notifications/cancelled' && m.params?.requestId !== undefined) {
        inflight.delete(String(m.params.requestId));
      }
      if (m && m.id !== undefined && m.method !== undefined && m.method !== 'initialize') inflight.set(String(m.id), line);
      send(line);
    }
  };

  async function fallBack(): Promise<void> {
    mode = 'switching';
    log('the owner went away: serving in-process from here (replaying initialize and in-flight requests)');
    const input = new PassThrough();
    // The host already has an initialize answer only if the owner sent one; otherwise it gets ours.
    let swallowed = initializeId === undefined || !initializeAnswered;
    const splitter = new LineSplitter();
    const output = new Writable({
      write(chunk: Buffer, _enc, cb) {
        for (const line of splitter.push(chunk)) {
          if (!swallowed) {
            const m = peekMessage(line);
            if (m && m.method === undefined && m.id === initializeId) {
              swallowed = true;
              continue;
            }
          }
          toHost(line);
        }
        cb();
      },
    });
    try {
      const server = await options.serveInProcess(input, output);
      local = { input, server };
      void server.closed.then(() => end('the in-process server closed'));
    } catch (err) {
      log(`in-process fallback failed: ${(err as Error).message}`);
      return end('no fallback');
    }
    const replay = [initialize, initialized, ...inflight.values(), ...queued].filter((l): l is Buffer => l !== undefined);
    queued.length = 0;
    mode = 'local';
    for (const line of replay) input.write(Buffer.concat([line, Buffer.from('\n')]));
    if (ending) await local.server.close();
  }

  stdin.on('data', onHostData);
  stdin.once('end', () => void end('stdin ended'));
  stdin.once('close', () => void end('stdin ended'));
  stdin.once('error', (err) => void end(`stdin error: ${err.message}`));
  stdout.on('error', (err: Error) => void end(`stdout error: ${err.message}`));

  let parentTimer: NodeJS.Timeout | undefined;
  if (options.processHooks ?? true) {
    const initialPpid = process.ppid;
    process.once('SIGTERM', () => void end('SIGTERM'));
    process.once('SIGINT', () => void end('SIGINT'));
    parentTimer = setInterval(() => {
      if (process.ppid !== initialPpid) void end('the parent process is gone');
    }, PROXY_PARENT_CHECK_MS);
    parentTimer.unref();
  }

  if (options.rest.length) socket.emit('data', options.rest);
  socket.resume();
  await done;
}
