/**
 * A session `gardener mcp` serves in-process, handed to another server when a better one is
 * there. Two reasons, each a thing the host must never notice:
 *
 *   - **An owner of this home answers** (its service manager restarted it after the proxy fell
 *     back, or someone started one): two processes would serve one brain, each with its
 *     watchers, ticks and writers, and this one's memory would stay for the window's life. The
 *     session moves to the owner; if that owner goes away in turn, it comes back in-process, as
 *     the proxy's fallback does (mcp-proxy.ts), and looks for an owner again.
 *   - **Another version is installed over this one**: every thread it starts afterwards (a pool
 *     thread, a store writer woken from its idle end) and every module it loads lazily would come
 *     from the new files beside its old main thread. The session moves to the same command line
 *     started again from the new files; this process is a pipe from then on.
 *
 * A move: the session is told to the other server as the host opened it (the host's `initialize`
 * and `initialized`, its logging level, its resource subscriptions), each request under an id of
 * its own whose answer the host never sees; from its `initialize` answer on, the host's lines go
 * there and its lines to the host, and the host is told its tools (prompts, resources) may have
 * changed. Calls the in-process server took are answered there (a cancel for one goes there),
 * then its input ends and it joins its threads. A server that does not answer within
 * HANDOVER_ANSWER_MS, refuses or goes away first is let go, and in-process serves on with what
 * the host sent meanwhile. An owner that goes away after the move: a new in-process server is
 * told the session again, with the calls the owner left unanswered.
 *
 * Lines are cut by the one framer (src/wire/line-framer.ts), both ways.
 */
import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { PassThrough, Writable, type Readable } from 'node:stream';
import { isRequestId, LineFramer, peekEnvelope, refusalOf, type Envelope, type Frame } from '../../wire/index.js';
import { PARENT_CHECK_INTERVAL_MS, type RunningStdioServer } from './stdio-server.js';
import { realTimers, type Timers } from '../../timers.js';
import { OwnerLiveness } from '../proxy/owner-liveness.js';

/** How long the other server has to answer the session's `initialize`, in ms (a new process loads its SDK first). */
export const HANDOVER_ANSWER_MS = 30_000;
/** How often an in-process session looks for an owner of its home, in ms. */
export const OWNER_LOOK_MS = 5_000;
/** The ids of the lines replayed to another server start so; their answers are never the host's. */
export const HANDOVER_ID_PREFIX = 'gardener-handover-';

/** JSON-RPC's Internal error: an answer that could not be passed on. */
const JSONRPC_INTERNAL_ERROR = -32603;

/** Another server, as the move uses it: lines out, bytes in, and its end. */
export interface OtherServer {
  /** 'owner': the session comes back in-process if it goes; 'new-version': the session ends with it. */
  readonly kind: 'owner' | 'new-version';
  /** Said in the log: `the owner (pid 12)`, `Gardener 2.0.0 (pid 34)`. */
  readonly name: string;
  write(bytes: Buffer): void;
  onData(fn: (chunk: Buffer) => void): void;
  /** Resolves once it has gone (its process exited, its socket closed). */
  readonly gone: Promise<void>;
  /** No more lines from us: it ends its session. */
  end(): void;
  /** Let go at once (a refused or silent move). */
  drop(): void;
}

export interface HandoverOptions {
  stdin?: Readable;
  stdout?: NodeJS.WritableStream;
  /** Starts an in-process server on these streams. */
  serveInProcess(stdin: Readable, stdout: Writable): Promise<RunningStdioServer>;
  /** Calls `onUpgrade` once another version has settled on disk; returns what stops looking. */
  watchUpgrade?(onUpgrade: (version: string) => void): () => void;
  /** Starts the same command line from the files now on disk (after an upgrade). */
  startNewVersion?(version: string): OtherServer | Promise<OtherServer>;
  /** A verified owner of this home of this version, connected, or null. Unset: no owner is looked for. */
  findOwner?(): Promise<OtherServer | null>;
  log(line: string): void;
  /** @default HANDOVER_ANSWER_MS */
  answerMs?: number;
  /** @default OWNER_LOOK_MS */
  ownerLookMs?: number;
  /** An owner the session moved to that is silent this long with calls waiting is left, in ms. @default PROXY_LIVENESS_MS */
  livenessMs?: number;
  /** The bounds and the owner look run on these. @default real, unref'd timers */
  timers?: Timers;
  /** End on SIGTERM, SIGINT or the host process gone (off inside the proxy and in tests). @default true */
  processHooks?: boolean;
}

export interface MovableSession {
  /** Resolves with the exit code once the host has gone and every server has closed: 0, or 1 when a new version ended under a host still there. */
  closed: Promise<number>;
  close(): Promise<void>;
}

