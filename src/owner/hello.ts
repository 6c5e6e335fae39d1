/**
 * The owner socket's opening: one JSON line each way, then newline-delimited JSON-RPC.
 *
 *   client → {"gardener":"0.1.0","op":"mcp","folder":"/repo","pid":123,"host_pid":45}
 *   owner  → {"gardener":"0.1.0","ok":true,"pid":678}
 *
 * `op` is `mcp` (the connection becomes one MCP session), `status` (the owner answers its
 * status in the hello and closes) or `stop` (the owner answers, then shuts down; the
 * connection closes when it has). A client of another version gets `ok: false` and the
 * owner's version, and serves in-process instead.
 *
 * The proxy loads this file before deciding anything, so it imports node built-ins only.
 */
import { connect, type Socket } from 'node:net';

/** Most bytes a hello line may take; a longer first line is not a Gardener client. */
export const MAX_HELLO_BYTES = 64 * 1024;

export type HelloOp = 'mcp' | 'status' | 'stop';

export interface ClientHello {
  gardener: string;
  op: HelloOp;
  folder?: string;
  pid: number;
  host_pid?: number;
}

export interface OwnerHello {
  gardener: string;
  ok: boolean;
  pid: number;
  error?: string;
  status?: Record<string, unknown>;
}

export interface Dialed {
  socket: Socket;
  reply: OwnerHello;
  /** Bytes that arrived after the hello line (already JSON-RPC). */
  rest: Buffer;
}

/**
 * Connects, says hello and reads the owner's hello, all within `timeoutMs`. Resolves null when
 * nobody answers in time (no socket, a stale socket, a hung or foreign listener).
 */
export async function dialOwner(path: string, hello: ClientHello, timeoutMs: number): Promise<Dialed | null> {
  const socket = connect(path);
  socket.once('connect', () => socket.write(JSON.stringify(hello) + '\n'));
  const got = await readHelloLine(socket, timeoutMs, (v): v is OwnerHello => typeof (v as OwnerHello)?.gardener === 'string' && typeof (v as OwnerHello).pid === 'number');
  if (!got) {
    socket.destroy();
    return null;
  }
  return { socket, reply: got.value, rest: got.rest };
}

/** Reads one hello line from a fresh server-side connection; null on garbage or overflow. */
export async function readHello(socket: Socket, timeoutMs: number): Promise<{ hello: ClientHello; rest: Buffer } | null> {
  const got = await readHelloLine(socket, timeoutMs, (v): v is ClientHello => typeof (v as ClientHello)?.gardener === 'string' && ['mcp', 'status', 'stop'].includes((v as ClientHello).op));
  return got && { hello: got.value, rest: got.rest };
}

/**
 * The first line on `socket`, parsed and checked, within `timeoutMs` and MAX_HELLO_BYTES; the
 * bytes after it are already JSON-RPC. The socket is paused once it answers (or left to the
 * caller to destroy when it does not).
 */
function readHelloLine<T>(socket: Socket, timeoutMs: number, valid: (v: unknown) => v is T): Promise<{ value: T; rest: Buffer } | null> {
  return new Promise((resolve) => {
    let buf = Buffer.alloc(0);
    let done = false;
    const finish = (value: { value: T; rest: Buffer } | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.off('data', onData);
      socket.pause();
      resolve(value);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    timer.unref();
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const nl = buf.indexOf(0x0a);
      if (nl === -1) {
        if (buf.length > MAX_HELLO_BYTES) finish(null);
        return;
      }
      try {
        const value: unknown = JSON.parse(buf.subarray(0, nl).toString('utf8'));
        finish(valid(value) ? { value, rest: buf.subarray(nl + 1) } : null);
      } catch {
        finish(null);
      }
    };
    socket.on('data', onData);
    socket.once('error', () => finish(null));
    socket.once('close', () => finish(null));
  });
}
