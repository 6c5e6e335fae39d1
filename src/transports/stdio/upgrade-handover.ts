/**
 * `gardener mcp` served in-process outlives installs of its own code, as an owner does: a host
 * keeps its window, and the process, for days, while `npm install -g gardener` replaces the files
 * it started from. Every thread it starts afterwards (a pool thread, a store writer woken from
 * its idle end) and every module it loads lazily would come from the new files beside its old
 * main thread; a writer of a newer schema migrates a store the old reader then refuses. An owner
 * stops for the new version (owner/upgrade-watch.ts); a stdio server cannot, its host would lose
 * the session. So it hands the session over:
 *
 *   - Once another version has settled on disk, the same command line is started again (the new
 *     code), and told the session as the host opened it: the host's `initialize` and
 *     `initialized`, and what the host set on it (its logging level, its resource
 *     subscriptions), each under an id of its own whose answer the host never sees.
 *   - From its answer on, every line the host sends goes to the new process, and every line it
 *     sends goes to the host; the host is told its tool list may have changed (and prompts and
 *     resources, where the new server says they can).
 *   - Calls the old server was answering finish there (a cancel for one goes there too); then
 *     its input ends and it joins its threads. This process is a pipe from then on.
 *   - A new process that does not answer within HANDOVER_ANSWER_MS, says no, or exits is
 *     stopped and the old server goes on serving, with what the host sent meanwhile.
 *
 * Lines are cut by the one framer (src/wire/line-framer.ts), both ways, as in the proxy
 * (src/transports/proxy/mcp-proxy.ts), whose replay this mirrors.
 */
import { PassThrough, Writable, type Readable } from 'node:stream';
import { LineFramer, refusalOf, type Frame, type RequestId } from '../../wire/index.js';
import { PARENT_CHECK_INTERVAL_MS, type RunningStdioServer } from './stdio-server.js';
import { realTimers, type Timers } from '../../timers.js';

/** How long the new process has to answer the session's `initialize`, in ms (it loads its SDK first). */
export const HANDOVER_ANSWER_MS = 30_000;

/** The ids of the lines replayed to the new process start so; their answers are never the host's. */
export const HANDOVER_ID_PREFIX = 'gardener-handover-';

/** JSON-RPC's Internal error: an answer that could not be passed on. */
const JSONRPC_INTERNAL_ERROR = -32603;

/** The new process, as much of a ChildProcess as the handover uses. */
export interface HandoverChild {
  readonly pid?: number;
  readonly stdin: NodeJS.WritableStream & { on(event: 'error', fn: (err: Error) => void): unknown };
  readonly stdout: Readable;
  kill(signal?: NodeJS.Signals): boolean;
  once(event: 'exit', fn: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
}

export interface HandoverOptions {
  stdin?: Readable;
  stdout?: NodeJS.WritableStream;
  /** Starts the in-process server on these streams. */
  serveInProcess(stdin: Readable, stdout: Writable): Promise<RunningStdioServer>;
  /** Starts the code now on disk on the same command line, MCP on its stdin and stdout. */
  startNew(): HandoverChild;
  /** Calls `onUpgrade` once another version has settled on disk; returns what stops looking. */
  watchUpgrade(onUpgrade: (version: string) => void): () => void;
  log(line: string): void;
  /** @default HANDOVER_ANSWER_MS */
  answerMs?: number;
  /** The answer's bound runs on these. @default real, unref'd timers */
  timers?: Timers;
  /** End on SIGTERM, SIGINT or the host process gone (off for in-process tests). @default true */
  processHooks?: boolean;
}

interface Peeked {
  id?: unknown;
  method?: unknown;
  params?: { requestId?: unknown; uri?: unknown };
  result?: { capabilities?: Record<string, { listChanged?: unknown } | undefined> };
  error?: unknown;
}

function peek(value: unknown): Peeked {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Peeked) : {};
}

const isId = (id: unknown): id is RequestId => typeof id === 'string' || typeof id === 'number';
const line = (bytes: Buffer) => Buffer.concat([bytes, Buffer.from('\n')]);

/**
 * Serves the session in-process, handing it to the version installed over this one when there
 * is one. Resolves with the exit code once the host has gone and every server has closed: 0,
 * or 1 when the new process ended under a host still there.
 */
