/**
 * Whether a live process holds this home's owner lock (owner-lock.ts), asked without taking it.
 * It is how `gardener mcp` tells an owner that is slow to answer (it holds the lock: wait for
 * it) from one that is gone (the kernel dropped the lock with the process: serve in-process).
 *
 * On Linux the kernel's own table says it, `/proc/locks` (a POSIX write lock on the file's
 * device and inode, with the holder's pid), and asking takes no lock: a proxy that asks while an
 * owner starts can never make that owner's `BEGIN EXCLUSIVE` find the file busy. Elsewhere (or
 * when that table names no lock on the file: a file system that reports another device there)
 * the question goes to SQLite, as the lock is SQLite's: a read on the lock file with busy
 * timeout 0 is refused while the owner's exclusive transaction is open, and holds a shared lock
 * only for the instant of the read.
 *
 * Loaded only after a dial found no answer: it may load the store's driver.
 */
import { readFileSync, statSync } from 'node:fs';

export interface LockHolder {
  held: boolean;
  /** The holder's pid, when the kernel's table named it. */
  pid: number | null;
}

/** The `MAJOR:MINOR:INODE` a /proc/locks line names a file by (hex device numbers, decimal inode). */
function procLocksId(dev: number, ino: number): string {
  const major = Math.floor(dev / 256) & 0xfff;
  const minor = (dev & 0xff) | (Math.floor(dev / 4096) & 0xfff00);
  return `${major.toString(16).padStart(2, '0')}:${minor.toString(16).padStart(2, '0')}:${ino}`;
}

/** The pid /proc/locks names as holding a write lock on this file; undefined when the table cannot be read. */
function writeLockerOf(dev: number, ino: number): number | null | undefined {
  let table: string;
  try {
    table = readFileSync('/proc/locks', 'utf8');
  } catch {
    return undefined;
  }
  const id = procLocksId(dev, ino);
  for (const line of table.split('\n')) {
    // "1: POSIX  ADVISORY  WRITE 5303 fe:00:2187268 1073741824 1073742335"
    const f = line.trim().split(/\s+/);
    if (f[1] === 'POSIX' && f[3] === 'WRITE' && f[5] === id) return Number(f[4]) || null;
  }
  return null;
}

/** SQLITE_BUSY or SQLITE_LOCKED, whichever driver said it. */
function isBusy(err: unknown): boolean {
  const e = (err ?? {}) as { code?: unknown; errcode?: unknown; message?: unknown };
  if (e.code === 'SQLITE_BUSY' || e.code === 'SQLITE_LOCKED') return true;
  if (typeof e.errcode === 'number' && ((e.errcode & 0xff) === 5 || (e.errcode & 0xff) === 6)) return true;
  return typeof e.message === 'string' && /database is locked/i.test(e.message);
}

export async function ownerLockHolder(lockFile: string): Promise<LockHolder> {
  let st;
  try {
    st = statSync(lockFile);
  } catch {
    return { held: false, pid: null }; // no lock file: no owner ever ran here
  }
  const pid = writeLockerOf(st.dev, st.ino);
  if (typeof pid === 'number') return { held: true, pid };
  return { held: await sqliteSaysHeld(lockFile), pid: null };
}

/** SQLite's answer (any platform): a read with busy timeout 0 is refused while the owner's exclusive transaction is open. */
export async function sqliteSaysHeld(lockFile: string): Promise<boolean> {
  const { openDatabase } = await import('../store/index.js');
  const db = openDatabase(lockFile, { readonly: true, busyTimeoutMs: 0 });
  try {
    db.prepare('SELECT count(*) AS n FROM sqlite_master').get();
    return false;
  } catch (err) {
    if (isBusy(err)) return true;
    throw err;
  } finally {
    db.close();
  }
}
