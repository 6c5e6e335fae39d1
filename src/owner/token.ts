/**
 * The home's token: 32 random bytes, hex, made on the owner's first start in `<home>/token`
 * with mode 0600. Every owner has one (HTTP on or off): it is the HTTP bearer token (checked
 * by transports/http/http-guard.ts, which is handed it) and what the owner proves to its socket
 * clients (verify-owner.ts).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { TokenUnreadableError, UnsafePermissionsError } from '../errors.js';
import { readTokenFile } from './verify-owner.js';

/** Bytes of randomness in a token. */
export const TOKEN_BYTES = 32;

/**
 * The token in `file`, made first if the file does not exist. Made whole before it appears:
 * written to a file of this process's own, then hard-linked to `file`, which fails if another
 * start made it first (and then that one's whole token is read). Opening `file` itself with
 * O_EXCL left it empty for a moment, and an owner started at the same time read no token.
 * A home that has its token (every start but the first) is only read.
 */
export function ensureToken(file: string): string {
  const read = readTokenFile(file);
  if ('token' in read) return read.token;
  if (read.problem === 'missing') {
    const made = makeToken(file);
    if (made !== null) return made;
  }
  return readToken(file);
}

/** A new token linked into place at `file`, or null when another start made it first. */
function makeToken(file: string): string | null {
  const token = randomBytes(TOKEN_BYTES).toString('hex');
  return linkToken(file, token) ? token : null;
}

/** Writes `token` whole to a file of its own, then links it to `file`; false when `file` exists. */
function linkToken(file: string, token: string): boolean {
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.new`;
  try {
    const fd = openSync(draft, 'wx', 0o600);
    try {
      writeSync(fd, token + '\n');
    } finally {
      closeSync(fd);
    }
    linkSync(draft, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new TokenUnreadableError(file, (err as Error).message, { cause: err });
  } finally {
    try {
      unlinkSync(draft);
    } catch {
      // never made (the open failed): nothing to remove
    }
  }
}

/**
 * A running owner's look at its token file (owner.ts keepFiles): clients verify the owner by the
 * token they read there, so a file removed from under the owner is written again with the token
 * the owner holds ('restored'). A file holding another token, or one that cannot be read, is not
 * the owner's to change ('other'): clients cannot verify this owner until it restarts and reads it.
 */
export function keepToken(file: string, token: string): 'kept' | 'restored' | 'other' {
  const read = readTokenFile(file);
  if ('token' in read) return read.token === token ? 'kept' : 'other';
  if (read.problem !== 'missing') return 'other';
  return linkToken(file, token) ? 'restored' : 'other';
}

export function readToken(file: string): string {
  const read = readTokenFile(file);
  if ('token' in read) return read.token;
  if (read.problem === 'unsafe') throw new UnsafePermissionsError(file, read.reason);
  throw new TokenUnreadableError(file, read.reason);
}
