/**
 * The client's side of the owner socket's hello (transports/socket/hello.ts), the one place
 * that speaks it: check the socket's place before connecting and the peer's proof before saying
 * anything of the session (verify-owner.ts). Loaded by dial-home.ts only when the home has a
 * token (an owner ran there), so a first frame in a home without one never loads sockets or
 * crypto.
 */
import { connect, type Socket } from 'node:net';
import { makeNonce, readHelloLine, type ClientChallenge, type ClientHello, type OwnerHello, type OwnerProof } from '../transports/socket/hello.js';
import { NO_ANSWER } from './no-owner.js';
import { proofHolds, socketPlaceProblem } from './verify-owner.js';
import { monotonicNow } from '../timers.js';

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
  const deadline = monotonicNow() + options.timeoutMs;
  const nonce = makeNonce();
  const socket = connect(path);
  // Errors end the reads below; later ones belong to whoever takes the socket (never a crash).
  socket.on('error', () => {});
  socket.once('connect', () => socket.write(JSON.stringify({ gardener: hello.gardener, nonce } satisfies ClientChallenge) + '\n'));
  const fail = (why: string, untrusted: boolean): DialFailure => {
    socket.destroy();
    return { why, untrusted };
  };
  const challenged = await readHelloLine(socket, deadline - monotonicNow(), Buffer.alloc(0));
  if (!challenged) return fail(NO_ANSWER, false);
  const answer = challenged.value as Partial<OwnerProof> | undefined;
  if (typeof answer?.pid !== 'number' || !proofHolds(options.token, nonce, answer.pid, answer.proof)) {
    return fail(`the peer on ${path}${typeof answer?.pid === 'number' ? ` (says pid ${answer.pid})` : ''} did not prove it can read this home's token`, true);
  }
  socket.write(JSON.stringify(hello) + '\n');
  const got = await readHelloLine(socket, deadline - monotonicNow(), challenged.rest);
  const reply = got?.value as OwnerHello | undefined;
  if (!got || typeof reply?.gardener !== 'string' || typeof reply.pid !== 'number') return fail(NO_ANSWER, false);
  return { socket, reply, rest: got.rest };
}
