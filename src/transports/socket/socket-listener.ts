/**
 * The owner's Unix socket: what `gardener mcp` proxies connect to.
 *
 * A connection opens with a challenge and a hello line each way (hello.ts), then carries newline-delimited
 * JSON-RPC: one connection is one MCP session, built by `createSessionServer` exactly as stdio
 * builds it, on the same LineTransport (the one framer: a line that is not JSON, not UTF-8,
 * nested too deep or over MAX_LINE_BYTES is answered with a JSON-RPC error and the session goes
 * on, as on stdio). A bad hello or a peer that hangs up ends that connection only; the owner
 * and other sessions carry on. The session is opened on the hello (the host's folder checks are
 * the one rule: a folder they refuse is the hello's `ok: false` and its message).
 */
import { createServer, type Server as NetServer, type Socket } from 'node:net';
import { chmodSync } from 'node:fs';
import { answerChallenge, readHello, type OwnerHello, type OwnerProof } from './hello.js';
import { openSessionServer, type SessionServer } from '../session-server.js';
import type { SessionHost } from '../session-host.js';
import { LineTransport } from '../line-transport.js';
import type { Logger } from '../../log.js';
import { VERSION } from '../../version.js';

/** How long a new connection has to say hello, in ms. */
export const HELLO_TIMEOUT_MS = 5_000;

export interface SocketListenerOptions {
  path: string;
  log: Logger;
  /** Opens the session of each MCP connection, for the hello's folder (the owner's). */
  sessionHost: SessionHost;
  status: () => Record<string, unknown>;
  /** The owner's answer to a client's nonce (keyed by the home's token: hello.ts). */
  prove: (nonce: string) => OwnerProof;
  /** Asked to stop by `serve --stop`: the connection stays open until the process exits. */
  stop: () => void;
  /** Asked by `gardener brains --prune/--remove`: removes what `remove` names (untrusted; the host checks it). */
  removeBrains?: (remove: unknown) => Promise<Record<string, unknown>>;
}

export class SocketListener {
  readonly path: string;
  /** The server accepting now; servers before it were replaced (listenAgain) and closed. */
  #server: NetServer | null = null;
  #accepting = true;
  #connections = new Set<{ socket: Socket; close(): Promise<void> }>();
  #options: SocketListenerOptions;

  constructor(options: SocketListenerOptions) {
    this.path = options.path;
    this.#options = options;
  }

  listen(): Promise<void> {
    return this.listenAgain(this.path);
  }

  /**
   * Listens on a socket at `path` and stops accepting on the one before (its sessions go on):
   * the owner's socket file was removed from under it and is bound anew (src/owner/socket-file.ts).
   */
  async listenAgain(path: string): Promise<void> {
    if (!this.#accepting) throw new Error('the socket listener no longer accepts connections');
    const server = createServer((socket) => void this.#accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        chmodSync(path, 0o600);
        resolve();
      });
    });
    const before = this.#server;
    this.#server = server;
    before?.close();
  }

  get sessions(): number {
    return this.#connections.size;
  }

  /** Stops accepting; existing connections go on until `endSessions`. */
  stopAccepting(): Promise<void> {
    // close() stops accepting now; its callback would wait for every connection to end.
    this.#accepting = false;
    this.#server?.close();
    return Promise.resolve();
  }

  /** Ends every session (proxies fall back in-process) and joins their work. */
  async endSessions(): Promise<void> {
    await Promise.allSettled([...this.#connections].map((c) => c.close()));
  }

  async #accept(socket: Socket): Promise<void> {
    const { log } = this.#options;
    socket.on('error', (err) => log.debug('socket connection error', { error: err.message }));
    const challenged = await answerChallenge(socket, HELLO_TIMEOUT_MS, this.#options.prove);
    const opened = challenged && (await readHello(socket, HELLO_TIMEOUT_MS, challenged.rest));
    if (!opened) {
      log.warn('socket connection without a valid hello line: closed');
      socket.destroy();
      return;
    }
    const { hello, rest } = opened;
    const reply = (r: Omit<OwnerHello, 'gardener' | 'pid'>) => socket.write(JSON.stringify({ gardener: VERSION, pid: process.pid, ...r }) + '\n');
    if (hello.op === 'status') {
      reply({ ok: true, status: this.#options.status() });
      socket.end();
      return;
    }
    if (hello.op === 'stop') {
      reply({ ok: true });
      this.#options.stop();
      return;
    }
    if (hello.op === 'brains') {
      const remove = this.#options.removeBrains;
      try {
        if (!remove) throw new Error('this owner does not remove brains');
        reply({ ok: true, removal: await remove(hello.remove) });
      } catch (err) {
        const e = err as { code?: unknown; message?: string };
        reply({ ok: false, error: `${e.message ?? String(err)}${typeof e.code === 'string' && e.code.startsWith('GDN_') ? ` [${e.code}]` : ''}` });
      }
      socket.end();
      return;
    }
    const refuse = (error: string) => {
      reply({ ok: false, error });
      socket.end();
    };
    if (hello.gardener !== VERSION) return refuse(`the owner runs Gardener ${VERSION}, the client ${hello.gardener}`);
    if (typeof hello.folder !== 'string') return refuse('the hello must name the session folder as an absolute path');
    let sessionServer: SessionServer;
    try {
      sessionServer = openSessionServer(this.#options.sessionHost, hello.folder, (line) => log.warn(line, { client_pid: hello.pid }));
    } catch (err) {
      return refuse((err as Error).message);
    }
    let ended: Promise<void> | undefined;
    const conn = {
      socket,
      close: () =>
        (ended ??= (async () => {
          this.#connections.delete(conn);
          socket.destroy();
          await sessionServer.close();
        })()),
    };
    this.#connections.add(conn);
    socket.once('close', () => void conn.close());
    const transport = new LineTransport(socket, socket);
    transport.onerror = (err) => log.debug('socket session error', { client_pid: hello.pid, error: err.message });
    reply({ ok: true });
    await sessionServer.server.connect(transport);
    if (rest.length > 0) socket.emit('data', rest);
    socket.resume();
    log.debug('socket session opened', { client_pid: hello.pid, host_pid: hello.host_pid, folder: hello.folder });
  }
}
