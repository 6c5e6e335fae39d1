/**
 * The messages in and out of the detect stage. Detection runs inside a Piscina worker, so
 * both shapes are plain structured-clone data: strings, numbers, booleans, arrays. Paths are
 * root-relative, '/'-separated, in the exact-bytes string form of src/paths/path-bytes.ts.
 */

/** Which backend produced a result. */
export type DetectBackend = 'git' | 'stat';

/** Why a result is not what the request asked for; null when it is. */
export type DetectFallback = null | 'since_ref_missing' | 'git_missing' | 'not_a_work_tree';

export interface DetectRequest {
  /** Absolute ingest root, already a realpath. */
  root: string;
  /**
   * 'auto': git when the root is inside a git work tree and git runs, else the stat walk.
   * 'git': git, falling back to the stat walk (with `fallback` set) when it cannot be used.
   */
  backend: 'auto' | 'git' | 'stat';
  /** Commit the map was last advanced to (git); null when none yet. */
  sinceRef: string | null;
  /** Root-relative paths to re-stat regardless (they were dirty at the last look). */
  recheck: string[];
  /** Extra root-relative folder prefixes to skip (e.g. the brain's store folder inside the root). */
  skip: string[];
  /** List every file under the root (first ingest, or a fallback). @default false */
  inventory?: boolean;
  /**
   * The root was a git work tree at the last look: skip the `--is-inside-work-tree` launch
   * and go straight to status (falling back as usual if git says otherwise). @default false
   */
  knownWorkTree?: boolean;
  /** The git executable, a name looked up on PATH or an absolute path. @default 'git' */
  gitBinary?: string;
  /** Bound on each git process, in ms. @default GIT_COMMAND_TIMEOUT_MS (run-git.ts) */
  gitTimeoutMs?: number;
  /**
   * The `.gardenerignore` fingerprint the map last saw (DetectResult.ignoreFingerprint); when
   * the root's rules now differ, the detection is an inventory, so newly ignored paths leave
   * the map. @default null (no rules)
   */
  ignoreFingerprint?: string | null;
  /**
   * The team notes folder the map last read notes from (DetectResult.notesDir); when the root's
   * `.gardener/config.json` now names another, the detection is an inventory, so the files of
   * the new folder come in as notes. @default '.gardener/notes'
   */
  notesDir?: string;
  /**
   * A private file (in the brain's folder) where the git backend keeps its own copy of the
   * repository's index, so `git status` can keep git's untracked cache without writing the
   * user's index or config (status-index.ts). Unset: a plain status. @default undefined
   */
  statusIndexFile?: string;
}

export interface ChangedEntry {
  path: string;
  /** Bytes; 0 when deleted. */
  size: number;
  /** Modification time in ms since the epoch; 0 when deleted. */
  mtimeMs: number;
  /** Gone, or no longer a regular file (a symlink or a folder never enters the map). */
  deleted: boolean;
}

export interface DetectResult {
  backend: DetectBackend;
  /** HEAD commit sha; null with no commits yet or on the stat backend. */
  head: string | null;
  /** True: entries list every file under the root, so map paths absent from it are deleted. */
  inventory: boolean;
  /** Root-relative, '/'-separated, deduplicated. */
  entries: ChangedEntry[];
  /** Paths git reports modified, untracked or deleted right now (to recheck next time). */
  dirty: string[];
  fallback: DetectFallback;
  /** Wall time spent waiting on git processes, in milliseconds. */
  gitMs: number;
  /** Root-relative folders the stat walk could not read (skipped, not fatal). */
  unreadable?: string[];
  /** The fingerprint of the `.gardenerignore` rules this detection applied; null (or absent) when none. */
  ignoreFingerprint?: string | null;
  /**
   * The team notes folder this detection applied: the one `.gardener/config.json` names, or the
   * request's when that file is not valid (root-config.ts).
   */
  notesDir?: string;
  /** What is wrong with the root's `.gardener/config.json`, for an alert; null (or absent) when nothing. */
  configProblem?: string | null;
  /**
   * Paths git's ignore rules cover now that were candidates (dirty at the last look, or touched
   * by a commit) and still exist: they are in `entries` as deleted, and must leave the map
   * without being read again (the pool tells the hash+extract batch: src/pool/leaving-paths.ts).
   */
  ignored?: string[];
}
