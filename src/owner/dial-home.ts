/**
 * Reaching the verified owner of a Gardener home: `dialOwnerOf` tries the socket where this
 * process would put it, else the one its owner.json names (an owner started with another
 * XDG_RUNTIME_DIR, as a service manager's is), each through dial-owner.ts (place, proof,
 * hello). Used by the proxy, `serve --status/--stop`, a second `serve` and the CLI's watch
 * status. A client that cannot read the home's token cannot verify anyone, so it dials nobody.
 *
 * `gardener mcp` loads this file before deciding anything: it imports node:fs and
 * no-owner.ts only, and loads the dial (sockets, crypto, the proof) only when the home has a
 * token.
 */
import { lstatSync } from 'node:fs';
import type { ClientHello } from '../transports/socket/hello.js';
import type { Dialed, DialFailure } from './dial-owner.js';
import { NO_ANSWER, tokenFileOf } from './no-owner.js';

export type { Dialed, DialFailure } from './dial-owner.js';

function tokenMissing(file: string): boolean {
  try {
    lstatSync(file);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** False when no owner ever started in this home (every owner makes the token first). */
export function ownerEverRan(home: string): boolean {
  return !tokenMissing(tokenFileOf(home));
}

export async function dialOwnerOf(home: string, hello: ClientHello, timeoutMs: number): Promise<(Dialed & { socketPath: string }) | DialFailure> {
  // No token: no owner ever started here (every owner makes one). Said before the dial's
  // modules load, so the first frame of such a home pays nothing for them.
  if (tokenMissing(tokenFileOf(home))) return { why: NO_ANSWER, untrusted: false };
  const [{ dialOwner }, { readOwnerFile }, { runPaths }, { readTokenFile }] = await Promise.all([
    import('./dial-owner.js'),
    import('./owner-file.js'),
    import('./run-paths.js'),
    import('./verify-owner.js'),
  ]);
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
