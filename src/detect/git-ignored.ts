/**
 * Which paths git's own ignore rules cover now: `git check-ignore --stdin -z`, the rules exactly
 * as git applies them (every `.gitignore` at, above and below the root, `.git/info/exclude`,
 * `core.excludesFile`). Without `--no-index`, a tracked file is never ignored, as git keeps it.
 *
 * Why it is needed: `git status` names neither a file that became ignored (it just stops
 * listing it) nor the rule change when the rule lives where status does not look (above the
 * root, in `.git/info/exclude`, in a `.gitignore` that ignores itself). So the git detector asks
 * about the paths it was going to look at anyway but that git no longer lists: the ones that
 * were dirty at the last look (every untracked mapped file is), and those a commit touched.
 * That set is empty on a quiet tick, so the question costs one git only when something left
 * git's listing.
 */
import { decodePath, encodePath } from '../paths/path-bytes.js';
import { splitNul } from './git-status-parser.js';
import { runGit, type RunGitOptions } from './run-git.js';

/**
 * Of `rels` (root-relative paths), those git ignores. Two asks, so the common case is cheap:
 * `--no-index` matches the rules alone (microseconds a path), and only the few paths a rule
 * matches are asked again with the index, which keeps a tracked file out of the answer (that
 * lookup costs about 60 µs a path: 1000 reverted files would cost a tick 60 ms of git for
 * nothing). A git that cannot answer (exit 128: a path beyond a symbolic link, in a submodule,
 * a broken repository) ignores none: the path stays until an inventory looks again, which is
 * better than failing every tick on it.
 */
export async function ignoredByGit(rels: readonly string[], options: RunGitOptions): Promise<Set<string>> {
  const matched = await checkIgnore(rels, true, options);
  return matched.size === 0 ? matched : checkIgnore([...matched], false, options);
}

async function checkIgnore(rels: readonly string[], rulesOnly: boolean, options: RunGitOptions): Promise<Set<string>> {
  if (rels.length === 0) return new Set();
  const input = Buffer.concat(rels.flatMap((rel) => [encodePath(rel), Buffer.from([0])]));
  const out = await runGit(['check-ignore', ...(rulesOnly ? ['--no-index'] : []), '--stdin', '-z'], { ...options, input });
  // 0: some are ignored; 1: none is; anything else: git could not tell.
  if (out.code !== 0) return new Set();
  return new Set(splitNul(out.stdout).map((b) => decodePath(b)));
}
