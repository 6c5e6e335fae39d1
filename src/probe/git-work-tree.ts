/**
 * One launch of `git -C <folder> rev-parse --is-inside-work-tree --show-toplevel`: the probe's
 * only subprocess. Both questions go in one launch, so a folder costs one process.
 *
 * The launch is split into two promises because they end at different times: `outcome` is
 * what the asker needs (it settles at once on abort or timeout), `exited` is what close()
 * joins (it settles only when the child is gone, so a killed git is never left behind).
 * A kill is SIGTERM, then SIGKILL after KILL_GRACE_MS: git removes its lock files on SIGTERM,
 * and rev-parse with GIT_OPTIONAL_LOCKS=0 takes none, so the grace is short.
 *
 * This file does not reuse src/detect/run-git.ts: that one resolves before the child is
 * reaped and runs with process.env, and the probe needs both the join and an injected env.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { AbortedError } from '../errors.js';

/** Time a git child gets between SIGTERM and SIGKILL; bounds how long close() can take. */
export const KILL_GRACE_MS = 250;

/** Stderr kept for the error text: git's complaint is in its first line. */
const STDERR_KEEP_CHARS = 2_048;

export const REV_PARSE_ARGS = ['rev-parse', '--is-inside-work-tree', '--show-toplevel'] as const;

/** What git said. `answer` is git's yes or no; `failure` is git not answering at all. */
export type GitWorkTreeOutcome =
  | { kind: 'answer'; gitWorkTree: boolean; gitTop: string | null }
  | { kind: 'failure'; error: string };

export interface GitWorkTreeOptions {
  gitBinary: string;
  /** Bound on the git launch, in ms (PROBE_GIT_TIMEOUT_MS by default, from the probe). */
  gitTimeoutMs: number;
  /** The environment git runs with, already passed through gitEnvFrom. */
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}

export interface GitWorkTreeLaunch {
  /** Git's outcome. Rejects with AbortedError, and only then, when `signal` aborts first. */
  outcome: Promise<GitWorkTreeOutcome>;
  /** Resolves once the child has exited (at once if it never started). Never rejects. */
  exited: Promise<void>;
}


function firstLine(text: string): string {
  const nl = text.indexOf('\n');
  return nl < 0 ? text : text.slice(0, nl);
}

/** Reads git's exit into an outcome. Exported for the unit test of the edge cases. */
export function readRevParse(folder: string, code: number | null, signal: NodeJS.Signals | null, stdout: string, stderr: string): GitWorkTreeOutcome {
  const said = firstLine(stdout);
  if (code === 0 && said === 'true') {
    // Everything after the first line is the top level, newlines in its name included.
    const rest = stdout.slice(said.length + 1);
    const top = rest.endsWith('\n') ? rest.slice(0, -1) : rest;
    return { kind: 'answer', gitWorkTree: true, gitTop: top === '' ? null : top };
  }
  // Inside .git or a bare repository git prints "false", then refuses --show-toplevel (128).
  if (said === 'false') return { kind: 'answer', gitWorkTree: false, gitTop: null };
  if (code === 128 && /not a git repository/i.test(stderr)) return { kind: 'answer', gitWorkTree: false, gitTop: null };
  if (code === null) return { kind: 'failure', error: `git rev-parse was killed by ${signal ?? 'a signal'} in ${folder}` };
  const complaint = firstLine(stderr.trim()) || (code === 0 ? `unexpected output ${JSON.stringify(said)}` : 'no message');
  return { kind: 'failure', error: `git rev-parse exited with ${code} in ${folder}: ${complaint}` };
}

/** SIGTERM now, SIGKILL after the grace if the child is still there. */
function terminate(child: ChildProcess, exited: Promise<void>): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  child.kill('SIGTERM');
  const escalate = setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }, KILL_GRACE_MS);
  void exited.then(() => clearTimeout(escalate));
}

/**
 * Starts one git launch. It never throws: a git that cannot start is a `failure` outcome.
 * The child is killed when `signal` aborts or when it outlives `gitTimeoutMs`.
 */
export function launchGitWorkTree(folder: string, options: GitWorkTreeOptions): GitWorkTreeLaunch {
  const { gitBinary, gitTimeoutMs, env, signal } = options;
  let markExited!: () => void;
  const exited = new Promise<void>((resolve) => (markExited = resolve));

  const outcome = new Promise<GitWorkTreeOutcome>((resolve, reject) => {
    let settled = false;
    let child: ChildProcess;
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      fn();
    };
    const stop = (): void => {
      terminate(child, exited);
      // A grandchild holding our pipes must not keep them, or the loop, open.
      child.stdout?.destroy();
      child.stderr?.destroy();
    };
    const onAbort = (): void => {
      stop();
      settle(() => reject(new AbortedError(`probing ${folder}`, { cause: signal.reason })));
    };
    const timer = setTimeout(() => {
      stop();
      settle(() => resolve({ kind: 'failure', error: `git rev-parse did not answer within ${gitTimeoutMs} ms in ${folder}` }));
    }, gitTimeoutMs);

    try {
      child = spawn(gitBinary, ['-C', folder, ...REV_PARSE_ARGS], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: false,
        windowsHide: true,
      });
    } catch (cause) {
      // Synchronous spawn errors (a bad argument type, EPERM on some platforms).
      markExited();
      settle(() => resolve({ kind: 'failure', error: `cannot run git (${gitBinary}): ${(cause as Error).message}` }));
      return;
    }
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });

    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < STDERR_KEEP_CHARS) stderr += chunk;
    });
    child.on('exit', () => markExited());
    child.on('error', (cause) => {
      // ENOENT and friends: no process was started, so nothing to join.
      if (child.pid === undefined) markExited();
      settle(() => resolve({ kind: 'failure', error: `cannot run git (${gitBinary}): ${cause.message}` }));
    });
    child.on('close', (code, sig) => {
      markExited();
      settle(() => resolve(readRevParse(folder, code, sig, stdout, stderr)));
    });
  });
  return { outcome, exited };
}
