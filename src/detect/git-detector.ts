/**
 * The git backend: the changed set is what git can name cheaply, never a full walk.
 *
 * - `git status --porcelain=v2 -z --untracked-files=all` always: it sees edits, deletions and
 *   new un-added files, and .gitignore is respected because ignored files are not listed.
 * - `git diff --name-status -z --no-renames <sinceRef> HEAD` when HEAD moved (commit,
 *   checkout, rebase): a clean work tree can still differ from the map. `--no-renames`
 *   makes a rename a deletion plus an addition, so both paths reach the map.
 * - `git ls-files -z --cached --others --exclude-standard` instead, as an inventory, when one
 *   is asked for, when there is no sinceRef yet, or when sinceRef no longer exists (rebase +
 *   gc): the caller then deletes map paths absent from the entries.
 *
 * Git runs with `-C root` and the pathspec `.`, so an ingest root below the top of a work tree
 * sees only its own paths. ls-files and `diff --relative` print them relative to the root;
 * status prints them relative to the top, so the `rev-parse --show-prefix` is cut off.
 * Every candidate is then filtered by the noise policy and the root's `.gardenerignore`, and
 * lstat'ed (see stat-paths.ts). Rules that changed since the map last looked make the
 * detection an inventory (gardener-ignore.ts).
 */
import { resolve } from 'node:path';
import { decodePath } from '../paths/path-bytes.js';
import { AbortedError, GitError } from '../errors.js';
import { parseDiffNameStatus, parseLsFiles, parseStatusV2 } from './git-status-parser.js';
import { runGit, runGitOk, type GitOutput, type RunGitOptions } from './run-git.js';
import { makeSkipFilter } from './skip-dirs.js';
import { loadGardenerIgnore } from './gardener-ignore.js';
import { DEFAULT_NOTES_DIR } from './notes-dir.js';
import { notesDirFor } from './root-config.js';
import { ignoredByGit } from './git-ignored.js';
import { isSafeRelPath, statPaths } from './stat-paths.js';
import { useStatusIndex, type StatusIndexUse } from './status-index.js';
import type { DetectFallback, DetectRequest, DetectResult } from './types.js';

/** A sinceRef is a hex object name; anything else (a corrupt row, an option) never reaches git's argv. */
const OBJECT_NAME = /^[0-9a-f]{4,64}$/i;

/** Drops the one newline git ends a single-value answer with, keeping every other byte. */
function chompLine(out: Buffer): Buffer {
  return out.length > 0 && out[out.length - 1] === 0x0a ? out.subarray(0, -1) : out;
}

/** Each root's path below its repository's top, as `rev-parse --show-prefix` said it. */
const PREFIX_BY_ROOT = new Map<string, string>();
/** Each root's repository index, as `rev-parse --git-path index` said it (absolute). */
const INDEX_BY_ROOT = new Map<string, string>();

/** HEAD from the `# branch.oid <sha>` header of `status --branch`; null for `(initial)`. */
function branchOid(out: Buffer): string | null {
  const marker = Buffer.from('# branch.oid ');
  if (out.subarray(0, marker.length).equals(marker)) {
    const end = out.indexOf(0, marker.length);
    const oid = out.subarray(marker.length, end < 0 ? undefined : end).toString('latin1');
    return OBJECT_NAME.test(oid) ? oid : null;
  }
  return null;
}

