/**
 * The detector's own copy of a repository's index, so `git status` can use git's untracked
 * cache without writing anything of the user's (issue 20: at 100 000 files a status reading an
 * index that carries the cache took 144 ms against 332 ms without; bench/large-repo.ts).
 *
 * The detector runs git with optional locks off (GIT_OPTIONAL_LOCKS=0), so a status never
 * writes the repository's index and the cache it builds is thrown away each time; turning the
 * cache on in the user's config, or writing their index, is not ours to do. Instead the
 * detector keeps a copy of the index in the brain's folder and points that one status at it
 * (GIT_INDEX_FILE, optional locks on for that file only, the cache on per invocation with `-c`).
 * Git then keeps the cache, and refreshed stat data, in the copy.
 *
 * The copy follows the repository's index: when that file changes (inode, size, mtime or ctime:
 * git replaces it by rename on every write) it is copied again, with the source's mtime so
 * git's racy-entry check sees what it would see on the original. A copy that cannot be made
 * (no index yet, a read-only brain folder, the index replaced mid-copy) means a plain status
 * this time, never an error. `core.splitIndex=false` keeps a write of the copy from adding
 * shared-index files to the repository's own git folder.
 */
import { copyFileSync, mkdirSync, renameSync, rmSync, statSync, unlinkSync, utimesSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { threadId } from 'node:worker_threads';

/** What `git status` is run with when the copy is ready. */
export interface StatusIndexUse {
  /** `-c` options, placed before the `status` subcommand. */
  config: readonly string[];
  /** Added to the git child's environment. */
  env: Readonly<Record<string, string>>;
}

/** Per invocation: keep the untracked cache (matching `--untracked-files=all`), never a split index. */
export const STATUS_INDEX_CONFIG: readonly string[] = [
  '-c', 'core.untrackedCache=true',
  '-c', 'status.showUntrackedFiles=all',
  '-c', 'core.splitIndex=false',
];

/** The source each copy was last taken from, per copy path, for this thread's life. */
const COPIED_FROM = new Map<string, string>();

const stampOf = (st: Stats): string => `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/**
 * Brings `copy` up to date with the repository's index at `source` and says how to run status
 * on it; null: run a plain status (no index yet, or the copy could not be made).
 */
export function useStatusIndex(source: string, copy: string): StatusIndexUse | null {
  const st = statOrNull(source);
  if (!st?.isFile()) return null;
  const stamp = stampOf(st);
  if (COPIED_FROM.get(copy) !== stamp || statOrNull(copy) === null) {
    COPIED_FROM.delete(copy);
    const tmp = `${copy}.${process.pid}-${threadId}.tmp`;
    try {
      mkdirSync(dirname(copy), { recursive: true, mode: 0o700 });
      copyFileSync(source, tmp);
      utimesSync(tmp, st.atime, st.mtime);
      renameSync(tmp, copy);
      // A git killed while it wrote the copy leaves its lock, and every later status would skip
      // the write for good (optional locks give up silently): a fresh copy starts without one.
      rmSync(`${copy}.lock`, { force: true });
    } catch {
      try {
        unlinkSync(tmp);
      } catch {
        // never made
      }
      return null;
    }
    // Replaced while we copied: the copy may be either; take it next time.
    const after = statOrNull(source);
    if (!after || stampOf(after) !== stamp) return null;
    COPIED_FROM.set(copy, stamp);
  }
  return { config: STATUS_INDEX_CONFIG, env: { GIT_INDEX_FILE: copy, GIT_OPTIONAL_LOCKS: '1' } };
}
