/**
 * Mining a root's git history, in the pool's detect worker (never on the main thread): the
 * commits from the last mined head up to the map's head, each with its time, message and the
 * paths it touched.
 *
 * - A shallow clone has no history worth ranking by (its one commit touches everything): the
 *   answer is `shallow` with no commits, and whatever was stored for the root is dropped.
 * - The last mined head must be an ancestor of the new head (`merge-base --is-ancestor`), or
 *   the history was rewritten or moved back: then it is mined again from scratch (`rebuild`),
 *   never mixed with what was stored.
 * - At most `maxCommits`, the newest (`git log -n`): a 200,000-commit history costs what
 *   HISTORY_MAX_COMMITS costs, and the store keeps the newest that many.
 * - Merges are left out (`--no-merges`: their changes are their parents'), renames are a
 *   deletion plus an addition (`--no-renames`), and a commit touching more than
 *   HUGE_COMMIT_FILES paths (a formatting sweep, a vendored tree, a mass rename) keeps its
 *   count but not its paths: it says nothing about which files belong together. So does a
 *   root commit (no parent): it imports a tree, it does not change one.
 * - Paths are the root's (`--relative`, pathspec `.`): a root below the top of its work tree
 *   sees its own commits and paths, as detection does.
 */
import { decodePath } from '../paths/path-bytes.js';
import { runGit, runGitOk, type RunGitOptions } from '../detect/run-git.js';
import { GitError, InvalidArgumentError } from '../errors.js';
import type { MineRequest, MinedCommit, MinedHistory } from './types.js';

/** Newest commits mined and kept per root. 10,000 covers years of most projects and builds in a few seconds. */
export const HISTORY_MAX_COMMITS = 10_000;
/** A commit touching more paths than this keeps no paths (it counts for nothing in the history lists). */
export const HUGE_COMMIT_FILES = 100;
/** Characters of a commit message kept for the full-text index (the subject and the body's start). */
export const MAX_MESSAGE_CHARS = 1_000;

const OBJECT_NAME = /^[0-9a-f]{4,64}$/i;
const REC = 0x1e;
const SEP = 0x1f;

export async function mineHistory(req: MineRequest, signal?: AbortSignal): Promise<MinedHistory> {
  if (!OBJECT_NAME.test(req.head)) throw new InvalidArgumentError(`history: head must be a commit, got ${JSON.stringify(req.head)}`);
  const maxCommits = req.maxCommits ?? HISTORY_MAX_COMMITS;
  if (!Number.isInteger(maxCommits) || maxCommits < 1) throw new InvalidArgumentError(`history: maxCommits must be a positive integer, got ${String(maxCommits)}`);
  const opts: RunGitOptions = { cwd: req.root, gitBinary: req.gitBinary, gitTimeoutMs: req.gitTimeoutMs, signal };
  const started = performance.now();
  const logOf = (range: string) =>
    // One more than asked: whether the history was bounded shows without a second git.
    runGit(['log', '-z', '--no-merges', '--no-renames', '--name-only', '--format=%x1e%H%x1f%P%x1f%ct%x1f%B%x1f', '-n', String(maxCommits + 1), '--relative', range, '--', '.'], opts);
  const incremental = req.minedHead !== null && OBJECT_NAME.test(req.minedHead);
  // The three questions at once, one round trip of git in the common case (HEAD moved forward):
  // is the clone shallow, is the last mined head an ancestor, and the log from it. The log is
  // thrown away when the answer is shallow or a rebuild (rare), and asked again from scratch.
  const [shallow, anc, log] = await Promise.all([
    runGitOk(['rev-parse', '--is-shallow-repository'], opts),
    // 0: an ancestor; 1: not one (rewritten, or moved back); 128: the object is gone (gc'd).
    incremental ? runGit(['merge-base', '--is-ancestor', req.minedHead!, req.head], opts) : null,
    logOf(incremental ? `${req.minedHead}..${req.head}` : req.head),
  ]);
  if (shallow.stdout.toString('latin1').trim() === 'true') {
    return { status: 'shallow', head: req.head, rebuild: true, commits: [], bounded: false, gitMs: performance.now() - started };
  }
  const rebuild = anc === null || anc.code !== 0;
  const mined = rebuild && incremental ? await logOf(req.head) : log;
  if (mined.code !== 0) throw new GitError(`git log exited with ${mined.code} in ${req.root}: ${mined.stderr.trim()}`);
  const gitMs = performance.now() - started;
  const commits = parseLog(mined.stdout);
  const bounded = commits.length > maxCommits;
  if (bounded) commits.length = maxCommits;
  commits.reverse();
  return { status: 'ready', head: req.head, rebuild, commits, bounded, gitMs };
}

/**
 * `git log -z --name-only --format=%x1e%H%x1f%P%x1f%ct%x1f%B%x1f`: each record opens with 0x1e, its
 * fields end with 0x1f, then NUL-separated paths (after a NUL and a newline). Newest first.
 */
export function parseLog(out: Buffer): MinedCommit[] {
  const commits: MinedCommit[] = [];
  let at = out.indexOf(REC);
  while (at >= 0) {
    const next = out.indexOf(REC, at + 1);
    const end = next < 0 ? out.length : next;
    const shaEnd = out.indexOf(SEP, at + 1);
    const parentsEnd = shaEnd < 0 ? -1 : out.indexOf(SEP, shaEnd + 1);
    const timeEnd = parentsEnd < 0 ? -1 : out.indexOf(SEP, parentsEnd + 1);
    const bodyEnd = timeEnd < 0 ? -1 : out.lastIndexOf(SEP, end - 1);
    if (shaEnd < 0 || timeEnd < 0 || bodyEnd <= timeEnd || bodyEnd >= end) break;
    const sha = out.toString('latin1', at + 1, shaEnd);
    const rootCommit = parentsEnd === shaEnd + 1;
    const time = Number(out.toString('latin1', parentsEnd + 1, timeEnd));
    const message = out.toString('utf8', timeEnd + 1, Math.min(bodyEnd, timeEnd + 1 + MAX_MESSAGE_CHARS * 4)).trim().slice(0, MAX_MESSAGE_CHARS);
    const files: string[] = [];
    let fileCount = 0;
    let p = bodyEnd + 1;
    while (p < end) {
      let q = out.indexOf(0, p);
      if (q < 0 || q > end) q = end;
      let s = p;
      if (out[s] === 0x0a) s++;
      if (q > s) {
        fileCount++;
        if (fileCount <= HUGE_COMMIT_FILES) files.push(decodePath(out.subarray(s, q)));
      }
      p = q + 1;
    }
    commits.push({ sha, time: Number.isFinite(time) ? time : 0, message, files: fileCount > HUGE_COMMIT_FILES || rootCommit ? [] : files, fileCount });
    at = next;
  }
  return commits;
}
