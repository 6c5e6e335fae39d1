/**
 * Real git repositories and temp folders for tests (lint-staged's `withGitIntegration` habit).
 *
 *   const repo = await makeGitRepo({ 'src/a.ts': 'export {}\n' });
 *   try { repo.write('b.txt', 'x'); const sha = repo.commit('add b'); ... }
 *   finally { await repo.cleanup(); }
 *
 * Folders are realpaths (macOS's /var is a symlink to /private/var), so they can be handed
 * to code that expects a resolved ingest root. Git runs with the user's and the system's
 * config shut out (GIT_CONFIG_GLOBAL=/dev/null, GIT_CONFIG_NOSYSTEM=1) and without any
 * GIT_DIR-like variable inherited from a hook, so a test sees the same git everywhere.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempDir {
  /** Absolute realpath of a fresh empty folder. */
  dir: string;
  /** Removes the folder and everything in it. */
  cleanup(): Promise<void>;
}

export interface GitRepo extends TempDir {
  /** Runs git in the repository synchronously and returns its stdout (trimmed of one final newline). */
  git(...args: string[]): string;
  /**
   * Writes a file relative to the repository, creating its folders. `rel` may be bytes, for
   * names that are not UTF-8.
   */
  write(rel: string | Uint8Array, content: string | Uint8Array): void;
  /** Removes a file or folder relative to the repository (recursive, no error if absent). */
  remove(rel: string | Uint8Array): void;
  /** Stages everything (`git add -A`), commits, and returns the new HEAD sha. */
  commit(message: string): string;
}

/** The environment every test git command runs with. */
export function testGitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
  };
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_COMMON_DIR', 'GIT_PREFIX']) {
    delete env[name];
  }
  return env;
}

/** A fresh empty temp folder (realpath). */
export async function makeTempDir(prefix = 'gardener-test-'): Promise<TempDir> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Joins a folder and a relative path given as text or bytes, keeping the bytes exact. */
function joinBytes(dir: string, rel: string | Uint8Array): string | Buffer {
  if (typeof rel === 'string') return join(dir, rel);
  return Buffer.concat([Buffer.from(`${dir}/`), Buffer.from(rel)]);
}

function parentOf(path: string | Buffer): string | Buffer {
  if (typeof path === 'string') return path.slice(0, path.lastIndexOf('/'));
  return path.subarray(0, path.lastIndexOf(0x2f));
}

/**
 * A git repository in a fresh temp folder: `git init -b main`, user name and email set,
 * commit signing off. When `files` is given they are written and committed as a first commit;
 * without it the repository has no commits (HEAD is unborn).
 */
export async function makeGitRepo(files?: Record<string, string>): Promise<GitRepo> {
  const temp = await makeTempDir('gardener-git-');
  const { dir } = temp;
  const env = testGitEnv();
  const git = (...args: string[]): string => {
    const out = execFileSync('git', args, { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return out.endsWith('\n') ? out.slice(0, -1) : out;
  };
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Gardener Test');
  git('config', 'user.email', 'test@gardener.invalid');
  git('config', 'commit.gpgsign', 'false');
  git('config', 'tag.gpgsign', 'false');
  git('config', 'core.autocrlf', 'false');

  const write = (rel: string | Uint8Array, content: string | Uint8Array): void => {
    const path = joinBytes(dir, rel);
    mkdirSync(parentOf(path), { recursive: true });
    writeFileSync(path, content);
  };
  const remove = (rel: string | Uint8Array): void => {
    rmSync(joinBytes(dir, rel), { recursive: true, force: true });
  };
  const commit = (message: string): string => {
    git('add', '-A');
    git('commit', '-q', '--allow-empty', '-m', message);
    return git('rev-parse', 'HEAD');
  };

  if (files) {
    for (const [rel, content] of Object.entries(files)) write(rel, content);
    commit('first commit');
  }
  return { ...temp, git, write, remove, commit };
}
