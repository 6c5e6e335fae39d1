/**
 * Why a store could not be opened, told honestly. Only a file SQLite calls "not a database" or
 * "malformed", or a database of another application, is a corrupt store (and only then does
 * the message say to move it aside and rebuild). A permission, lock or disk failure names the
 * file and the errno and never suggests moving a healthy store aside; a native module built
 * for another Node names the module and `npm rebuild`. Anything else goes up unchanged.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  GardenerError, StoreCorruptError, StoreIoError, StoreLockedError, StorePermissionError,
} from '../errors.js';
import { abiMismatch, nativeLoadFailure } from './drivers/choose-driver.js';

/** SQLite's primary result codes (the low byte of an extended code), as node:sqlite reports them. */
const SQLITE_PRIMARY: Record<number, string> = {
  3: 'SQLITE_PERM', 5: 'SQLITE_BUSY', 6: 'SQLITE_LOCKED', 8: 'SQLITE_READONLY', 10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT', 13: 'SQLITE_FULL', 14: 'SQLITE_CANTOPEN', 23: 'SQLITE_AUTH', 26: 'SQLITE_NOTADB',
};

export function openFailure(file: string, err: unknown): unknown {
  if (err instanceof GardenerError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (abiMismatch(message)) return nativeLoadFailure('better-sqlite3', err);
  const errno = errnoOf(err);
  const primary = errno.replace(/^(SQLITE_[A-Z]+?)(_[A-Z_]+)?$/, '$1');
  const options = { cause: err };
  if (primary === 'SQLITE_NOTADB' || primary === 'SQLITE_CORRUPT' || /not a database|malformed|file is encrypted/i.test(message)) {
    return new StoreCorruptError(file, 'it is not a SQLite database, or it is damaged', options);
  }
  if (primary === 'SQLITE_BUSY' || primary === 'SQLITE_LOCKED') return new StoreLockedError(file, errno, message, options);
  if (primary === 'SQLITE_IOERR' || primary === 'SQLITE_FULL' || errno === 'ENOSPC' || errno === 'EIO') {
    return new StoreIoError(file, errno, message, options);
  }
  if (['SQLITE_READONLY', 'SQLITE_PERM', 'SQLITE_AUTH', 'EACCES', 'EPERM', 'EROFS'].includes(primary)) {
    return new StorePermissionError(file, errno, message, options);
  }
  if (primary === 'SQLITE_CANTOPEN') {
    // SQLite says only "unable to open database file": ask the file system which it is.
    const denied = accessDenied(file);
    if (denied) return new StorePermissionError(file, denied, `${message} (${errno})`, options);
    if (!existsSync(file)) return new StoreIoError(file, 'ENOENT', `${message} (${errno}): the file does not exist`, options);
    return new StoreIoError(file, errno, message, options);
  }
  return err;
}

/** A stable errno-like name: SQLITE_* from the driver, or the Node errno (EACCES...). */
function errnoOf(err: unknown): string {
  const e = (err ?? {}) as { code?: unknown; errcode?: unknown; errno?: unknown };
  if (typeof e.code === 'string' && (e.code.startsWith('SQLITE_') || /^E[A-Z]+$/.test(e.code))) return e.code;
  // node:sqlite: code ERR_SQLITE_ERROR, the SQLite result code in `errcode` (extended).
  const n = typeof e.errcode === 'number' ? e.errcode : typeof e.errno === 'number' && e.code === undefined ? e.errno : undefined;
  if (n !== undefined) return SQLITE_PRIMARY[n & 0xff] ?? `SQLITE_ERROR_${n}`;
  return typeof e.code === 'string' ? e.code : 'unknown';
}

/** EACCES/EPERM when this process may not read (or, for WAL, write beside) the file. */
function accessDenied(file: string): string | undefined {
  const tries: [string, number][] = existsSync(file)
    ? [[file, constants.R_OK], [dirname(file), constants.W_OK | constants.X_OK]]
    : [[dirname(file), constants.W_OK | constants.X_OK]];
  for (const [path, mode] of tries) {
    try {
      accessSync(path, mode);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return code;
    }
  }
  return undefined;
}