/** Detects changes under `req.root` with git. Throws GitError when git fails, AbortedError on abort. */
export async function detectGit(req: DetectRequest, signal?: AbortSignal): Promise<DetectResult> {
  if (signal?.aborted) throw new AbortedError('change detection', { cause: signal.reason });
  const opts: RunGitOptions = { cwd: req.root, gitBinary: req.gitBinary, gitTimeoutMs: req.gitTimeoutMs, signal };
  let gitMs = 0;
  const timed = async <T>(work: Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await work;
    } finally {
      gitMs += performance.now() - started;
    }
  };

  // The detector's own index copy, when the brain keeps one (status-index.ts); its source is
  // the repository's index, located once per root for the worker's life, beside the prefix.
  let indexUse: StatusIndexUse | null = null;
  if (req.statusIndexFile) {
    let source = INDEX_BY_ROOT.get(req.root);
    if (source === undefined || !PREFIX_BY_ROOT.has(req.root)) {
      const [indexOut, prefixOut] = await timed(
        Promise.all([runGit(['rev-parse', '--git-path', 'index'], opts), PREFIX_BY_ROOT.has(req.root) ? null : runGitOk(['rev-parse', '--show-prefix'], opts)]),
      );
      if (prefixOut) PREFIX_BY_ROOT.set(req.root, decodePath(chompLine(prefixOut.stdout)));
      if (indexOut.code === 0) {
        source = resolve(req.root, decodePath(chompLine(indexOut.stdout)));
        INDEX_BY_ROOT.set(req.root, source);
      }
    }
    if (source) indexUse = useStatusIndex(source, req.statusIndexFile);
  }
  // git uses its untracked cache only for a status without a pathspec: a root at the top of its
  // work tree needs none (the whole tree is its own), a root below it keeps `.` and no cache.
  const pathspec = indexUse && PREFIX_BY_ROOT.get(req.root) === '' ? [] : ['--', '.'];

  // One round trip in the common case: status (with `--branch` for HEAD) beside the prefix,
  // which is cached per root for the worker's life (a root does not move inside its repo).
  const cachedPrefix = PREFIX_BY_ROOT.get(req.root);
  const [statusOut, prefixOut, rules] = await timed(
    Promise.all([
      runGitOk(
        [...(indexUse?.config ?? []), 'status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all', '--no-renames', '--ignore-submodules=all', ...pathspec],
        indexUse ? { ...opts, env: indexUse.env } : opts,
      ),
      cachedPrefix === undefined ? runGitOk(['rev-parse', '--show-prefix'], opts) : null,
      loadGardenerIgnore(req.root),
    ]),
  );
  const prefix = cachedPrefix ?? decodePath(chompLine(prefixOut!.stdout));
  PREFIX_BY_ROOT.set(req.root, prefix);
  const head = branchOid(statusOut.stdout);

  // A notes folder other than the map's: its files, committed long ago, are listed only by an inventory.
  const { notesDir, configProblem } = notesDirFor(req.root, req.notesDir);
  let inventory = req.inventory === true || req.sinceRef === null || rules.fingerprint !== (req.ignoreFingerprint ?? null) || notesDir !== (req.notesDir ?? DEFAULT_NOTES_DIR);
  let fallback: DetectFallback = null;
  let diffOut: GitOutput | null = null;
  if (!inventory && req.sinceRef !== head) {
    const since = req.sinceRef!;
    if (!OBJECT_NAME.test(since)) {
      fallback = 'since_ref_missing';
      inventory = true;
    } else if (head === null) {
      // An orphan branch (HEAD unborn): nothing to diff against, list it all.
      inventory = true;
    } else {
      // No separate existence check: a vanished since_ref makes the diff fail, and only then
      // do we pay for telling why.
      const diff = await timed(
        runGit(['diff', '--name-status', '-z', '--no-renames', '--no-ext-diff', '--relative', since, head, '--', '.'], opts),
      );
      if (diff.code === 0) diffOut = diff;
      else if ((await timed(runGit(['cat-file', '-e', `${since}^{commit}`], opts))).code !== 0) {
        fallback = 'since_ref_missing';
        inventory = true;
      } else {
        throw new GitError(`git diff ${since} ${head} failed in ${req.root}: ${diff.stderr.trim()}`);
      }
    }
  }
  const listOut = inventory ? await timed(runGitOk(['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '.'], opts)) : null;

  const isSkipped = makeSkipFilter(req.skip, notesDir);
  // A trailing '/' names a nested repository or an unpopulated submodule: never a file.
  const keep = (rel: string): boolean => isSafeRelPath(rel) && !isSkipped(rel) && !rules.ignores(rel);
  const candidates = new Set<string>();
  const dirty = new Set<string>();
  /** Paths git lists now (status, ls-files): never ignored. The other candidates may have become so. */
  const listed = new Set<string>();

  const status = parseStatusV2(statusOut.stdout);
  for (const fromTop of [...status.changed, ...status.deleted, ...status.renamedFrom]) {
    if (!fromTop.startsWith(prefix)) continue;
    const rel = fromTop.slice(prefix.length);
    if (!keep(rel)) continue;
    candidates.add(rel);
    dirty.add(rel);
    listed.add(rel);
  }
  if (listOut) {
    for (const rel of parseLsFiles(listOut.stdout)) {
      if (!keep(rel)) continue;
      candidates.add(rel);
      listed.add(rel);
    }
  }
  if (diffOut) {
    const diff = parseDiffNameStatus(diffOut.stdout);
    for (const rel of [...diff.changed, ...diff.deleted, ...diff.renamedFrom]) if (keep(rel)) candidates.add(rel);
  }
  for (const rel of req.recheck) if (keep(rel)) candidates.add(rel);

  // What git stopped listing (a dirty path that is not any more, a path a commit touched) may
  // have become ignored: git-ignored.ts. Such a path leaves the map like a deleted one.
  // Only a path that is still there is asked about: a gone one leaves the map anyway.
  const entries = await statPaths(req.root, [...candidates].sort(), signal);
  const unlisted = entries.filter((e) => !e.deleted && !listed.has(e.path)).map((e) => e.path);
  const ignored = await timed(ignoredByGit(unlisted, opts));
  if (ignored.size > 0) {
    for (const e of entries) {
      if (!ignored.has(e.path)) continue;
      e.deleted = true;
      e.size = 0;
      e.mtimeMs = 0;
    }
  }
  return {
    ignored: [...ignored].sort(),
    backend: 'git',
    head,
    inventory,
    entries,
    dirty: [...dirty].sort(),
    fallback,
    gitMs: Math.round(gitMs * 100) / 100,
    ignoreFingerprint: rules.fingerprint,
    notesDir,
    configProblem,
  };
}
