/**
 * `run/owner.json`: who owns this Gardener home (pid, socket, URL, start time). Written
 * atomically (write beside, rename), only by the holder of the owner lock (owner-lock.ts): the
 * lock says who owns, so of two `gardener serve` started at once exactly one goes on, and a
 * dead owner's file is simply replaced. The pid in it is for people and for messages; it is
 * never trusted to say an owner lives (pids are reused). An owner removes the file only while
 * it still holds its own pid and start time.
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
