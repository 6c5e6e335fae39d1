/**
 * The owner's lifecycle: the one module that holds process signals, the owner lock, the socket
 * file, `owner.json` and the order of start and shutdown.
 *
 * Liveness is the kernel's word: the owner is whoever holds `run/owner.lock` (owner-lock.ts),
 * never a pid and never a handshake that timed out. Only the holder writes owner.json or the
 * socket path, and an owner removes only what it made.
 *
 * Start (nothing is scanned before the listeners are up; brains open lazily on first use):
 *   1. refuse a home or run folder writable by group or others, and a socket folder that is not
 *      this user's own 0700 folder (names it and the fix); make the token if there is none
 *   2. take the owner lock. Held by a live process: if it answers (and proves it reads the
 *      token) on its socket, "already running" (we exit 0); else GDN_OWNER_UNRESPONSIVE. Either
 *      way owner.json and the socket are left alone
 *   3. holding the lock: a socket left at the socket path is a dead owner's and is removed; a
 *      file that is not a socket is refused (we never delete what we did not make)
 *   4. write owner.json (replacing a dead owner's), listen on the socket (0600, folder 0700;
 *      bound under a private name and renamed into place, its device and inode remembered),
 *      then HTTP on 127.0.0.1
 *   5. rewrite owner.json with the URL, then log `ready`
 *
 * While it runs, every OWNER_FILES_CHECK_MS (keepFiles): its socket or token file removed from
 * under it is made again; its lock file removed or replaced (the home deleted) stops it, exit EXIT_HOME_LOST.
 *
 * Shutdown (SIGTERM, SIGINT, `serve --stop`, an install over it, its home removed), bounded by SHUTDOWN_BOUND_MS in all:
 *   1. stop accepting (socket and HTTP listeners close; open connections go on)
 *   2. stop ticks between batches (vigils abort; the backlog keeps the rest)
 *   3. end sessions (socket connections close: proxies fall back in-process; HTTP sessions end)
 *   4. join workers (probe gits, writers, the pool)
 *   5. remove the socket (only if its device and inode are still ours) and owner.json (only if
 *      it still holds our pid and start time), then release the lock
 * Past the bound the files are removed and the process exits anyway (the kernel drops the lock).
 */
import { lstatSync, renameSync, unlinkSync } from 'node:fs';
import { UnsafePermissionsError, ListenError, OwnerUnresponsiveError } from '../errors.js';
import { HttpListener } from '../transports/http/http-listener.js';
import { isLoopbackHost } from '../transports/http/loopback.js';
import { SocketListener } from '../transports/socket/socket-listener.js';
import { VERSION } from '../version.js';
import { dialOwner } from './dial-owner.js';
import { NO_ANSWER } from './no-owner.js';
import type { Logger } from '../log.js';
import { OwnerBrains, type OwnerBrainsOptions } from './owner-brains.js';
import { readOwnerFile, removeOwnerFile, rewriteOwnerFile, type OwnerInfo } from './owner-file.js';
import { OwnerLock } from './owner-lock.js';
import { makePrivateDir, prepareSocketFolder, runPaths, unsafeFolderReason, type RunPaths } from './run-paths.js';
import { ensureToken, keepToken } from './token.js';
import { proveOwner } from './verify-owner.js';
import { PageRoutes } from '../page/index.js';
import { HomeBrains } from './home-brains.js';
import { removalChoiceOf } from '../brain/index.js';
import { pageReadsOf } from './page-reads-host.js';
import { threadHeap, type ThreadHeap } from '../../workers/types.js';
import { keepPagesReturned } from '../page-return.js';
import { EXIT_UPGRADED, watchForUpgrade } from './upgrade-watch.js';
import { bindPathBeside, removeSocketFile, SocketKeeper } from './socket-file.js';
import { fileIdOf, type FileId } from './file-id.js';
import { monotonicNow, realTimers } from '../timers.js';
import { callsInFlight } from '../dispatch/calls-in-flight.js';

/** How often the owner looks at its lock and socket files (keepFiles), in ms. */
export const OWNER_FILES_CHECK_MS = 60_000;
/**
 * The owner's exit code once its home was removed or replaced from under it (EX_TEMPFAIL, as
 * after an install over it: a service manager starts it again, on the new home).
 */
export const EXIT_HOME_LOST = 75;