export async function serveUntilUpgraded(options: HandoverOptions): Promise<number> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const { log } = options;
  const answerMs = options.answerMs ?? HANDOVER_ANSWER_MS;
  const timers = options.timers ?? realTimers;

  /** The session as the host opened it, to replay: initialize, initialized, the last setLevel, the subscriptions by URI. */
  let initialize: Record<string, unknown> | undefined;
  let initialized: Buffer | undefined;
  let setLevel: Record<string, unknown> | undefined;
  const subscriptions = new Map<string, Record<string, unknown>>();

  let mode: 'local' | 'switching' | 'new' = 'local';
  /** Requests the in-process server took and has not answered. */
  const localWaiting = new Set<string>();
  const queued: { bytes: Buffer; m: Peeked }[] = [];
  let localOpen = true;
  let child: HandoverChild | undefined;
  let childExit: Promise<number | null> = Promise.resolve(0);
  let hostGone = false;
  let exitCode = 0;

  const toHost = (bytes: Buffer) => void stdout.write(line(bytes));
  const answerHost = (message: unknown) => toHost(Buffer.from(JSON.stringify(message)));
  /** A line a server sent that could not be read whole becomes an error for its request. */
  const unreadable = (frame: Extract<Frame, { ok: false }>, from: string) => {
    log(`an answer of the ${from} server could not be passed on (${frame.message})`);
    if (frame.id === null) return null;
    answerHost({ jsonrpc: '2.0', id: frame.id, error: { code: JSONRPC_INTERNAL_ERROR, message: `Internal error: the answer could not be passed on (${frame.message})` } });
    return String(frame.id);
  };

  // The in-process server, on streams of its own.
  const localIn = new PassThrough();
  const fromLocal = new LineFramer((frame) => {
    if (!frame.ok) {
      const id = unreadable(frame, 'in-process');
      if (id !== null) localWaiting.delete(id);
    } else {
      const m = peek(frame.value);
      if (isId(m.id) && m.method === undefined) localWaiting.delete(String(m.id));
      toHost(frame.bytes);
    }
    retireLocalWhenDone();
  });
  const local = await options.serveInProcess(
    localIn,
    new Writable({
      write(chunk: Buffer, _enc, cb) {
        fromLocal.push(chunk);
        cb();
      },
    }),
  );
  const localClosed = local.closed.then(() => {
    localOpen = false;
  });

  const toLocal = (bytes: Buffer, m: Peeked) => {
    if (isId(m.id) && typeof m.method === 'string') localWaiting.add(String(m.id));
    localIn.write(line(bytes));
  };
  const route = (bytes: Buffer, m: Peeked) => {
    if (mode === 'local') toLocal(bytes, m);
    else if (mode === 'switching') queued.push({ bytes, m });
    else child!.stdin.write(line(bytes));
  };

  function retireLocalWhenDone(): void {
    if (mode !== 'new' || !localOpen || localWaiting.size > 0 || localIn.writableEnded) return;
    log('the calls of the version before have been answered: its server closes');
    localIn.end();
  }

  const fromHost = new LineFramer((frame) => {
    if (!frame.ok) return answerHost(refusalOf(frame));
    const m = peek(frame.value);
    const message = frame.value as Record<string, unknown>;
    if (m.method === 'initialize') initialize = message;
    else if (m.method === 'notifications/initialized') initialized = frame.bytes;
    else if (m.method === 'logging/setLevel') setLevel = message;
    else if (m.method === 'resources/subscribe' && typeof m.params?.uri === 'string') subscriptions.set(m.params.uri, message);
    else if (m.method === 'resources/unsubscribe' && typeof m.params?.uri === 'string') subscriptions.delete(m.params.uri);
    // A cancel for a call the old server is answering goes there, whichever serves now.
    if (m.method === 'notifications/cancelled' && isId(m.params?.requestId) && localWaiting.has(String(m.params.requestId)) && localOpen) {
      localIn.write(line(frame.bytes));
      return;
    }
    route(frame.bytes, m);
  });

  /** The handover under way, if any: the end waits for it to settle one way or the other. */
  let switching: Promise<void> = Promise.resolve();
  async function handOver(version: string): Promise<void> {
    if (mode !== 'local' || hostGone) return;
    mode = 'switching';
    log(`Gardener ${version} was installed over this one: handing the session over to it`);
    let started: HandoverChild;
    try {
      started = options.startNew();
    } catch (err) {
      return stayLocal(`it could not be started (${(err as Error).message})`);
    }
    child = started;
    let answered: (m: Peeked) => void = () => {};
    let failed: (why: string) => void = () => {};
    const answer = new Promise<Peeked>((resolve, reject) => {
      answered = resolve;
      failed = (why) => reject(new Error(why));
    });
    const mine = new Set<string>();
    const replay = (message: Record<string, unknown>, name: string) => {
      const id = `${HANDOVER_ID_PREFIX}${name}`;
      mine.add(id);
      started.stdin.write(line(Buffer.from(JSON.stringify({ ...message, id }))));
    };
    const fromNew = new LineFramer((frame) => {
      if (!frame.ok) return void unreadable(frame, 'new');
      const m = peek(frame.value);
      if (isId(m.id) && m.method === undefined && mine.delete(String(m.id))) {
        if (m.id === `${HANDOVER_ID_PREFIX}initialize`) answered(m);
        return;
      }
      toHost(frame.bytes);
    });
    started.stdout.on('data', (chunk: Buffer) => fromNew.push(chunk));
    started.stdin.on('error', () => {});
    childExit = new Promise((resolve) =>
      started.once('exit', (code, signal) => {
        failed(`it exited (${signal ?? `code ${code}`}) before it answered`);
        resolve(code);
        if (child === started && mode === 'new' && !hostGone) {
          log(`the version installed over this one exited (${signal ?? `code ${code}`}) under a host still there`);
          exitCode = 1;
          void end();
        }
      }),
    );
    const timer = timers.setTimeout(() => failed(`it did not answer the session's initialize within ${answerMs} ms`), answerMs);
    try {
      if (initialize) {
        replay(initialize, 'initialize');
        const m = await answer;
        if (m.error !== undefined) throw new Error(`it refused the session's initialize: ${JSON.stringify(m.error)}`);
        if (initialized) started.stdin.write(line(initialized));
        if (setLevel) replay(setLevel, 'set-level');
        let n = 0;
        for (const s of subscriptions.values()) replay(s, `subscribe-${++n}`);
        for (const [kind, cap] of Object.entries(m.result?.capabilities ?? {})) {
          if (cap?.listChanged === true) answerHost({ jsonrpc: '2.0', method: `notifications/${kind}/list_changed` });
        }
      }
    } catch (err) {
      started.kill('SIGTERM');
      return stayLocal((err as Error).message);
    } finally {
      timers.clearTimeout(timer);
    }
    mode = 'new';
    log(`the session is served by Gardener ${version} (pid ${started.pid ?? '?'}) from here`);
    for (const q of queued.splice(0)) started.stdin.write(line(q.bytes));
    retireLocalWhenDone();
  }

  function stayLocal(why: string): void {
    log(`the handover failed: ${why}; this version serves on`);
    child = undefined;
    childExit = Promise.resolve(0);
    mode = 'local';
    for (const q of queued.splice(0)) toLocal(q.bytes, q.m);
  }

  let resolveDone!: () => void;
  const done = new Promise<void>((r) => (resolveDone = r));
  let ending = false;
  async function end(): Promise<void> {
    if (ending) return;
    ending = true;
    hostGone = true;
    stopWatching();
    clearInterval(parentTimer);
    await switching;
    child?.stdin.end();
    if (!localIn.writableEnded) localIn.end();
    await Promise.all([localClosed, childExit]);
    resolveDone();
  }

  const stopWatching = options.watchUpgrade((version) => {
    switching = handOver(version);
  });
  // Once the old server has closed, nothing else watches the host: this process does.
  let parentTimer: NodeJS.Timeout | undefined;
  if (options.processHooks ?? true) {
    const initialPpid = process.ppid;
    process.once('SIGTERM', () => void end());
    process.once('SIGINT', () => void end());
    parentTimer = setInterval(() => {
      if (process.ppid !== initialPpid) void end();
    }, PARENT_CHECK_INTERVAL_MS);
    parentTimer.unref();
  }
  stdin.on('data', (chunk: Buffer) => fromHost.push(chunk));
  stdin.once('end', () => void end());
  stdin.once('close', () => void end());
  stdin.once('error', () => void end());
  // The old server closing by itself (SIGTERM, its host gone) ends the session while it serves.
  void localClosed.then(() => {
    if (mode === 'local') void end();
  });
  await done;
  return exitCode;
}
