/**
 * Where the owner keeps its run-time files, and the permission rules for them.
 *
 *   <home>/run/owner.json   who owns this home now (pid, version, socket, url, start time)
 *   <home>/run/owner.lock   held exclusively by the owner for its life (owner-lock.ts)
 *   <home>/token            the HTTP bearer token (0600)
 *   socket                  $XDG_RUNTIME_DIR/gardener/owner-<hash>.sock when that is set (a
 *                           tmpfs the login session owns), else <home>/run/owner.sock; a path
 *                           too long for sun_path falls back to <tmp>/gardener-<uid>/<hash>.sock
 *
 * The hash is of the home folder, so two homes of one user get two owners. Folders are made
 * 0700; a home or run folder writable by group or others is refused (someone else could swap
 * owner.json or the socket under us). The socket folder must be this user's, a real folder and
 * 0700 (verify-owner.ts): clients check the same before they connect.
 *
 * This file is loaded by the `gardener mcp` proxy: it imports node built-ins only.
 */
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { socketFolderProblem } from './verify-owner.js';
import { tokenFileOf } from './no-owner.js';

/**
 * Longest socket path we bind, in bytes: sun_path is 108 bytes on Linux and 104 on macOS,
 * including the final NUL; 100 leaves room on both.
 */
export const MAX_SOCKET_PATH_BYTES = 100;

export interface RunPaths {
  home: string;
  runDir: string;
  ownerFile: string;
  tokenFile: string;
  /** `<home>/run/owner.lock`: held (exclusively) by the owner for its whole life (owner-lock.ts). */
  lockFile: string;
  socketDir: string;
  socket: string;
  /** True when the socket fell back to `<tmp>/gardener-<uid>/` (the home path is too long). */
  fallback: boolean;
}

export function runPaths(home: string, env: NodeJS.ProcessEnv = process.env): RunPaths {
  const runDir = join(home, 'run');
  const tag = createHash('sha256').update(home).digest('hex').slice(0, 12);
  let socketDir = env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, 'gardener') : runDir;
  let socket = join(socketDir, env.XDG_RUNTIME_DIR ? `owner-${tag}.sock` : 'owner.sock');
  const fallback = Buffer.byteLength(socket) > MAX_SOCKET_PATH_BYTES;
  if (fallback) {
    const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
    socketDir = join(tmpdir(), `gardener-${uid}`);
    socket = join(socketDir, `${tag}.sock`);
  }
  return { home, runDir, ownerFile: join(runDir, 'owner.json'), tokenFile: tokenFileOf(home), lockFile: join(runDir, 'owner.lock'), socketDir, socket, fallback };
}

/** Why a folder is not private enough, or null when it is fine. */
export function unsafeFolderReason(dir: string): string | null {
  let st;
  try {
    st = statSync(dir);
  } catch {
    return null; // made below, 0700
  }
  if ((st.mode & 0o022) !== 0) {
    return `${dir} is writable by group or others (mode ${(st.mode & 0o777).toString(8)}): run \`chmod go-w ${dir}\``;
  }
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) {
    return `${dir} belongs to another user (uid ${st.uid}): use a home folder of your own (GARDENER_HOME)`;
  }
  return null;
}

/** Makes a folder 0700 if missing. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/**
 * Makes the socket folder ready for the owner, or says why it cannot be used: made 0700 if
 * missing, narrowed to 0700 when it is this user's own real folder, refused when it is another
 * user's or a symlink (whoever made it could pose as the owner). A refused fallback folder is
 * named as such, with the two ways to move the socket.
 */
export function prepareSocketFolder(paths: RunPaths): string | null {
  makePrivateDir(paths.socketDir);
  const st = lstatSync(paths.socketDir);
  const mine = typeof process.getuid !== 'function' || st.uid === process.getuid();
  if (mine && st.isDirectory() && (st.mode & 0o077) !== 0) chmodSync(paths.socketDir, 0o700);
  const problem = socketFolderProblem(paths.socketDir);
  if (!problem) return null;
  if (!paths.fallback) return problem.reason;
  return (
    `${problem.reason}. It is the socket fallback Gardener uses when the home path is too long for a Unix socket, ` +
    `and whoever made it could pose as the owner: set XDG_RUNTIME_DIR to a private folder of yours (the socket goes there), ` +
    `or use a shorter GARDENER_HOME`
  );
}
