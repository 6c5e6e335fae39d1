/**
 * `gardener mcp` as a proxy: the host's stdio piped to the owner's socket, line by line.
 *
 * Lines are cut by the one framer (src/wire/line-framer.ts), both ways. A host line the framer
 * refuses (not UTF-8, not JSON, nested too deep, over MAX_LINE_BYTES) is answered here with the
 * JSON-RPC error every transport gives, and never sent on: the owner only gets lines the proxy
 * could read, and a refused line never costs the session its owner.
 *
 * The proxy reads just enough of each message to remember the session's `initialize` and
 * `initialized` and the requests still waiting for an answer. If the owner goes away
 * mid-session (killed, restarted, shut down), or stalls (no sign of life for PROXY_LIVENESS_MS
 * while requests wait: owner-liveness.ts), the proxy serves in-process from then on: it
 * replays `initialize` (its answer is swallowed: the host already has one) and `initialized`,
 * replays what the host set on the session (its logging level, its resource subscriptions:
 * answered already, so their answers are swallowed), re-sends the requests that were in flight,
 * and goes on; the host sees one session that kept answering.
 *
 * Only node built-ins and src/wire/ (which imports nothing) are loaded while proxying; the
 * in-process server (the SDK, zod, SQLite, workers) is imported only on fallback. Lines cross
 * whole, so a half line from a dying owner never reaches the host.
 */
import type { Socket } from 'node:net';
import { PassThrough, Writable, type Readable } from 'node:stream';
import { isRequestId, LineFramer, peekEnvelope, refusalOf, type Envelope, type Frame, type RequestId } from '../../wire/index.js';
import { OwnerLiveness, PROXY_LIVENESS_ENV, PROXY_LIVENESS_MS, type ProxyTimers } from './owner-liveness.js';
import { msFromEnv } from '../../timers.js';

export { PROXY_LIVENESS_ENV, PROXY_LIVENESS_MS, type ProxyTimers } from './owner-liveness.js';

/** How often the proxy checks that its host is still there, in ms. */
export const PROXY_PARENT_CHECK_MS = 1000;

/** JSON-RPC's Internal error: an answer the proxy could not pass on. */
const JSONRPC_INTERNAL_ERROR = -32603;

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
  /** Owner silence, with requests waiting, after which the proxy falls back, in ms. @default $GARDENER_PROXY_LIVENESS_MS, else PROXY_LIVENESS_MS */
  livenessMs?: number;
  /** The clock and timers of the liveness check. @default real, unref'd timers */
  timers?: ProxyTimers;
}

