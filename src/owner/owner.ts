/**
 * The owner's lifecycle: the one module that holds process signals, the socket file,
 * `owner.json` and the order of start and shutdown.
 *
 * Start (nothing is scanned before the listeners are up; brains open lazily on first use):
 *   1. refuse a home or run folder writable by group or others (names it and the fix)
 *   2. claim `run/owner.json` exclusively; if it exists, handshake on the socket it names:
 *      an answer means "already running" (we exit 0); CLAIM_ATTEMPTS silent tries mean a dead
 *      owner, whose file is removed (only if unchanged) and the claim retried. Never the pid.
 *   3. the socket path: a live owner there means "already running"; a stale socket is
 *      removed; a file that is not a socket is refused (we never delete what we did not make)
 *   4. listen on the socket (0600, folder 0700), then HTTP on 127.0.0.1 (token made on first start)
 *   5. rewrite owner.json with the URL, then log `ready`
 *
 * Shutdown (SIGTERM, SIGINT, `serve --stop`), bounded by SHUTDOWN_BOUND_MS in all:
 *   1. stop accepting (socket and HTTP listeners close; open connections go on)
 *   2. stop ticks between batches (vigils abort; the backlog keeps the rest)
 *   3. end sessions (socket connections close: proxies fall back in-process; HTTP sessions end)
 *   4. join workers (probe gits, writers, the pool)
 *   5. remove the socket and owner.json (only if they are still ours)
 * Past the bound the files are removed and the process exits anyway.
 */
