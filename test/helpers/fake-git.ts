/**
 * A fake `git` first on PATH, for tests that must hold git mid-answer without a clock.
 *
 *   const fake = await makeFakeGit({ park: true });
 *   const probe = new FolderProbe({ env: fake.env });
 *   const answer = probe.ask(folder);
 *   const [pid] = await fake.waitForLaunches(1);   // git is running and parked
 *   await fake.release();                          // now it answers
 *
 * The script is one process from start to end: it writes its pid as a file name under
 * `pids/`, parks by opening a named pipe with a shell builtin (`: < fifo`, so no `cat`
 * grandchild outlives a kill), then answers. So the pid a test sees is exactly the process the
 * probe spawned, and "is it still alive" (`isAlive`) is a question about that process.
 * Each launch also writes `reports/<pid>`: what the child saw of its stdin, its arguments and
 * the variables the probe must set or clear.
 */
import { execFileSync } from 'node:child_process';
import { constants, renameSync, writeFileSync } from 'node:fs';
import { mkdir, open, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from './git-repo.js';

export interface FakeGitBehaviour {
  /** Park on the fifo before answering, until `release()`. @default false */
  park?: boolean;
  /** Ignore SIGTERM (only SIGKILL ends it). @default false */
  ignoreTerm?: boolean;
  /**
   * What it answers: `work-tree` prints `true` and the `-C` folder as the top level, exit 0;
   * `not-a-repo` prints git's "fatal: not a git repository" and exits 128; `fail` exits 1.
   * @default 'work-tree'
   */
  answer?: 'work-tree' | 'not-a-repo' | 'fail';
}

export interface FakeGitReport {
  /** `devnull` when stdin was /dev/null (stdio 'ignore'), `other` for a pipe, a socket, a tty. */
  stdin: string;
  args: string;
  GIT_OPTIONAL_LOCKS: string;
  GIT_DIR: string;
}

export interface FakeGit {
  /** Folder holding the `git` script (put first on PATH by `env`). */
  binDir: string;
  /** The named pipe a parked launch waits on. */
  fifo: string;
  /** process.env with the fake first on PATH and the fake's own variables set. */
  env: NodeJS.ProcessEnv;
  /** Rewrites the script; launches already running keep the behaviour they started with. */
  setBehaviour(behaviour: FakeGitBehaviour): void;
  /** Makes another named pipe (for a second probe's launches: `{...env, FAKE_GIT_FIFO: it}`). */
  makeFifo(name: string): string;
  /** Pids of every launch so far, in no particular order. */
  pids(): Promise<number[]>;
  /** Resolves with the pids once at least `count` launches have written their pid file. */
  waitForLaunches(count: number): Promise<number[]>;
  /** What launch `pid` saw (written before it parks). */
  report(pid: number): Promise<FakeGitReport>;
  /** Opens `fifo` for writing and closes it: every launch parked on it goes on. */
  release(fifo?: string): Promise<void>;
  /** Releases any launch still parked, then removes the folder. */
  cleanup(): Promise<void>;
}

function script(behaviour: FakeGitBehaviour): string {
  const { park = false, ignoreTerm = false, answer = 'work-tree' } = behaviour;
  const lines = [
    '#!/bin/sh',
    '# fake git written by test/helpers/fake-git.ts',
    // Node's stdin 'pipe' is a socketpair, not a fifo: ask whether stdin *is* /dev/null.
    `if [ /dev/stdin -ef /dev/null ]; then stdin=devnull; else stdin=other; fi`,
    `printf 'stdin=%s\\nargs=%s\\nGIT_OPTIONAL_LOCKS=%s\\nGIT_DIR=%s\\n' "$stdin" "$*" "$GIT_OPTIONAL_LOCKS" "$GIT_DIR" > "$FAKE_GIT_REPORTS/$$.tmp"`,
    `mv "$FAKE_GIT_REPORTS/$$.tmp" "$FAKE_GIT_REPORTS/$$"`,
  ];
  if (ignoreTerm) lines.push(`trap '' TERM`);
  // The pid file comes after the report and the trap, so a test that saw it knows both are in place.
  lines.push(`echo $$ > "$FAKE_GIT_PIDS/$$"`);
  if (park) lines.push(`: < "$FAKE_GIT_FIFO"`);
  switch (answer) {
    case 'work-tree':
      // Called as `git -C <folder> rev-parse ...`: the folder is the top level.
      lines.push(`printf 'true\\n%s\\n' "$2"`, 'exit 0');
      break;
    case 'not-a-repo':
      lines.push(`echo 'fatal: not a git repository (or any of the parent directories): .git' >&2`, 'exit 128');
      break;
    case 'fail':
      lines.push(`echo 'fatal: fake git was told to fail' >&2`, 'exit 1');
      break;
  }
  return lines.join('\n') + '\n';
}

/** Yields to the event loop (and so to child-process exits) without a timer. */
function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** True while a process with that pid exists (`process.kill(pid, 0)`). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw err;
  }
}

