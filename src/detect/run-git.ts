/**
 * One git child process, bounded. Detection runs in a worker that must never hang, so every
 * git call is asynchronous, killed (SIGKILL) when it outlives its time bound or when the
 * caller aborts, and its stdout is kept as raw bytes for the `-z` parsers.
 *
 * The environment is the caller's minus the variables that would point git at another
 * repository (a tick started from inside a git hook inherits GIT_DIR and GIT_INDEX_FILE),
 * plus GIT_OPTIONAL_LOCKS=0 so `git status` never takes index.lock and fights the user's git.
 */
import { gitEnvFrom } from './git-env.js';
import { spawn } from 'node:child_process';
import { AbortedError, GitError } from '../errors.js';

/** Default bound on one git process: generous for status on a cold cache of a huge repository. */
export const DEFAULT_GIT_TIMEOUT_MS = 30_000;

/** Stderr kept for error messages; git's useful complaint is always in the first lines. */
const STDERR_KEEP_BYTES = 4_096;

export interface RunGitOptions {
  /** Folder git runs in (`-C`). */
  cwd: string;
  /** @default 'git' */
  gitBinary?: string;
  /** @default DEFAULT_GIT_TIMEOUT_MS */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface GitOutput {
  /** Exit code; git's "no" answers (rev-parse --verify, cat-file -e) are non-zero codes, not errors. */
  code: number;
  stdout: Buffer;
  stderr: string;
  /** Wall time of the process, in milliseconds. */
  ms: number;
}

const gitEnv = (): NodeJS.ProcessEnv => gitEnvFrom(process.env);

/** True when the error says the git executable could not be started at all. */
export function isGitMissing(err: unknown): boolean {
  if (!(err instanceof GitError)) return false;
  const code = (err.cause as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'EACCES' || code === 'ENOTDIR';
}

/**
 * Runs `git -C cwd -c core.quotePath=false ...args`. Resolves with the exit code whatever it
 * is; rejects with GitError when git cannot start (cause: the spawn error, see isGitMissing)
 * or outlives `timeoutMs`, and with AbortedError when `signal` aborts.
 */
export function runGit(args: readonly string[], options: RunGitOptions): Promise<GitOutput> {
  const { cwd, gitBinary = 'git', timeoutMs = DEFAULT_GIT_TIMEOUT_MS, signal } = options;
  const what = `git ${args[0] ?? ''}`.trim();
  return new Promise<GitOutput>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortedError(what, { cause: signal.reason }));
      return;
    }
    const started = performance.now();
    const stdout: Buffer[] = [];
    let stderr = '';
    let settled = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(gitBinary, ['-C', cwd, '-c', 'core.quotePath=false', ...args], {
        env: gitEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (cause) {
      reject(new GitError(`cannot run ${gitBinary}: ${(cause as Error).message}`, { cause }));
      return;
    }
    const kill = (): void => {
      try {
        child.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const onAbort = (): void => {
      kill();
      // A signal that timed out (the detection's own bound) is a slow git, not a cancel: say so.
      const timedOut = (signal?.reason as Error | undefined)?.name === 'TimeoutError';
      finish(() =>
        reject(
          timedOut
            ? new GitError(`${what} did not finish within the detection's time bound in ${cwd}`, { cause: signal?.reason })
            : new AbortedError(what, { cause: signal?.reason }),
        ),
      );
    };
    const timer = setTimeout(() => {
      kill();
      finish(() => reject(new GitError(`${what} did not finish within ${timeoutMs} ms in ${cwd}`)));
    }, timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_KEEP_BYTES) stderr += chunk.toString('utf8');
    });
    child.on('error', (cause) => {
      kill();
      finish(() => reject(new GitError(`cannot run ${gitBinary}: ${cause.message}`, { cause })));
    });
    child.on('close', (code, sig) => {
      finish(() =>
        resolve({
          code: code ?? (sig ? 128 : 1),
          stdout: Buffer.concat(stdout),
          stderr: stderr.slice(0, STDERR_KEEP_BYTES),
          ms: performance.now() - started,
        }),
      );
    });
  });
}

/** runGit, but a non-zero exit is a GitError naming the command and git's complaint. */
export async function runGitOk(args: readonly string[], options: RunGitOptions): Promise<GitOutput> {
  const out = await runGit(args, options);
  if (out.code !== 0) {
    throw new GitError(`git ${args.join(' ')} exited with ${out.code} in ${options.cwd}: ${out.stderr.trim()}`);
  }
  return out;
}
