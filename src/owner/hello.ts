/**
 * The owner socket's opening: a challenge and a hello, one JSON line each way each, then
 * newline-delimited JSON-RPC.
 *
 *   client → {"gardener":"0.1.0","nonce":"<64 hex>"}
 *   owner  → {"gardener":"0.1.0","pid":678,"proof":"<HMAC-SHA256 of the nonce, keyed by the token>"}
 *   client → {"gardener":"0.1.0","op":"mcp","folder":"/repo","pid":123,"host_pid":45}
 *   owner  → {"gardener":"0.1.0","ok":true,"pid":678}
 *
 * The client checks the socket's place before connecting and the proof before it says anything
 * of its session (verify-owner.ts): a peer that is not this home's owner learns a nonce and
 * nothing else. `op` is `mcp` (the connection becomes one MCP session), `status` (the owner
 * answers its status in the hello and closes) or `stop` (the owner answers, then shuts down;
 * the connection closes when it has). A client of another version gets `ok: false` and the
 * owner's version, and serves in-process instead.
 *
 * The proxy loads this file before deciding anything, so it imports node built-ins only.
 */
import { connect, type Socket } from 'node:net';
import { decodeUntrustedJson } from '../wire/untrusted-json.js';
import { NO_ANSWER } from './no-owner.js';
import { isNonce, makeNonce, proofHolds, socketPlaceProblem } from './verify-owner.js';

/** Most bytes a hello line may take; a longer first line is not a Gardener client. */
export const MAX_HELLO_BYTES = 64 * 1024;

export type HelloOp = 'mcp' | 'status' | 'stop';

export interface ClientChallenge {
  gardener: string;
  nonce: string;
}

export interface OwnerProof {
  gardener: string;
  pid: number;
  proof: string;
}

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

/** A verified owner's answer. */
export interface Dialed {
  socket: Socket;
  reply: OwnerHello;
  /** Bytes that arrived after the hello line (already JSON-RPC). */
  rest: Buffer;
}

/** No verified owner: why, and whether something that is not one sat there or answered. */
export interface DialFailure {
  socket?: undefined;
  why: string;
  /** False when simply nobody answered (no socket, a stale one, a silent listener). */
  untrusted: boolean;
}

export { NO_ANSWER } from './no-owner.js';

/**
 * Checks the socket's place, connects, sends a fresh nonce and checks the proof (keyed by
 * `token`), then says hello and reads the owner's hello, all within `timeoutMs`. Nothing of the
 * hello is sent to a peer that did not prove it reads this home's token.
 */
export async function dialOwner(path: string, hello: ClientHello, options: { token: string; timeoutMs: number }): Promise<Dialed | DialFailure> {
  const place = socketPlaceProblem(path);
  if (place) return place.missing ? { why: NO_ANSWER, untrusted: false } : { why: place.reason, untrusted: true };
  const deadline = Date.now() + options.timeoutMs;
  const nonce = makeNonce();
  const socket = connect(path);
  // Errors end the reads below; later ones belong to whoever takes the socket (never a crash).
  socket.on('error', () => {});
  socket.once('connect', () => socket.write(JSON.stringify({ gardener: hello.gardener, nonce } satisfies ClientChallenge) + '\n'));
  const fail = (why: string, untrusted: boolean): DialFailure => {
    socket.destroy();
    return { why, untrusted };
  };
  const challenged = await readHelloLine(socket, deadline - Date.now(), Buffer.alloc(0));
  if (!challenged) return fail(NO_ANSWER, false);
  const answer = challenged.value as Partial<OwnerProof> | undefined;
  if (typeof answer?.pid !== 'number' || !proofHolds(options.token, nonce, answer.pid, answer.proof)) {
    return fail(`the peer on ${path}${typeof answer?.pid === 'number' ? ` (says pid ${answer.pid})` : ''} did not prove it can read this home's token`, true);
  }
  socket.write(JSON.stringify(hello) + '\n');
  const got = await readHelloLine(socket, deadline - Date.now(), challenged.rest);
  const reply = got?.value as OwnerHello | undefined;
  if (!got || typeof reply?.gardener !== 'string' || typeof reply.pid !== 'number') return fail(NO_ANSWER, false);
  return { socket, reply, rest: got.rest };
}

/**
 * The owner's side of the challenge: reads it from a fresh connection and answers the proof
 * `prove` makes. Null on garbage, overflow or silence (the caller ends the connection).
 */
export async function answerChallenge(socket: Socket, timeoutMs: number, prove: (nonce: string) => OwnerProof): Promise<{ rest: Buffer } | null> {
  const got = await readHelloLine(socket, timeoutMs, Buffer.alloc(0));
  const challenge = got?.value as Partial<ClientChallenge> | undefined;
  if (!got || typeof challenge?.gardener !== 'string' || !isNonce(challenge.nonce)) return null;
  socket.write(JSON.stringify(prove(challenge.nonce)) + '\n');
  return { rest: got.rest };
}

/** Reads one hello line from a fresh server-side connection; null on garbage or overflow. */
export async function readHello(socket: Socket, timeoutMs: number, prefix: Buffer = Buffer.alloc(0)): Promise<{ hello: ClientHello; rest: Buffer } | null> {
  const got = await readHelloLine(socket, timeoutMs, prefix);
  const v = got?.value as ClientHello | undefined;
  if (!got || typeof v?.gardener !== 'string' || !['mcp', 'status', 'stop'].includes(v.op)) return null;
  return { hello: v, rest: got.rest };
}

/**
 * The next line on `socket` (after `prefix`, bytes already read), decoded as untrusted JSON,
 * within `timeoutMs` and MAX_HELLO_BYTES; the bytes after it are returned as `rest`. The
 * socket flows while it reads and is paused once it answers (or left to the caller to destroy
 * when it does not), so nothing after the line is lost.
 */
function readHelloLine(socket: Socket, timeoutMs: number, prefix: Buffer): Promise<{ value: unknown; rest: Buffer } | null> {
  return new Promise((resolve) => {
    let buf = prefix;
    let done = false;
    const finish = (value: { value: unknown; rest: Buffer } | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', onEnd);
      socket.off('close', onEnd);
      socket.pause();
      resolve(value);
    };
    const timer = setTimeout(() => finish(null), Math.max(0, timeoutMs));
    timer.unref();
    const take = (): boolean => {
      const nl = buf.indexOf(0x0a);
      if (nl === -1) {
        if (buf.length > MAX_HELLO_BYTES) finish(null);
        return false;
      }
      const decoded = decodeUntrustedJson(buf.subarray(0, nl));
      finish(decoded.ok ? { value: decoded.value, rest: buf.subarray(nl + 1) } : null);
      return true;
    };
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      take();
    };
    const onEnd = () => finish(null);
    if (take()) return;
    socket.on('data', onData);
    socket.once('error', onEnd);
    socket.once('close', onEnd);
    socket.resume();
  });
}
