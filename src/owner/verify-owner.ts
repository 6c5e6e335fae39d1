/**
 * How a client knows the peer on an owner socket is this home's owner, and not another local
 * user who got to the socket path first (the `<tmp>/gardener-<uid>/` fallback is in a
 * world-writable folder). Two checks, both before the session (folder, calls) is sent:
 *
 *   1. the place: with lstat, the socket's folder is a real folder (not a symlink) owned by
 *      this uid with no group or other bits, and the socket is a real socket owned by this uid;
 *   2. the peer: it answers a fresh random nonce (its format is the socket's hello:
 *      transports/socket/hello.ts) with HMAC-SHA256 keyed by the home's token
 *      (`<home>/token`, 0600): only a reader of this home can make it.
 *
 * The proof is bound to its direction and to the pid the owner names, so it cannot be replayed
 * as anything else. Compared in constant time. The proxy loads this file before deciding
 * anything, so it imports node built-ins only (token.ts wraps `readTokenFile` in errors).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { lstatSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** What the proof's MAC covers first: names the direction (owner to client) and the scheme. */
const PROOF_LABEL = 'gardener owner proof v1: owner to client';

const uid = (): number | null => (typeof process.getuid === 'function' ? process.getuid() : null);

/** The owner's answer to `nonce`: what only a holder of `token` can compute. */
export function proveOwner(token: string, nonce: string, ownerPid: number): string {
  return createHmac('sha256', token).update(`${PROOF_LABEL}\n${nonce}\n${ownerPid}`).digest('hex');
}

/** True when `proof` is the owner's answer to `nonce` for this token and pid (constant time). */
export function proofHolds(token: string, nonce: string, ownerPid: number, proof: unknown): boolean {
  if (typeof proof !== 'string' || !/^[0-9a-f]{64}$/.test(proof)) return false;
  return timingSafeEqual(Buffer.from(proveOwner(token, nonce, ownerPid), 'hex'), Buffer.from(proof, 'hex'));
}

export type TokenRead = { token: string } | { problem: 'missing' | 'unsafe' | 'unreadable' | 'not-a-token'; reason: string };

/**
 * The token in `file`, or why it cannot be used: missing, readable or writable by group or
 * others, not this user's, not a regular file, or not a token. Throws nothing.
 */
export function readTokenFile(file: string): TokenRead {
  let text: string;
  try {
    const st = lstatSync(file);
    if (!st.isFile()) return { problem: 'unsafe', reason: `${file} is not a regular file` };
    if ((st.mode & 0o077) !== 0) return { problem: 'unsafe', reason: `${file} is readable or writable by group or others (mode ${(st.mode & 0o777).toString(8)}): run \`chmod 600 "${file}"\`` };
    const me = uid();
    if (me !== null && st.uid !== me) return { problem: 'unsafe', reason: `${file} belongs to another user (uid ${st.uid})` };
    text = readFileSync(file, 'utf8').trim();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { problem: 'missing', reason: `${file} does not exist` };
    return { problem: 'unreadable', reason: code ?? (err as Error).message };
  }
  if (!/^[0-9a-f]{32,}$/.test(text)) return { problem: 'not-a-token', reason: 'it does not hold a token' };
  return { token: text };
}

/**
 * Why the folder is not a private socket folder of this user, or null when it is: a real folder
 * (lstat: not a symlink), owned by this uid, no group or other bits. `missing` when it is not there.
 */
export function socketFolderProblem(dir: string): { missing: boolean; reason: string } | null {
  let st;
  try {
    st = lstatSync(dir);
  } catch (err) {
    return { missing: (err as NodeJS.ErrnoException).code === 'ENOENT', reason: `${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
  }
  if (st.isSymbolicLink()) return { missing: false, reason: `the socket folder ${dir} is a symlink` };
  if (!st.isDirectory()) return { missing: false, reason: `the socket folder ${dir} is not a folder` };
  const me = uid();
  if (me !== null && st.uid !== me) return { missing: false, reason: `the socket folder ${dir} belongs to another user (uid ${st.uid}, you are ${me})` };
  if ((st.mode & 0o077) !== 0) return { missing: false, reason: `the socket folder ${dir} is open to group or others (mode ${(st.mode & 0o777).toString(8)}, not 700)` };
  return null;
}

/**
 * Why a client must not connect to `path`, or null when its place is trusted: the folder as
 * above, then the socket itself (lstat: a socket, owned by this uid). `missing` when nothing is
 * there (no owner), as opposed to something that is not a verified owner's.
 */
export function socketPlaceProblem(path: string): { missing: boolean; reason: string } | null {
  const folder = socketFolderProblem(dirname(path));
  if (folder) return folder;
  let st;
  try {
    st = lstatSync(path);
  } catch (err) {
    return { missing: (err as NodeJS.ErrnoException).code === 'ENOENT', reason: `${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
  }
  if (!st.isSocket()) return { missing: false, reason: `${path} is not a socket${st.isSymbolicLink() ? ' (a symlink)' : ''}` };
  const me = uid();
  if (me !== null && st.uid !== me) return { missing: false, reason: `the socket ${path} belongs to another user (uid ${st.uid}, you are ${me})` };
  return null;
}
