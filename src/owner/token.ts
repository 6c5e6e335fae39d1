/**
 * The HTTP bearer token: 32 random bytes, hex, made on the owner's first start in
 * `<home>/token` with mode 0600, and compared in constant time.
 */
import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import { openSync, readFileSync, writeSync, closeSync, statSync } from 'node:fs';
import { GardenerError, TokenUnreadableError, UnsafePermissionsError } from '../errors.js';

/** Bytes of randomness in a token. */
export const TOKEN_BYTES = 32;

/** The token in `file`, made first if the file does not exist. */
export function ensureToken(file: string): string {
  try {
    const fd = openSync(file, 'wx', 0o600);
    const token = randomBytes(TOKEN_BYTES).toString('hex');
    try {
      writeSync(fd, token + '\n');
    } finally {
      closeSync(fd);
    }
    return token;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new TokenUnreadableError(file, (err as Error).message, { cause: err });
  }
  return readToken(file);
}

export function readToken(file: string): string {
  let text: string;
  try {
    const st = statSync(file);
    if ((st.mode & 0o077) !== 0) throw new UnsafePermissionsError(file, `is readable or writable by group or others (mode ${(st.mode & 0o777).toString(8)}): run \`chmod 600 "${file}"\``);
    text = readFileSync(file, 'utf8').trim();
  } catch (err) {
    if (err instanceof GardenerError) throw err;
    throw new TokenUnreadableError(file, (err as NodeJS.ErrnoException).code ?? (err as Error).message, { cause: err });
  }
  if (!/^[0-9a-f]{32,}$/.test(text)) throw new TokenUnreadableError(file, 'it does not hold a token');
  return text;
}

/** Constant-time comparison of a presented bearer token (hashes first: lengths may differ). */
export function tokenMatches(presented: string, token: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}