export async function runProxy(options: ProxyOptions): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const { socket, log } = options;
  let initialize: Buffer | undefined;
  let initializeId: RequestId | undefined;
  let initialized: Buffer | undefined;
  let initializeAnswered = false;
  /** Requests sent and not yet answered, by id, in the order sent. */
  const inflight = new Map<string, Buffer>();
  /** What the host set on the session, to replay on fallback: the last logging/setLevel, each subscription by URI. */
  let setLevel: { id: RequestId; line: Buffer } | undefined;
  const subscriptions = new Map<string, { id: RequestId; line: Buffer }>();
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
    liveness.stop();
    socket.destroy();
    if (local) await local.server.close(reason);
    resolveDone();
  };

  const toHost = (line: Buffer) => {
    stdout.write(Buffer.concat([line, Buffer.from('\n')]));
  };
  const answerHost = (message: unknown) => toHost(Buffer.from(JSON.stringify(message)));

  const liveness = new OwnerLiveness({
    livenessMs: options.livenessMs ?? msFromEnv(PROXY_LIVENESS_ENV, PROXY_LIVENESS_MS, 4, log),
    timers: options.timers,
    sendToOwner: (line) => socket.write(line),
    onStalled: (silentMs) => {
      const waiting = inflight.size + (initializeId !== undefined && !initializeAnswered ? 1 : 0);
      void fallBack(`the owner gave no sign of life for ${silentMs} ms with ${waiting} request${waiting === 1 ? '' : 's'} waiting`);
    },
  });
  const waitingOnOwner = () => mode === 'owner' && (inflight.size > 0 || (initializeId !== undefined && !initializeAnswered));
  const updateWaiting = () => liveness.setWaiting(waitingOnOwner());

  /**
   * A line from the server side (the owner, or the in-process fallback): an answer settles its
   * request, then the line goes to the host as it came. One that cannot be read whole (over
   * the bound) becomes an error for its request, so the host's call never waits forever.
   */
  const fromServer = (frame: Frame, swallow?: (m: Envelope) => boolean) => {
    if (!frame.ok) {
      log(`an answer the proxy could not pass on (${frame.message})`);
      if (frame.id === null) return;
      inflight.delete(String(frame.id));
      return answerHost({ jsonrpc: '2.0', id: frame.id, error: { code: JSONRPC_INTERNAL_ERROR, message: `Internal error: the answer could not be passed on (${frame.message})` } });
    }
    const m = peekEnvelope(frame.value);
    if (isRequestId(m.id) && m.method === undefined) {
      if (liveness.isPingId(m.id)) return; // the proxy's own ping: never the host's
      inflight.delete(String(m.id));
      if (m.id === initializeId) initializeAnswered = true;
    }
    if (swallow?.(m)) return;
    toHost(frame.bytes);
  };

  const fromOwner = new LineFramer((frame) => {
    fromServer(frame);
    updateWaiting();
  });
  socket.on('data', (chunk: Buffer) => {
    if (mode !== 'owner') return;
    liveness.heard();
    fromOwner.push(chunk);
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    if (!ending) void fallBack('the owner went away');
  });

  const send = (line: Buffer) => {
    if (mode === 'owner') socket.write(Buffer.concat([line, Buffer.from('\n')]));
    else if (mode === 'switching') queued.push(line);
    else local!.input.write(Buffer.concat([line, Buffer.from('\n')]));
  };

  const fromHost = new LineFramer((frame) => {
    // What the proxy cannot read is answered here, as every transport answers it.
    if (!frame.ok) return answerHost(refusalOf(frame));
    const m = peekEnvelope(frame.value);
    if (m.method === 'initialize') {
      initialize = frame.bytes;
      initializeId = isRequestId(m.id) ? m.id : undefined;
    } else if (m.method === 'notifications/initialized') {
      initialized = frame.bytes;
    } else if (m.method === 'notifications/cancelled' && isRequestId(m.params?.requestId)) {
      inflight.delete(String(m.params.requestId));
    } else if (m.method === 'logging/setLevel' && isRequestId(m.id)) {
      setLevel = { id: m.id, line: frame.bytes };
    } else if ((m.method === 'resources/subscribe' || m.method === 'resources/unsubscribe') && isRequestId(m.id) && typeof m.params?.uri === 'string') {
      if (m.method === 'resources/subscribe') subscriptions.set(m.params.uri, { id: m.id, line: frame.bytes });
      else subscriptions.delete(m.params.uri);
    }
    if (m.jsonrpc === '2.0' && isRequestId(m.id) && typeof m.method === 'string' && m.method !== 'initialize') inflight.set(String(m.id), frame.bytes);
    send(frame.bytes);
    updateWaiting();
  });
  const onHostData = (chunk: Buffer) => fromHost.push(chunk);

  async function fallBack(why: string): Promise<void> {
    if (mode !== 'owner') return;
    mode = 'switching';
    liveness.stop();
    socket.destroy(); // a stalled owner that wakes up later must not answer twice
    log(`${why}: serving in-process from here (replaying initialize and in-flight requests)`);
    const input = new PassThrough();
    // The host already has an initialize answer only if the owner sent one; otherwise it gets ours.
    let swallowed = initializeId === undefined || !initializeAnswered;
    // Session state the owner already answered is set again in-process; the host must not hear twice.
    const state = [setLevel, ...subscriptions.values()].filter((s): s is { id: RequestId; line: Buffer } => s !== undefined && !inflight.has(String(s.id)));
    const stateIds = new Set(state.map((s) => String(s.id)));
    const swallow = (m: Envelope) => {
      if (m.method !== undefined || !isRequestId(m.id)) return false;
      if (stateIds.delete(String(m.id))) return true;
      if (swallowed || m.id !== initializeId) return false;
      swallowed = true;
      return true;
    };
    const fromLocal = new LineFramer((frame) => fromServer(frame, swallow));
    const output = new Writable({
      write(chunk: Buffer, _enc, cb) {
        fromLocal.push(chunk);
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
    const replay = [initialize, initialized, ...state.map((s) => s.line), ...inflight.values(), ...queued].filter((l): l is Buffer => l !== undefined);
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