/** The whole shutdown, in ms: service managers kill at 5–10 s; we stay well inside. */
export const SHUTDOWN_BOUND_MS = 3_000;
/**
 * How long a second start asks the lock holder to answer on its socket, in ms. Only to tell
 * "already running" from "holds the home but does not answer": it never decides who owns.
 */
export const HOLDER_ANSWER_MS = 1_000;
/** Pause between tries within HOLDER_ANSWER_MS when the holder is not listening yet, in ms. */
export const HOLDER_RETRY_PAUSE_MS = 50;

export interface OwnerOptions {
  home: string;
  /** HTTP port; 0 picks a free one; null turns HTTP off. */
  port: number | null;
  /** @default '127.0.0.1' */
  host?: string;
  /** Allows a host that is not loopback (the token is required either way). @default false */
  allowRemote?: boolean;
  maxBrains?: number;
  maxThreads?: number;
  /** Quiet before an open brain's writer thread ends, in ms. @default WRITER_IDLE_MS */
  writerIdleMs?: number;
  log: Logger;
  env?: NodeJS.ProcessEnv;
  /** How often the owner reads its package.json for an install over it (upgrade-watch.ts). @default UPGRADE_CHECK_MS */
  upgradeCheckMs?: number;
  /** How often the owner looks at its lock and socket files (keepFiles). @default OWNER_FILES_CHECK_MS */
  filesCheckMs?: number;
  /** Watch SIGTERM/SIGINT and bound the shutdown with a hard exit. @default true */
  processHooks?: boolean;
  /** The live watchers' options (tests inject shorter windows). */
  watch?: OwnerBrainsOptions['watch'];
}

export type StartOutcome = { started: true; owner: Owner } | { started: false; running: OwnerInfo };

export class Owner {
  readonly info: OwnerInfo;
  readonly paths: RunPaths;
  readonly brains: OwnerBrains;
  readonly closed: Promise<void>;
  #socket: SocketListener;
  #http: HttpListener | null;
  #log: Logger;
  #stopping: Promise<void> | undefined;
  #resolveClosed!: () => void;
  #unhook: () => void = () => {};
  #hardExit: NodeJS.Timeout | undefined;
  #processHooks = false;
  #stopUpgradeWatch: () => void = () => {};
  #stopKeepingFiles: () => void = () => {};
  /** What the process exits with once stopped: EXIT_UPGRADED after an install over its code. */
  exitCode = 0;
  #lock: OwnerLock;
  #socketId: FileId | null;
  /** The last heaps the pool and writer threads reported (status() asks again, without waiting). */
  #threadHeaps: { pool: ThreadHeap | null; writers: Record<string, ThreadHeap>; at: string | null } = { pool: null, writers: {}, at: null };
  #askingHeaps = false;

  /** The home's token, as this owner read it at start: what it proves and checks. */
  #token: string;