import { lstatSync, unlinkSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { checkFolder } from '../brain/index.js';
import { UnsafePermissionsError, ListenError } from '../errors.js';
import { HttpListener } from '../http/http-listener.js';
import { SocketListener } from '../socket/socket-listener.js';
import { VERSION } from '../version.js';
import { dialOwner } from './hello.js';
import type { Logger } from './log.js';
import { OwnerBrains, type OwnerBrainsOptions } from './owner-brains.js';
import { createOwnerFile, readOwnerFile, removeOwnerFile, rewriteOwnerFile, type OwnerInfo } from './owner-file.js';
import { makePrivateDir, runPaths, unsafeFolderReason, type RunPaths } from './run-paths.js';
import { ensureToken } from './token.js';
import type { BrainWork } from './armed-brains.js';

/** The whole shutdown, in ms: service managers kill at 5–10 s; we stay well inside. */
export const SHUTDOWN_BOUND_MS = 3_000;
/** Bound on one handshake when checking whether an owner is alive, in ms. */
export const CLAIM_HANDSHAKE_MS = 1_000;
/** Handshakes tried before an owner.json is called stale. */
export const CLAIM_ATTEMPTS = 3;
/**
 * Pause between those tries, in ms: an owner that has just claimed the file listens within a
 * few ms; this window keeps a second start from calling it dead meanwhile.
 */
export const CLAIM_RETRY_PAUSE_MS = 100;

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
  log: Logger;
  env?: NodeJS.ProcessEnv;
  /** Watch SIGTERM/SIGINT and bound the shutdown with a hard exit. @default true */
  processHooks?: boolean;
  /** Per-brain background work for armed brains (the watcher's seam). */
  work?: BrainWork;
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

  constructor(parts: { info: OwnerInfo; paths: RunPaths; brains: OwnerBrains; socket: SocketListener; http: HttpListener | null; log: Logger }) {
    this.info = parts.info;
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
      sessions: { socket: this.#socket.sessions, http: this.#http?.mcp.size ?? 0 },
      max_brains: this.brains.brains.maxOpen,
      brains: this.brains.describe(),
      watched: this.brains.watchers.describe(),
    };
  }

  /** Shuts down in the order written at the top of this file. Idempotent. */
  stop(reason = 'stop'): Promise<void> {
    return (this.#stopping ??= (async () => {
      this.#log.info('shutting down', { reason });
      await Promise.all([this.#socket.stopAccepting(), this.#http?.stopAccepting()]);
      const ticksStopped = this.brains.vigils.close();
      await Promise.allSettled([this.#socket.endSessions(), this.#http?.endSessions()]);
      await ticksStopped;
      await this.brains.close();
      this.#removeFiles();
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
    removeSocketFile(this.paths.socket);
    removeOwnerFile(this.paths.ownerFile, this.info);
  }
}

/** Starts the owner, or reports the one already running. */
export async function startOwner(options: OwnerOptions): Promise<StartOutcome> {
  const { log } = options;
  const paths = runPaths(options.home, options.env);
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host) && !options.allowRemote) {
    throw new ListenError(host, 'it is not a loopback address: pass --allow-remote to bind it on purpose (the bearer token is required either way)');
  }
  for (const dir of [paths.home, paths.runDir, paths.socketDir]) {
    makePrivateDir(dir);
    const why = unsafeFolderReason(dir);
    if (why) throw new UnsafePermissionsError(dir, why);
  }
  const token = options.port === null ? '' : ensureToken(paths.tokenFile);
  const info: OwnerInfo = { pid: process.pid, version: VERSION, socket: paths.socket, url: null, started_at: new Date().toISOString() };

  const running = await claimOwnerFile(paths, info, log);
  if (running) return { started: false, running };
  let owner: Owner | undefined;
  try {
    const other = await clearSocketPath(paths.socket);
    if (other) {
      removeOwnerFile(paths.ownerFile, info);
      return { started: false, running: other };
    }
    const brains = new OwnerBrains({ home: paths.home, maxBrains: options.maxBrains, maxThreads: options.maxThreads, log, work: options.work, watch: options.watch });
    let stop = (_reason: string) => {};
    const socket = new SocketListener({
      path: paths.socket,
      log,
      openSession: (hello, onToolsChanged) => {
        const session = brains.openSession(hello.folder ?? '', onToolsChanged);
        return { session, close: () => brains.closeSession(session) };
      },
      refuse: (hello) => {
        try {
          if (typeof hello.folder !== 'string' || !isAbsolute(hello.folder)) return 'the hello must name the session folder as an absolute path';
          checkFolder(hello.folder);
          return null;
        } catch (err) {
          return (err as Error).message;
        }
      },
      status: () => owner?.status() ?? {},
      stop: () => stop('serve --stop'),
    });
    await socket.listen().catch((err: NodeJS.ErrnoException) => {
      throw new ListenError(paths.socket, err.message, { cause: err });
    });
    let http: HttpListener | null = null;
    if (options.port !== null) {
      http = new HttpListener({
        host,
        port: options.port,
        token,
        log,
        startedAt: Date.parse(info.started_at),
        brains: () => brains.describe(),
        openSession: (folder, onToolsChanged) => {
          const session = brains.openSession(folder, onToolsChanged);
          return { session, close: () => brains.closeSession(session) };
        },
      });
      try {
        info.url = await http.listen();
      } catch (err) {
        await socket.stopAccepting();
        removeSocketFile(paths.socket);
        throw err;
      }
      rewriteOwnerFile(paths.ownerFile, info);
    }
    owner = new Owner({ info, paths, brains, socket, http, log });
    const o = owner;
    stop = (reason) => o.requestStop(reason);
    if (options.processHooks ?? true) owner.hookProcess();
    log.info('ready', { pid: info.pid, version: VERSION, socket: info.socket, url: info.url, home: paths.home });
    // After the listeners: subscribe the armed brains, then one resume tick each, in turn (owner-watchers.ts).
    void brains.watchers.start().catch((err) => log.warn('watchers did not start', { error: (err as Error).message }));
    return { started: true, owner };
  } catch (err) {
    if (!owner) removeOwnerFile(paths.ownerFile, info);
    throw err;
  }
}

/** Claims owner.json; returns the running owner's info when another owner answers. */
async function claimOwnerFile(paths: RunPaths, info: OwnerInfo, log: Logger): Promise<OwnerInfo | null> {
  for (let round = 0; round < 5; round++) {
    if (createOwnerFile(paths.ownerFile, info)) return null;
    const seen = readOwnerFile(paths.ownerFile);
    const answer = seen ? await handshake(seen.socket) : null;
    if (answer) return { ...seen!, pid: answer.pid };
    // Stale (or unreadable): remove it only if nobody replaced it meanwhile.
    log.warn('taking over a stale owner.json (no owner answered on its socket)', { file: paths.ownerFile, stale_pid: seen?.pid ?? null });
    if (seen) removeOwnerFile(paths.ownerFile, seen);
    else removeOwnerFile(paths.ownerFile);
  }
  throw new ListenError(paths.ownerFile, 'another owner keeps claiming it; try again');
}

/** Pings an owner socket up to CLAIM_ATTEMPTS times; its hello when it answers. */
async function handshake(path: string): Promise<{ pid: number } | null> {
  for (let i = 0; i < CLAIM_ATTEMPTS; i++) {
    const d = await dialOwner(path, { gardener: VERSION, op: 'status', pid: process.pid }, CLAIM_HANDSHAKE_MS);
    if (d) {
      d.socket.destroy();
      return { pid: d.reply.pid };
    }
    if (i + 1 < CLAIM_ATTEMPTS) await new Promise((r) => setTimeout(r, CLAIM_RETRY_PAUSE_MS));
  }
  return null;
}

/** Makes the socket path free: a live owner there is returned; a stale socket is removed. */
async function clearSocketPath(path: string): Promise<OwnerInfo | null> {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return null;
  }
  if (!st.isSocket()) {
    throw new ListenError(path, 'the path is taken by a file that is not a socket: move it away (Gardener never deletes what it did not make)');
  }
  const d = await dialOwner(path, { gardener: VERSION, op: 'status', pid: process.pid }, CLAIM_HANDSHAKE_MS);
  if (d) {
    d.socket.destroy();
    const status = (d.reply.status ?? {}) as Partial<OwnerInfo>;
    return { pid: d.reply.pid, version: d.reply.gardener, socket: path, url: status.url ?? null, started_at: status.started_at ?? '' };
  }
  unlinkSync(path);
  return null;
}

function removeSocketFile(path: string): void {
  try {
    if (lstatSync(path).isSocket()) unlinkSync(path);
  } catch {
    // Already gone.
  }
}

function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1' || host.startsWith('127.');
}
