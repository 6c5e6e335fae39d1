/**
 * A brain's store files are the user's alone (0600): they hold the user's code, notes and
 * paths, and the brain's 0700 folder should not be their only guard (a folder loosened by hand,
 * a copy or backup that keeps the files' modes but not the folder's).
 *
 * SQLite makes the -wal and -shm files itself, later (the first write in WAL mode, the first
 * reader), and gives them the mode of the database file (its unix VFS, the same under
 * better-sqlite3, node:sqlite and bun:sqlite). So brain.db is created 0600 before SQLite opens
 * it, and the other two follow. Not umask: it is process-wide, and worker threads (where the
 * store writer runs) may not change it. A store an older Gardener left 0644 (and a WAL or SHM
 * a crash left beside it) is made 0600 on its next open.
 */
import { chmodSync, closeSync, openSync, statSync } from 'node:fs';

/** The mode of brain.db, its WAL and its SHM: read and write for the user only. */
export const STORE_FILE_MODE = 0o600;

/** The files SQLite keeps for a database, beside it. */
const SIDE_FILES = ['', '-wal', '-shm'];

/**
 * Makes a store's files private: creates the database file 0600 when `create` and it is
 * missing, and takes group and other bits off each of the three files that exists. A file we
 * may not change (another owner's, a read-only mount) is left as it is; opening it says more.
 */
export function makeStoreFilesPrivate(file: string, create: boolean): void {
  if (file === '' || file === ':memory:' || file.startsWith('file:')) return;
  if (create) {
    try {
      closeSync(openSync(file, 'wx', STORE_FILE_MODE));
    } catch {
      // It exists (the usual case), or cannot be made: SQLite's open names the problem.
    }
  }
  for (const suffix of SIDE_FILES) {
    try {
      const mode = statSync(file + suffix).mode & 0o777;
      if ((mode & 0o077) !== 0) chmodSync(file + suffix, mode & 0o700);
    } catch {
      // Missing (no WAL yet), or not ours to change.
    }
  }
}
