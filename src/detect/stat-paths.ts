/**
 * Turning candidate paths into ChangedEntry rows with lstat, never following a symlink.
 *
 * Only a regular file reached through real folders enters the map. A symlink, a folder (a
 * submodule), a socket or a missing path reads as deleted, and so does any path with a
 * symlink among its folders: git names such paths when a mapped folder was swapped for a
 * link, and `lstat` alone would follow that link out of the root. Folder checks are cached,
 * so they cost one lstat per distinct folder, not per file.
 */
import { lstat as lstatCallback, type Stats } from 'node:fs';
import { AbortedError } from '../errors.js';
import { joinFsPath } from '../paths/path-bytes.js';
import type { ChangedEntry } from './types.js';

/** lstat calls in flight at once: enough to keep libuv's 4 threads and the disk queue busy. */
export const LSTAT_CONCURRENCY = 64;

/**
 * lstat through the callback API: on Node 20 `fs/promises.lstat` costs about three times as
 * much per call (a 5,000-file inventory: ~30 ms against ~10 ms), and sync calls would make
 * the worker deaf to an abort.
 */
export function lstat(path: string | Buffer): Promise<Stats> {
  return new Promise((resolve, reject) => lstatCallback(path, (err, st) => (err ? reject(err) : resolve(st))));
}

/** Errors that mean "there is no readable regular file here" rather than a broken machine. */
const GONE_CODES = new Set(['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM', 'ELOOP', 'ENAMETOOLONG']);

export function isGoneError(err: unknown): boolean {
  return GONE_CODES.has((err as NodeJS.ErrnoException | undefined)?.code ?? '');
}

/** A bound on concurrent async calls; each call checks the signal before it starts. */
export function createLimiter(max: number, signal?: AbortSignal): <T>(fn: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = (): void => {
    const next = waiting.shift();
    if (next) next(); // the slot passes straight to the next caller
    else active--;
  };
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (active < max) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      if (signal?.aborted) throw new AbortedError('change detection', { cause: signal.reason });
      return await fn();
    } finally {
      release();
    }
  };
}

/**
 * True for a root-relative path that stays inside the root: non-empty, not absolute, no
 * empty, '.' or '..' segment. Anything else (a corrupt recheck row) is never stat'ed.
 */
export function isSafeRelPath(rel: string): boolean {
  if (rel === '' || rel.startsWith('/') || rel.endsWith('/')) return false;
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.' || seg === '..') return false;
  }
  return true;
}

function gone(path: string): ChangedEntry {
  return { path, size: 0, mtimeMs: 0, deleted: true };
}

/**
 * lstats every path under `root` (at most LSTAT_CONCURRENCY at once) and returns one entry
 * per path, in the order given.
 */
export async function statPaths(root: string, paths: readonly string[], signal?: AbortSignal): Promise<ChangedEntry[]> {
  const limit = createLimiter(LSTAT_CONCURRENCY, signal);
  const folders = new Map<string, Promise<boolean>>();

  // True when `dir` and each folder above it is a real folder, not a symlink.
  const isRealFolder = (dir: string): Promise<boolean> => {
    let known = folders.get(dir);
    if (known === undefined) {
      const slash = dir.lastIndexOf('/');
      const parentOk = slash === -1 ? Promise.resolve(true) : isRealFolder(dir.slice(0, slash));
      known = parentOk.then(
        (ok) =>
          ok &&
          limit(() => lstat(joinFsPath(root, dir))).then(
            (st) => st.isDirectory(),
            (err: unknown) => {
              if (err instanceof AbortedError || !isGoneError(err)) throw err;
              return false;
            },
          ),
      );
      folders.set(dir, known);
    }
    return known;
  };

  const statOne = async (path: string): Promise<ChangedEntry> => {
    const slash = path.lastIndexOf('/');
    if (slash !== -1 && !(await isRealFolder(path.slice(0, slash)))) return gone(path);
    try {
      const st = await limit(() => lstat(joinFsPath(root, path)));
      return st.isFile() ? { path, size: st.size, mtimeMs: st.mtimeMs, deleted: false } : gone(path);
    } catch (err) {
      if (err instanceof AbortedError || !isGoneError(err)) throw err;
      return gone(path);
    }
  };

  return Promise.all(paths.map(statOne));
}
