/**
 * The owner socket's opening: a challenge and a hello, one JSON line each way each, then
 * newline-delimited JSON-RPC.
 *
 *   client → {"gardener":"0.1.0","nonce":"<64 hex>"}
 *   owner  → {"gardener":"0.1.0","pid":678,"proof":"<HMAC-SHA256 of the nonce, keyed by the token>"}
 *   client → {"gardener":"0.1.0","op":"mcp","folder":"/repo","pid":123,"host_pid":45}
 *   owner  → {"gardener":"0.1.0","ok":true,"pid":678}
 *
 * This file is the protocol: the lines, their limits and the owner's side of reading them. The
 * client's side, which checks the socket's place before connecting and the proof before it says
 * anything of its session, is the one place that dials the owner (owner/dial-home.ts, with the
 * checks of owner/verify-owner.ts): a peer that is not this home's owner learns a nonce and
 * nothing else. `op` is `mcp` (the connection becomes one MCP session), `status` (the owner
 * answers its status in the hello and closes), `stop` (the owner answers, then shuts down;
 * the connection closes when it has) or `brains` (the owner removes the brains the hello's
 * `remove` names, `{"prune":true}` or `{"ids":[…]}`, answers what went in `removal`, and closes). A client of another version gets `ok: false` and the
 * owner's version, and serves in-process instead.
 *
 * `gardener mcp` loads this file (through the dial) before deciding anything, so it imports node
 * built-ins and the untrusted-JSON rule only.
 */
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import { decodeUntrustedJson } from '../../wire/untrusted-json.js';

/** Most bytes a hello line may take; a longer first line is not a Gardener client. */
export const MAX_HELLO_BYTES = 64 * 1024;
/** Bytes of randomness in a client's nonce. */
export const NONCE_BYTES = 32;

export function makeNonce(): string {
  return randomBytes(NONCE_BYTES).toString('hex');
}

export function isNonce(value: unknown): value is string {
  return typeof value === 'string' && value.length === NONCE_BYTES * 2 && /^[0-9a-f]+$/.test(value);
}

export type HelloOp = 'mcp' | 'status' | 'stop' | 'brains';
const HELLO_OPS: readonly string[] = ['mcp', 'status', 'stop', 'brains'];

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
  /** For `brains`: what to remove (checked by the owner). */
  remove?: unknown;
}

export interface OwnerHello {
  gardener: string;
  ok: boolean;
  pid: number;
  error?: string;
  status?: Record<string, unknown>;
  /** For `brains`: what was removed. */
  removal?: Record<string, unknown>;
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
  if (!got || typeof v?.gardener !== 'string' || !HELLO_OPS.includes(v.op)) return null;
  return { hello: v, rest: got.rest };
}

/**
 * The next line on `socket` (after `prefix`, bytes already read), decoded as untrusted JSON,
 * within `timeoutMs` and MAX_HELLO_BYTES; the bytes after it are returned as `rest`. The
 * socket flows while it reads and is paused once it answers (or left to the caller to destroy
 * when it does not), so nothing after the line is lost.
 */
export function readHelloLine(socket: Socket, timeoutMs: number, prefix: Buffer): Promise<{ value: unknown; rest: Buffer } | null> {
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