const line = (bytes: Buffer) => Buffer.concat([bytes, Buffer.from('\n')]);

/** A line of the host's, with the envelope it was routed by. */
interface HostLine {
  bytes: Buffer;
  m: Envelope;
}

/** What another server is told before the host's own lines, and the private ids of its requests. */
interface Told {
  lines: Buffer[];
  ids: Set<string>;
}

/** An in-process server and the calls it took and has not answered. */
interface Local {
  input: PassThrough;
  waiting: Set<string>;
  open: boolean;
  closed: Promise<void>;
}

export async function startMovableSession(options: HandoverOptions): Promise<MovableSession> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const { log } = options;
  const answerMs = options.answerMs ?? HANDOVER_ANSWER_MS;
  const timers = options.timers ?? realTimers;

  /** The session as the host opened it: initialize, initialized, the last setLevel, the subscriptions by URI. */
  let initialize: Record<string, unknown> | undefined;
  let initialized: Buffer | undefined;
  let setLevel: Record<string, unknown> | undefined;
  const subscriptions = new Map<string, Record<string, unknown>>();
  /** What a server is told before the host's own lines: the session, each request under a private id. */
  const sessionLines = (): Told => {
    const told: Told = { lines: [], ids: new Set() };
    const privately = (message: Record<string, unknown>, name: string) => {
      const id = `${HANDOVER_ID_PREFIX}${name}`;
      told.ids.add(id);
      told.lines.push(Buffer.from(JSON.stringify({ ...message, id })));
    };
    if (!initialize) return told;
    privately(initialize, 'initialize');
    if (initialized) told.lines.push(initialized);
    if (setLevel) privately(setLevel, 'set-level');
    let n = 0;
    for (const s of subscriptions.values()) privately(s, `subscribe-${++n}`);
    return told;
  };

  let mode: 'local' | 'switching' | 'other' = 'local';
  let local: Local | undefined;
  let other: OtherServer | undefined;
  /** The stall check of the owner the session moved to. */
  let otherWatch: OwnerLiveness | undefined;
  /** Requests sent to the other server and not yet answered: told to in-process again if an owner goes. */
  const otherWaiting = new Map<string, HostLine>();
  const queued: HostLine[] = [];
  let hostGone = false;
  let exitCode = 0;

  const toHost = (bytes: Buffer) => void stdout.write(line(bytes));
  const answerHost = (message: unknown) => toHost(Buffer.from(JSON.stringify(message)));
  /** A line a server sent that could not be read whole becomes an error for its request. */
  const unreadable = (frame: Extract<Frame, { ok: false }>, from: string): string | null => {
    log(`an answer of ${from} could not be passed on (${frame.message})`);
    if (frame.id === null) return null;
    answerHost({ jsonrpc: '2.0', id: frame.id, error: { code: JSONRPC_INTERNAL_ERROR, message: `Internal error: the answer could not be passed on (${frame.message})` } });
    return String(frame.id);
  };
  /** Reads a server's lines: its answers to our own requests (`ours`: the replayed session, a ping) go to `onOurs`, the rest to the host. */
  const framerFor = (from: string, settle: (id: string) => void, ours: (id: string) => boolean, onOurs: (m: Envelope) => void = () => {}) =>
    new LineFramer((frame) => {
      if (!frame.ok) {
        const id = unreadable(frame, from);
        if (id !== null) settle(id);
        return;
      }
      const m = peekEnvelope(frame.value);
      if (isRequestId(m.id) && m.method === undefined) {
        if (ours(String(m.id))) return onOurs(m);
        settle(String(m.id));
      }
      toHost(frame.bytes);
    });
  /** Starts an in-process server and tells it the session (`told`) and then the calls an owner left unanswered. */
  async function startLocal(told: Told, unanswered: HostLine[]): Promise<Local> {
    const input = new PassThrough();
    const rec: Local = { input, waiting: new Set(), open: true, closed: Promise.resolve() };
    const framer = framerFor('the in-process server', (id) => {
      rec.waiting.delete(id);
      retireLocalWhenDone();
    }, (id) => told.ids.delete(id));
    const server = await options.serveInProcess(
      input,
      new Writable({
        write(chunk: Buffer, _enc, cb) {
          framer.push(chunk);
          cb();
        },
      }),
    );
    rec.closed = server.closed.then(() => {
      rec.open = false;
      if (local === rec && mode === 'local') void end();
      else if (!hostGone) log('the in-process server has closed its stores and threads');
    });
    for (const bytes of told.lines) rec.input.write(line(bytes));
    for (const l of unanswered) toLocal(rec, l);
    return rec;
  }
  const toLocal = (rec: Local, { bytes, m }: HostLine) => {
    if (isRequestId(m.id) && typeof m.method === 'string') rec.waiting.add(String(m.id));
    rec.input.write(line(bytes));
  };

  function retireLocalWhenDone(): void {
    const rec = local;
    if (mode !== 'other' || !rec || !rec.open || rec.waiting.size > 0 || rec.input.writableEnded) return;
    log('the in-process server has answered its calls: it closes');
    rec.input.end();
  }

  const route = (l: HostLine) => {
    if (mode === 'local') return toLocal(local!, l);
    if (mode === 'switching') return void queued.push(l);
    if (isRequestId(l.m.id) && typeof l.m.method === 'string') otherWaiting.set(String(l.m.id), l);
    other!.write(line(l.bytes));
    otherWatch?.setWaiting(otherWaiting.size > 0);
  };

  const fromHost = new LineFramer((frame) => {
    if (!frame.ok) return answerHost(refusalOf(frame));
    const m = peekEnvelope(frame.value);
    const message = frame.value as Record<string, unknown>;
    if (m.method === 'initialize') initialize = message;
    else if (m.method === 'notifications/initialized') initialized = frame.bytes;
    else if (m.method === 'logging/setLevel') setLevel = message;
    else if (m.method === 'resources/subscribe' && typeof m.params?.uri === 'string') subscriptions.set(m.params.uri, message);
    else if (m.method === 'resources/unsubscribe' && typeof m.params?.uri === 'string') subscriptions.delete(m.params.uri);
    else if (m.method === 'notifications/cancelled' && isRequestId(m.params?.requestId)) {
      const id = String(m.params.requestId);
      otherWaiting.delete(id);
      otherWatch?.setWaiting(otherWaiting.size > 0);
      // A cancel for a call the in-process server is answering goes there, whichever serves now.
      if (mode !== 'local' && local?.open && local.waiting.has(id)) return void local.input.write(line(frame.bytes));
    }
    route({ bytes: frame.bytes, m });
  });

  /** The move under way, if any: the end lets it go and waits for it to settle. */
  let moving: Promise<void> = Promise.resolve();
  let cancelMove: () => void = () => {};
  async function moveTo(start: () => OtherServer | Promise<OtherServer | null>, why: string): Promise<void> {
    if (mode !== 'local' || hostGone) return;
    mode = 'switching';
    let started: OtherServer | null;
    try {
      started = await start();
    } catch (err) {
      return stayLocal(`${why}, but it could not be started (${(err as Error).message})`);
    }
    if (!started) return stayLocal(null);
    const to = started;
    if (hostGone) {
      to.drop();
      return stayLocal(null);
    }
    log(`${why}: handing the session to ${to.name}`);
    let answered: (m: Envelope) => void = () => {};
    let failed: (reason: string) => void = () => {};
    const answer = new Promise<Envelope>((resolve, reject) => {
      answered = resolve;
      failed = (reason) => reject(new Error(reason));
    });
    cancelMove = () => failed('the host went away');
    const told = sessionLines();
    // An owner is watched as the proxy watches it: silent for the bound with calls waiting, it is left.
    const watch =
      to.kind === 'owner'
        ? new OwnerLiveness({
            livenessMs: options.livenessMs,
            timers,
            sendToOwner: (l) => to.write(Buffer.from(l)),
            onStalled: (silentMs) => {
              log(`${to.name} gave no sign of life for ${silentMs} ms with calls waiting`);
              to.drop();
            },
          })
        : undefined;
    const settleOther = (id: string) => {
      otherWaiting.delete(id);
      watch?.setWaiting(otherWaiting.size > 0);
    };
    const framer = framerFor(to.name, settleOther, (id) => told.ids.delete(id) || watch?.isPingId(id) === true, (m) => {
      if (m.id === `${HANDOVER_ID_PREFIX}initialize`) answered(m);
    });
    to.onData((chunk) => {
      watch?.heard();
      framer.push(chunk);
    });
    void to.gone.then(() => {
      watch?.stop();
      failed(`it went away before it answered`);
      if (other === to && mode === 'other') moving = otherGone(to);
    });
    const timer = timers.setTimeout(() => failed(`it did not answer the session's initialize within ${answerMs} ms`), answerMs);
    try {
      for (const bytes of told.lines) to.write(line(bytes));
      if (told.lines.length) {
        const m = await answer;
        if (m.error !== undefined) throw new Error(`it refused the session's initialize: ${JSON.stringify(m.error)}`);
        for (const [kind, cap] of Object.entries(m.result?.capabilities ?? {})) {
          if (cap?.listChanged === true) answerHost({ jsonrpc: '2.0', method: `notifications/${kind}/list_changed` });
        }
      }
    } catch (err) {
      to.drop();
      return stayLocal(`the move to ${to.name} failed: ${(err as Error).message}`);
    } finally {
      timers.clearTimeout(timer);
      cancelMove = () => {};
    }
    other = to;
    otherWatch = watch;
    mode = 'other';
    log(`the session is served by ${to.name} from here`);
    for (const q of queued.splice(0)) route(q);
    retireLocalWhenDone();
  }

  function stayLocal(why: string | null): void {
    if (why) log(`${why}; in-process serves on`);
    mode = 'local';
    for (const q of queued.splice(0)) toLocal(local!, q);
    if (!moveToNewVersion()) lookForOwner();
  }

  /** An install over this one seen while the session was elsewhere is acted on once it is back in-process. */
  let upgrade: { version: string; tried: boolean } | undefined;
  function moveToNewVersion(): boolean {
    const u = upgrade;
    if (!u || u.tried || mode !== 'local' || hostGone || !options.startNewVersion) return false;
    u.tried = true;
    moving = moveTo(() => options.startNewVersion!(u.version), `Gardener ${u.version} was installed over this one`);
    return true;
  }

  /** The other server went away under a host still there. */
  async function otherGone(gone: OtherServer): Promise<void> {
    other = undefined;
    otherWatch = undefined;
    if (hostGone) return;
    if (gone.kind === 'new-version') {
      log(`${gone.name} went away under a host still there: the session ends`);
      exitCode = 1;
      return void end();
    }
    const unanswered = [...otherWaiting.values()];
    otherWaiting.clear();
    log(`${gone.name} went away: serving in-process from here (telling it the session and ${unanswered.length} unanswered call${unanswered.length === 1 ? '' : 's'})`);
    mode = 'switching';
    if (local?.open && !local.input.writableEnded) {
      for (const l of unanswered) toLocal(local, l);
    } else {
      try {
        local = await startLocal(sessionLines(), unanswered);
      } catch (err) {
        log(`in-process could not start (${(err as Error).message}): the session ends`);
        exitCode = 1;
        return void end();
      }
    }
    stayLocal(null);
  }

  // Looking for an owner: one look at a time, only while in-process.
  let ownerTimer: unknown;
  function lookForOwner(): void {
    const find = options.findOwner;
    if (!find || hostGone || ownerTimer !== undefined) return;
    ownerTimer = timers.setTimeout(() => {
      ownerTimer = undefined;
      if (mode !== 'local' || hostGone) return;
      moving = moveTo(find, 'an owner of this home answers').then(() => lookForOwner());
    }, options.ownerLookMs ?? OWNER_LOOK_MS);
  }

  let resolveDone!: (code: number) => void;
  const closed = new Promise<number>((r) => (resolveDone = r));
  let ending: Promise<void> | undefined;
  function end(): Promise<void> {
    ending ??= (async () => {
      hostGone = true;
      stopWatching();
      timers.clearTimeout(ownerTimer);
      clearInterval(parentTimer);
      cancelMove();
      await moving;
      other?.end();
      if (local && !local.input.writableEnded) local.input.end();
      await Promise.all([local?.closed, other?.gone]);
      resolveDone(exitCode);
    })();
    return ending;
  }

  local = await startLocal({ lines: [], ids: new Set() }, []);
  const stopWatching =
    options.watchUpgrade && options.startNewVersion
      ? options.watchUpgrade((version) => {
          upgrade = { version, tried: false };
          moveToNewVersion();
        })
      : () => {};
  lookForOwner();
  // Once the in-process server has closed, nothing else watches the host: this does.
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
  return { closed, close: end };
}

