/**
 * What the evals' command lines share (eval:recall, eval:symbols): a usage error that the
 * caller prints with its usage and exits 2 on, integer options, and repository arguments that
 * must be git repositories with a commit.
 */
import { execFileSync } from 'node:child_process';
import { splitRepoArg } from './run-recall.js';

export class UsageError extends Error {}

/** The integer value of option `--name`, at least `min`. */
export function intArg(name: string, v: string | undefined, min: number): number {
  const n = Number(v);
  if (v === undefined || !Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got ${JSON.stringify(v ?? null)}`);
  return n;
}

/** Refuses an empty list, and any `path[=name]` that is not a git repository with a commit. */
export function checkRepoArgs(repos: readonly string[]): void {
  if (repos.length === 0) throw new UsageError('no repository given');
  for (const arg of repos) {
    const r = splitRepoArg(arg).path;
    try {
      execFileSync('git', ['rev-parse', '--verify', '-q', 'HEAD^{commit}'], { cwd: r, stdio: 'ignore' });
    } catch {
      throw new UsageError(`${r} is not a git repository with a commit (give a work tree or a bare repository)`);
    }
  }
}
