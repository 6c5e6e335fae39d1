/**
 * `run/owner.json`: who owns this Gardener home. Created exclusively (O_EXCL), so of two
 * `gardener serve` started at once exactly one goes on; rewritten atomically (write beside,
 * rename) once the listeners are up. The pid in it is for people and for `--status`: a stale
 * file is recognised by a failed handshake on its socket, never by the pid (pids are reused).
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';

export interface OwnerInfo {
  pid: number;
  version: string;
  socket: string;
  /** The HTTP base URL, or null when HTTP is off. */
  url: string | null;
  started_at: string;
}

/** The owner file's contents, or null when it is missing or unreadable as JSON. */
export function readOwnerFile(file: string): OwnerInfo | null {
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as OwnerInfo;
    return typeof info?.pid === 'number' && typeof info.socket === 'string' ? info : null;
  } catch {
    return null;
  }
}

/** Creates the file only if it does not exist; false when it does. */
export function createOwnerFile(file: string, info: OwnerInfo): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, JSON.stringify(info) + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

export function rewriteOwnerFile(file: string, info: OwnerInfo): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, JSON.stringify(info) + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

/** Removes the file if it still holds `expected` (a newer owner's file is left alone). */
export function removeOwnerFile(file: string, expected?: OwnerInfo): void {
  if (expected) {
    const now = readOwnerFile(file);
    if (now && (now.pid !== expected.pid || now.started_at !== expected.started_at)) return;
  }
  try {
    unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
