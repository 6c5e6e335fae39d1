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
import { encodePath } from '../paths/path-bytes.js';
import { splitNul } from './git-status-parser.js';
import { decodePath } from '../paths/path-bytes.js';
import { runGit, type RunGitOptions } from './run-git.js';

/**
 * Of `rels` (root-relative paths), those git ignores. A git that cannot answer (exit 128: a
 * path beyond a symbolic link, a broken repository) ignores none: the path stays until an
 * inventory looks again, which is better than failing every tick on it.
 */
export async function ignoredByGit(rels: readonly string[], options: RunGitOptions): Promise<Set<string>> {
  if (rels.length === 0) return new Set();
  const input = Buffer.concat(rels.flatMap((rel) => [encodePath(rel), Buffer.from([0])]));
  const out = await runGit(['check-ignore', '--stdin', '-z'], { ...options, input });
  // 0: some are ignored; 1: none is; anything else: git could not tell.
  if (out.code !== 0) return new Set();
  return new Set(splitNul(out.stdout).map((b) => decodePath(b)));
}
