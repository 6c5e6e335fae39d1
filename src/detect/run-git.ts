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

/**
 * Bound on one git process, in ms: generous for `status` on a cold cache of a huge repository.
 * Inside a pool task every git is also under the task's own bound (DETECT_TASK_TIMEOUT_MS in
 * workers/types.ts), which kills it well before the pool would end the thread.
 */
export const GIT_COMMAND_TIMEOUT_MS = 30_000;

/**
 * After a SIGKILL, how long the answer waits for the child's exit (it takes milliseconds), in
 * ms, so the answer comes once git is gone (or past this). One that exits later still is
 * reaped at once: an idle pool thread keeps its event loop running (POOL_ATOMICS, pool/).
 */
const REAP_WAIT_MS = 2_000;

/** Stderr kept for error messages; git's useful complaint is always in the first lines. */
const STDERR_KEEP_BYTES = 4_096;

export interface RunGitOptions {
  /** Folder git runs in (`-C`). */
  cwd: string;
  /** @default 'git' */
  gitBinary?: string;
  /** Bound on this git process, in ms. @default GIT_COMMAND_TIMEOUT_MS */
  gitTimeoutMs?: number;
  signal?: AbortSignal;
  /** Set on top of the usual git environment (status-index.ts: the detector's own index copy). */
  env?: Readonly<Record<string, string>>;
  /** Bytes written to git's stdin, which is then closed (`check-ignore --stdin`). @default none (stdin ignored) */
  input?: Buffer;
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
 * or outlives `gitTimeoutMs`, and with AbortedError when `signal` aborts.
 */
export function runGit(args: readonly string[], options: RunGitOptions): Promise<GitOutput> {
  const { cwd, gitBinary = 'git', gitTimeoutMs = GIT_COMMAND_TIMEOUT_MS, signal, env, input } = options;
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
    let exited = false;
    let killing = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    /** Kills git and settles with `fn` once it has exited (reaped), or past REAP_WAIT_MS. */
    const killThen = (fn: () => void): void => {
      if (settled) return;
      killing = true;
      kill();
      if (exited) return finish(fn);
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      const bound = setTimeout(() => finish(fn), REAP_WAIT_MS);
      child.once('exit', () => {
        clearTimeout(bound);
        finish(fn);
      });
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(gitBinary, ['-C', cwd, '-c', 'core.quotePath=false', ...args], {
        env: env ? { ...gitEnv(), ...env } : gitEnv(),
        stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
      if (input) {
        // A git that exits before reading it all (EPIPE) answers by its exit code, as ever.
        child.stdin!.on('error', () => {});
        child.stdin!.end(input);
      }
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
      // A signal that timed out (the detection's own bound) is a slow git, not a cancel: say so.
      const timedOut = (signal?.reason as Error | undefined)?.name === 'TimeoutError';
      killThen(() =>
        reject(
          timedOut
            ? new GitError(`${what} did not finish within the detection's time bound in ${cwd}`, { cause: signal?.reason })
            : new AbortedError(what, { cause: signal?.reason }),
        ),
      );
    };
    const timer = setTimeout(() => {
      killThen(() => reject(new GitError(`${what} did not finish within ${gitTimeoutMs} ms in ${cwd}`)));
    }, gitTimeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_KEEP_BYTES) stderr += chunk.toString('utf8');
    });
    child.on('error', (cause) => {
      kill();
      finish(() => reject(new GitError(`cannot run ${gitBinary}: ${cause.message}`, { cause })));
    });
    child.once('exit', () => (exited = true));
    child.on('close', (code, sig) => {
      if (killing) return; // settled by killThen, with the reason it killed
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

/**
 * The commit `ref` names in the work tree at `cwd` (`rev-parse --verify <ref>^{commit}`), or
 * null when it names none. What the `changes` tool's `since` needs, run in the detect worker.
 */
export async function resolveCommit(ref: string, options: RunGitOptions): Promise<string | null> {
  const out = await runGit(['rev-parse', '--verify', '-q', `${ref}^{commit}`], options);
  return out.code === 0 ? out.stdout.toString('utf8').trim() : null;
}