/** Resolves once `pid` is gone (reaped). Bounded by the test's own timeout, not by a clock here. */
export async function waitUntilGone(pid: number): Promise<void> {
  while (isAlive(pid)) await tick();
}

export async function makeFakeGit(behaviour: FakeGitBehaviour = {}): Promise<FakeGit> {
  const temp = await makeTempDir('gardener-fake-git-');
  const binDir = join(temp.dir, 'bin');
  const pidDir = join(temp.dir, 'pids');
  const reportDir = join(temp.dir, 'reports');
  await Promise.all([mkdir(binDir), mkdir(pidDir), mkdir(reportDir)]);
  const fifos: string[] = [];

  const makeFifo = (name: string): string => {
    const path = join(temp.dir, name);
    execFileSync('mkfifo', [path]);
    fifos.push(path);
    return path;
  };
  const fifo = makeFifo('park.fifo');

  const gitPath = join(binDir, 'git');
  const setBehaviour = (b: FakeGitBehaviour): void => {
    // Write beside and rename, so a launch starting now reads a whole script, old or new.
    const tmp = `${gitPath}.tmp`;
    writeFileSync(tmp, script(b), { mode: 0o755 });
    renameSync(tmp, gitPath);
  };
  setBehaviour(behaviour);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${binDir}:${process.env.PATH ?? ''}`,
    FAKE_GIT_PIDS: pidDir,
    FAKE_GIT_REPORTS: reportDir,
    FAKE_GIT_FIFO: fifo,
  };

  const pids = async (): Promise<number[]> =>
    (await readdir(pidDir)).filter((name) => /^\d+$/.test(name)).map(Number);

  const waitForLaunches = async (count: number): Promise<number[]> => {
    for (;;) {
      const seen = await pids();
      if (seen.length >= count) return seen;
      await tick();
    }
  };

  const report = async (pid: number): Promise<FakeGitReport> => {
    const text = await readFile(join(reportDir, String(pid)), 'utf8');
    const fields = Object.fromEntries(
      text
        .split('\n')
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    return fields as unknown as FakeGitReport;
  };

  const release = async (which = fifo): Promise<void> => {
    // Blocks until a reader has the pipe open, so it is safe to call before the launch got there.
    const handle = await open(which, 'w');
    await handle.close();
  };

  const cleanup = async (): Promise<void> => {
    for (const path of fifos) {
      try {
        // Non-blocking: with no reader left this fails with ENXIO, which is what we hope for.
        const handle = await open(path, constants.O_WRONLY | constants.O_NONBLOCK);
        await handle.close();
      } catch {
        // Nobody parked.
      }
    }
    await temp.cleanup();
  };

  return { binDir, fifo, env, setBehaviour, makeFifo, pids, waitForLaunches, report, release, cleanup };
}
