/**
 * The owner lock: liveness is the kernel's word, not a timeout. The owner holds an exclusive
 * lock on `run/owner.lock` for its whole life; whoever holds it is the owner, and the kernel
 * drops it the instant the process dies (SIGKILL included), so a dead owner's lock is free at
 * once and a stopped or stalled one's never is.
 *
 * Node has no flock in core, so the lock is SQLite's own: a connection through the store's
 * driver adapter (node:sqlite, bun:sqlite or better-sqlite3) on an empty database file in the
 * default rollback-journal mode, busy timeout 0, with `BEGIN EXCLUSIVE` kept open. SQLite's
 * unix VFS takes that as POSIX fcntl write locks, which the kernel releases with the process;
 * a second process (or connection) gets SQLITE_BUSY at once. Measured on Node 20
 * (better-sqlite3), Node 24 (node:sqlite) and Bun (bun:sqlite): held, refused, freed at once
 * by SIGKILL.
 *
 * Two rules keep it held: the connection stays referenced for the owner's life (Bun closes a
 * Database that is garbage-collected, which drops the lock), and nothing else in the process
 * opens and closes `owner.lock` (closing any descriptor of a file drops the process's fcntl
 * locks on it; SQLite guards only its own).
 */
import { lstatSync, writeFileSync } from 'node:fs';
import { openDatabase, type Database } from '../store/index.js';
import { fileIdOf, isFileAt, type FileId } from './file-id.js';

export class OwnerLock {
  readonly file: string;
  #db: Database | null;
  /** The file this lock holds. */
  readonly #id: FileId | null;

  private constructor(file: string, db: Database) {
    this.file = file;
    this.#db = db;
    this.#id = fileIdOf(file);
  }

  /**
   * Whether the file at the lock's path is still the one this lock holds. Not when the home (or
   * its run folder) was removed or replaced: a lock on a removed file keeps nobody out, and the
   * next `gardener serve` takes a new one beside this owner.
   */
  stillAtItsPath(): boolean {
    return isFileAt(this.file, this.#id);
  }

  /** Takes the lock, or returns null at once when a live process holds it. */
  static take(file: string): OwnerLock | null {
    try {
      lstatSync(file);
    } catch {
      // Made here, private, before SQLite opens it (it would make it 0644).
      writeFileSync(file, '', { flag: 'a', mode: 0o600 });
    }
    const db = openDatabase(file, { busyTimeoutMs: 0 });
    try {
      db.exec('BEGIN EXCLUSIVE');
    } catch (err) {
      db.close();
      if (isBusy(err)) return null;
      throw err;
    }
    return new OwnerLock(file, db);
  }

  /** Gives the lock back (the owner's last step); idempotent. */
  release(): void {
    const db = this.#db;
    this.#db = null;
    if (!db) return;
    try {
      db.exec('ROLLBACK');
    } finally {
      db.close();
    }
  }
}

/** SQLITE_BUSY (5) or SQLITE_LOCKED (6), whichever driver said it. */
function isBusy(err: unknown): boolean {
  const e = (err ?? {}) as { code?: unknown; errcode?: unknown; errno?: unknown; message?: unknown };
  if (e.code === 'SQLITE_BUSY' || e.code === 'SQLITE_LOCKED') return true;
  const n = typeof e.errcode === 'number' ? e.errcode : typeof e.errno === 'number' ? e.errno : undefined;
  if (n !== undefined && ((n & 0xff) === 5 || (n & 0xff) === 6)) return true;
  return typeof e.message === 'string' && /database is locked/i.test(e.message);
}