/** A child process serving MCP on its stdin and stdout: the same command line, from the files an install left. */
export function childServer(child: ChildProcess, version: string): OtherServer {
  child.stdin!.on('error', () => {});
  const gone = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    kind: 'new-version',
    name: `Gardener ${version} (pid ${child.pid ?? '?'})`,
    write: (bytes) => void child.stdin!.write(bytes),
    onData: (fn) => void child.stdout!.on('data', fn),
    gone,
    end: () => void child.stdin!.end(),
    drop: () => void child.kill('SIGTERM'),
  };
}

/** An owner's socket after its hello (`rest`: what it sent after the reply). */
export function ownerSocketServer(socket: Socket, rest: Buffer, pid: number): OtherServer {
  socket.on('error', () => {});
  const gone = new Promise<void>((resolve) => {
    if (socket.destroyed) resolve();
    else socket.once('close', () => resolve());
  });
  return {
    kind: 'owner',
    name: `the owner (pid ${pid})`,
    write: (bytes) => void socket.write(bytes),
    onData: (fn) => {
      socket.on('data', fn);
      if (rest.length) fn(rest);
      socket.resume();
    },
    gone,
    // The host has gone: nothing more is read from the owner.
    end: () => void socket.destroy(),
    drop: () => void socket.destroy(),
  };
}
