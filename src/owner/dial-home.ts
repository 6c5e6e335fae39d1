/**
 * Reaching the verified owner of a Gardener home, the one place that dials it: `dialOwner`
 * speaks the client's side of the socket's hello (transports/socket/hello.ts) after checking the
 * socket's place and before saying anything of the session checks the peer's proof
 * (verify-owner.ts); `dialOwnerOf` tries the socket where this process would put it, else the one
 * its owner.json names (an owner started with another XDG_RUNTIME_DIR, as a service manager's
 * is). Used by the proxy, `serve --status/--stop`, a second `serve` and the CLI's watch status.
 * A client that cannot read the home's token cannot verify anyone, so it dials nobody.
 *
 * `gardener mcp` loads this file before deciding anything, so it imports node built-ins and
 * files that do the same only.
 */
import { connect, type Socket } from 'node:net';
import { makeNonce, readHelloLine, type ClientChallenge, type ClientHello, type OwnerHello, type OwnerProof } from '../transports/socket/hello.js';
import { readOwnerFile } from './owner-file.js';
import { runPaths } from './run-paths.js';
import { proofHolds, readTokenFile, socketPlaceProblem } from './verify-owner.js';

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

/** Nobody answered (as opposed to a peer that is not a verified owner). */
export const NO_ANSWER = 'no owner answered';

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


export async function dialOwnerOf(home: string, hello: ClientHello, timeoutMs: number): Promise<(Dialed & { socketPath: string }) | DialFailure> {
  const paths = runPaths(home);
  const read = readTokenFile(paths.tokenFile);
  if (!('token' in read)) {
    // No token: no owner ever started here (every owner makes one). Any other problem: nobody can be verified.
    return read.problem === 'missing' ? { why: NO_ANSWER, untrusted: false } : { why: `cannot verify an owner without the token: ${read.reason}`, untrusted: true };
  }
  const options = { token: read.token, timeoutMs };
  const first = await dialOwner(paths.socket, hello, options);
  if (first.socket) return { ...first, socketPath: paths.socket };
  const named = readOwnerFile(paths.ownerFile)?.socket;
  if (!named || named === paths.socket) return first;
  const second = await dialOwner(named, hello, options);
  if (second.socket) return { ...second, socketPath: named };
  // The more telling of the two: something that is not a verified owner beats silence.
  return first.untrusted ? first : second;
}
