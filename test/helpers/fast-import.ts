/**
 * Many commits quickly: a `git fast-import` stream written into a real repository, for tests
 * of long or odd histories (200,000 commits, one commit touching 50,000 files) that `git
 * commit` in a loop would take minutes to make. Blobs are given once and reused by mark.
 */
import { execFileSync } from 'node:child_process';
import { testGitEnv, type GitRepo } from './git-repo.js';

export interface ImportedCommit {
  message: string;
  /** Paths set in this commit, each to one of the `blobs` by index. */
  files: Record<string, number>;
}

/**
 * Appends `commits` (oldest first) to `refs/heads/main` of `repo` on top of its current HEAD
 * (if any), then points the index and work tree at the result only when `checkout` is set.
 */
export function fastImport(repo: GitRepo, blobs: readonly string[], commits: Iterable<ImportedCommit>, options: { checkout?: boolean; startTime?: number } = {}): void {
  const parts: string[] = [];
  const push = (s: string) => parts.push(s);
  const data = (text: string) => {
    push(`data ${Buffer.byteLength(text)}\n${text}\n`);
  };
  for (const [i, blob] of blobs.entries()) {
    push(`blob\nmark :${i + 1}\n`);
    data(blob);
  }
  let head: string | null = null;
  try {
    head = repo.git('rev-parse', '--verify', '-q', 'HEAD');
  } catch {
    head = null;
  }
  let t = options.startTime ?? 1_700_000_000;
  let first = true;
  for (const c of commits) {
    push(`commit refs/heads/main\ncommitter Gardener Test <test@gardener.invalid> ${t++} +0000\n`);
    data(c.message);
    if (first && head) push(`from ${head}\n`);
    first = false;
    for (const [path, blob] of Object.entries(c.files)) push(`M 100644 :${blob + 1} ${path}\n`);
  }
  execFileSync('git', ['fast-import', '--quiet', '--force'], { cwd: repo.dir, env: testGitEnv(), input: parts.join(''), stdio: ['pipe', 'ignore', 'pipe'], maxBuffer: 1 << 30 });
  if (options.checkout) repo.git('reset', '-q', '--hard', 'main');
}