  constructor(parts: { info: OwnerInfo; paths: RunPaths; brains: OwnerBrains; socket: SocketListener; socketId: FileId | null; http: HttpListener | null; lock: OwnerLock; token: string; log: Logger }) {
    this.info = parts.info;
    this.#token = parts.token;
    this.#lock = parts.lock;
    this.#socketId = parts.socketId;
    this.paths = parts.paths;
    this.brains = parts.brains;
    this.#socket = parts.socket;
    this.#http = parts.http;
    this.#log = parts.log;
    this.closed = new Promise((r) => (this.#resolveClosed = r));
  }

  status(): Record<string, unknown> {
    return {
      ...this.info,
      uptime_s: Math.round((Date.now() - Date.parse(this.info.started_at)) / 1000),
      sessions: { socket: this.#socket.sessions, http: this.#http?.sessions.size('mcp') ?? 0, rest: this.#http?.sessions.size('rest') ?? 0 },
      max_brains: this.brains.brains.maxOpen,
      brains: this.brains.describe(),
      watched: this.brains.watchers.describe(),
      heaps: this.#heaps(),
    };
  }

  /**
   * Each thread's V8 heap (JavaScriptCore's on Bun), for the soak (bench/soak/): the main
   * thread's now; a pool thread's and each open brain's writer's as they last answered. status()
   * is synchronous (the socket answers it at once), so it asks them again for the next status
   * and never waits: their figures are one status call old.
   */
  #heaps(): { main: ThreadHeap; pool: ThreadHeap | null; writers: Record<string, ThreadHeap>; threads_at: string | null } {
    if (!this.#askingHeaps) {
      this.#askingHeaps = true;
      // Only writers running now: asking a parked one would start its thread again.
      const open = this.brains.brains.openBrains().filter((b) => b.writerRunning);
      void Promise.allSettled([this.brains.brains.pool.heapStatsIfRunning() ?? Promise.resolve(null), ...open.map((b) => b.writer.heapStats())])
        .then(([pool, ...writers]) => {
          const w: Record<string, ThreadHeap> = {};
          writers.forEach((r, i) => {
            if (r.status === 'fulfilled') w[open[i]!.id] = r.value;
          });
          this.#threadHeaps = { pool: pool!.status === 'fulfilled' ? (pool.value as ThreadHeap | null) : null, writers: w, at: new Date().toISOString() };
        })
        .finally(() => (this.#askingHeaps = false));
    }
    const t = this.#threadHeaps;
    return { main: threadHeap(), pool: t.pool, writers: t.writers, threads_at: t.at };
  }

  /** Shuts down in the order written at the top of this file. Idempotent. */
  stop(reason = 'stop'): Promise<void> {
    return (this.#stopping ??= (async () => {
      this.#log.info('shutting down', { reason });
      this.#stopUpgradeWatch();
      this.#stopKeepingFiles();
      await Promise.all([this.#socket.stopAccepting(), this.#http?.stopAccepting()]);
      const ticksStopped = this.brains.vigils.close();
      await Promise.allSettled([this.#socket.endSessions(), this.#http?.endSessions()]);
      await ticksStopped;
      await this.brains.close();
      this.#removeFiles();
      this.#lock.release();
      this.#unhook();
      this.#log.info('stopped', { reason });
      this.#resolveClosed();
    })());
  }

  /**
   * Stops within SHUTDOWN_BOUND_MS or exits anyway (files removed first): what signals and
   * `serve --stop` call when the owner runs as a process.
   */
  stopBounded(reason: string): void {
    this.#hardExit ??= setTimeout(() => {
      this.#log.error('shutdown took too long: exiting anyway', { bound_ms: SHUTDOWN_BOUND_MS });
      this.#removeFiles();
      process.exit(1);
    }, SHUTDOWN_BOUND_MS);
    void this.stop(reason);
  }

  /**
   * Stops, exiting EXIT_UPGRADED, once another version of Gardener is installed over this
   * owner's files (upgrade-watch.ts): the service manager then starts the new one.
   */
  watchForUpgrade(everyMs?: number): void {
    this.#stopUpgradeWatch = watchForUpgrade({
      running: VERSION,
      everyMs,
      onUpgrade: (version) => {
        this.#log.warn(`Gardener ${version} was installed over this owner's ${VERSION}: stopping so the new version serves (a service manager starts it again; run by hand, start \`gardener serve\` again)`, { running: VERSION, on_disk: version, exit_code: EXIT_UPGRADED });
        this.exitCode = EXIT_UPGRADED;
        this.stopBounded('installed over');
      },
    });
  }

  /**
   * Every `everyMs`, looks at the files the owner's clients find it by. The lock file no longer
   * the one it holds (the home, or its run folder, removed or replaced): the owner stops, exiting
   * EXIT_HOME_LOST, since a lock on a removed file keeps no second owner out and what it writes
   * goes to removed stores. The token file gone: written again with the token the owner holds
   * (token.ts keepToken). The socket gone: bound again (socket-file.ts).
   */
  keepFiles(everyMs = OWNER_FILES_CHECK_MS): void {
    const socket = new SocketKeeper({
      path: this.paths.socket,
      current: () => this.#socketId,
      prepareFolder: () => prepareSocketFolder(this.paths),
      bind: (bindPath) => this.#socket.listenAgain(bindPath),
      rebound: (id) => (this.#socketId = id),
      log: this.#log,
    });
    let timer: unknown;
    let stopped = false;
    let tokenSaid = false;
    const look = async () => {
      if (!this.#lock.stillAtItsPath()) {
        this.#log.error('the owner lock file was removed or replaced (the home or its run folder was removed?): stopping; a service manager starts the owner again', { lock: this.#lock.file, exit_code: EXIT_HOME_LOST });
        this.exitCode = EXIT_HOME_LOST;
        this.requestStop('home removed');
        return;
      }
      const token = keepToken(this.paths.tokenFile, this.#token);
      if (token === 'restored') this.#log.warn('the token file was removed from under the owner: written again with the token it holds', { token_file: this.paths.tokenFile });
      if (token === 'other' && !tokenSaid) this.#log.warn('the token file no longer holds the token this owner proves: clients cannot verify it until it restarts and reads the file (`gardener serve --stop`; a service manager starts it again)', { token_file: this.paths.tokenFile });
      tokenSaid = token === 'other';
      await socket.check();
      this.#log.debug('owner files looked at');
      if (!stopped) timer = realTimers.setTimeout(() => void look(), everyMs);
    };
    timer = realTimers.setTimeout(() => void look(), everyMs);
    this.#stopKeepingFiles = () => {
      stopped = true;
      realTimers.clearTimeout(timer);
    };
  }

  hookProcess(): void {
    this.#processHooks = true;
    const onTerm = () => this.stopBounded('SIGTERM');
    const onInt = () => this.stopBounded('SIGINT');
    process.on('SIGTERM', onTerm);
    process.on('SIGINT', onInt);
    this.#unhook = () => {
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onInt);
      clearTimeout(this.#hardExit);
    };
  }

  /** What `serve --stop` asks for: bounded when the owner owns its process. */
  requestStop(reason: string): void {
    if (this.#processHooks) this.stopBounded(reason);
    else void this.stop(reason);
  }

  #removeFiles(): void {
    removeSocketFile(this.paths.socket, this.#socketId);
    removeOwnerFile(this.paths.ownerFile, this.info);
  }
}

/** Starts the owner, or reports the one already running. */
export async function startOwner(options: OwnerOptions): Promise<StartOutcome> {
  const { log } = options;
  const paths = runPaths(options.home, options.env);
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && !options.allowRemote) {
    throw new ListenError(host, 'it is not a loopback address: pass --allow-remote to bind it on purpose (the bearer token is required either way)');
  }
  for (const dir of [paths.home, paths.runDir]) {
    makePrivateDir(dir);
    const why = unsafeFolderReason(dir);
    if (why) throw new UnsafePermissionsError(dir, why);
  }
  const socketFolder = prepareSocketFolder(paths);
  if (socketFolder) throw new UnsafePermissionsError(paths.socketDir, socketFolder);
  // Always: the socket's clients verify the owner by it, HTTP or not.
  const token = ensureToken(paths.tokenFile);
  const info: OwnerInfo = { pid: process.pid, version: VERSION, socket: paths.socket, url: null, started_at: new Date().toISOString() };

  const lock = OwnerLock.take(paths.lockFile);
  if (!lock) return { started: false, running: await holderAnswer(paths, token) };
  let owner: Owner | undefined;
  let wroteOwnerFile = false;
  try {
    clearSocketPath(paths.socket, readOwnerFile(paths.ownerFile), log);
    rewriteOwnerFile(paths.ownerFile, info);
    wroteOwnerFile = true;
    const brains = new OwnerBrains({ home: paths.home, maxBrains: options.maxBrains, maxThreads: options.maxThreads, writerIdleMs: options.writerIdleMs, log, watch: options.watch });
    let stop = (_reason: string) => {};
    // Bound under a private name, then renamed into place: closing a Unix socket server makes
    // libuv unlink the path it bound, which would delete whatever socket then sits at the real
    // path (another owner's). The name it bound is gone after the rename; we remove ours by inode.
    const bindPath = bindPathBeside(paths.socket, 0);
    removeSocketFile(bindPath, fileIdOf(bindPath));
    const socket = new SocketListener({
      path: bindPath,
      log,
      prove: (nonce) => ({ gardener: VERSION, pid: process.pid, proof: proveOwner(token, nonce, process.pid) }),
      sessionHost: brains,
      status: () => owner?.status() ?? {},
      stop: () => stop('serve --stop'),
      removeBrains: (remove) => brains.removeBrains(removalChoiceOf(remove)),
    });
    await socket.listen().catch((err: NodeJS.ErrnoException) => {
      throw new ListenError(paths.socket, err.message, { cause: err });
    });
    renameSync(bindPath, paths.socket);
    const socketId = fileIdOf(paths.socket);
    let http: HttpListener | null = null;
    if (options.port !== null) {
      const homeBrains = new HomeBrains(paths.home, brains);
      http = new HttpListener({
        host,
        port: options.port,
        token,
        log,
        startedAt: Date.parse(info.started_at),
        brains: () => brains.describe(),
        sessionHost: brains,
        // The page lists every brain of the home (closed ones read-only), reads code lines and a
        // file's history under the tools' rules (src/tools/page-reads.ts), and removes a brain
        // whose folders are gone: docs/page.md.
        page: new PageRoutes({ brains: () => homeBrains.describe(), reads: pageReadsOf(brains), removeBrain: (id) => brains.removeBrains({ ids: [id] }, { goneOnly: true }) }),
      });
      try {
        info.url = await http.listen();
      } catch (err) {
        await socket.stopAccepting();
        removeSocketFile(paths.socket, socketId);
        throw err;
      }
      rewriteOwnerFile(paths.ownerFile, info);
    }
    owner = new Owner({ info, paths, brains, socket, socketId, http, lock, token, log });
    const o = owner;
    stop = (reason) => o.requestStop(reason);
    owner.keepFiles(options.filesCheckMs);
    if (options.processHooks ?? true) {
      owner.hookProcess();
      // Owning its process, it gives the main heap's garbage pages back once the heap grew (src/page-return.ts),
      // just after an answer has left, so no call waits behind the collection (src/dispatch/calls-in-flight.ts).
      keepPagesReturned(callsInFlight.afterLastCall);
      owner.watchForUpgrade(options.upgradeCheckMs);
    }
    log.info('ready', { pid: info.pid, version: VERSION, socket: info.socket, url: info.url, home: paths.home });
    // After the listeners: subscribe the armed brains, then one resume tick each, in turn (owner-watchers.ts).
    void brains.watchers.start().catch((err) => log.warn('watchers did not start', { error: (err as Error).message }));
    return { started: true, owner };
  } catch (err) {
    if (!owner) {
      if (wroteOwnerFile) removeOwnerFile(paths.ownerFile, info);
      lock.release();
    }
    throw err;
  }
}

/**
 * The lock is held by a live process: "already running" when it answers on its socket and
 * proves it reads the token, within HOLDER_ANSWER_MS; otherwise it holds the home but does not
 * answer. Reads owner.json (for its pid and socket) and touches nothing.
 */
async function holderAnswer(paths: RunPaths, token: string): Promise<OwnerInfo> {
  const deadline = monotonicNow() + HOLDER_ANSWER_MS;
  let why = 'nothing listens on its socket';
  for (;;) {
    const seen = readOwnerFile(paths.ownerFile);
    const sockets = [...new Set([paths.socket, seen?.socket].filter((p): p is string => typeof p === 'string'))];
    for (const path of sockets) {
      const d = await dialOwner(path, { gardener: VERSION, op: 'status', pid: process.pid }, { token, timeoutMs: Math.max(1, Math.round(deadline - monotonicNow())) });
      if (d.socket) {
        d.socket.destroy();
        const status = (d.reply.status ?? {}) as Partial<OwnerInfo>;
        return { pid: d.reply.pid, version: d.reply.gardener, socket: path, url: status.url ?? seen?.url ?? null, started_at: status.started_at ?? seen?.started_at ?? '' };
      }
      if (d.untrusted || d.why !== NO_ANSWER) why = d.why;
      else why = `no answer on ${path} within ${HOLDER_ANSWER_MS} ms`;
    }
    // Not listening yet (it took the lock a moment ago) or silent: ask again while time remains.
    if (monotonicNow() + HOLDER_RETRY_PAUSE_MS >= deadline) throw new OwnerUnresponsiveError(seen?.pid ?? null, paths.home, why);
    await new Promise((r) => setTimeout(r, HOLDER_RETRY_PAUSE_MS));
  }
}

/**
 * Run only by the lock holder: a socket at the path is a dead owner's (the live one would hold
 * the lock) and is removed; anything else there is refused, never deleted.
 */
function clearSocketPath(path: string, stale: OwnerInfo | null, log: Logger): void {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return;
  }
  if (!st.isSocket()) {
    throw new ListenError(path, 'the path is taken by a file that is not a socket: move it away (Gardener never deletes what it did not make)');
  }
  log.warn('removing a dead owner\'s socket (the owner lock was free)', { socket: path, stale_pid: stale?.pid ?? null });
  unlinkSync(path);
}
