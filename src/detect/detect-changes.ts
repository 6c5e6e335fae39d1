/**
 * Choosing the backend. Git when the root is inside a work tree and git runs; otherwise the
 * stat walk, which always works. `fallback` tells the caller when the answer came from a
 * different backend than the one it could reasonably expect:
 *
 * - backend 'git': git missing (spawn fails) → stat, 'git_missing'; not a work tree → stat,
 *   'not_a_work_tree'.
 * - backend 'auto': git missing → stat, 'git_missing' when a `.git` entry sits in the root or
 *   a folder above it, else null; not a work tree → stat, null.
 *
 * For 'auto' a plain folder is simply a stat-walk root, so nothing is flagged; but a folder
 * that is visibly a git checkout whose git cannot run deserves the flag, because the user
 * expects .gitignore to be honoured and the since-ref to advance, and neither will happen.
 * Any other git failure (timeout, corrupt repository) is not papered over: GitError reaches
 * the caller, which fails open.
 */
import { lstat } from 'node:fs/promises';
import { dirname, isAbsolute } from 'node:path';
import { InvalidArgumentError } from '../errors.js';
import { joinFsPath } from '../paths/path-bytes.js';
import { detectGit } from './git-detector.js';
import { checkNotesDir } from './root-config.js';
import { isGitMissing, runGit } from './run-git.js';
import { detectStat } from './stat-walk-detector.js';
import type { DetectFallback, DetectRequest, DetectResult } from './types.js';

type Probe = { kind: 'work_tree' | 'not_a_work_tree' | 'git_missing'; ms: number };

async function probeWorkTree(req: DetectRequest, signal?: AbortSignal): Promise<Probe> {
  const started = performance.now();
  try {
    const out = await runGit(['rev-parse', '--is-inside-work-tree'], {
      cwd: req.root,
      gitBinary: req.gitBinary,
      gitTimeoutMs: req.gitTimeoutMs,
      signal,
    });
    const inside = out.code === 0 && out.stdout.toString('latin1').trim() === 'true';
    return { kind: inside ? 'work_tree' : 'not_a_work_tree', ms: out.ms };
  } catch (err) {
    if (isGitMissing(err)) return { kind: 'git_missing', ms: performance.now() - started };
    throw err;
  }
}

/** True when `root` or a folder above it holds a `.git` entry (a folder, or a worktree's file). */
async function looksLikeGitCheckout(root: string): Promise<boolean> {
  for (let dir = root; ; dir = dirname(dir)) {
    try {
      await lstat(joinFsPath(dir, '.git'));
      return true;
    } catch {
      // Not here; look one folder up.
    }
    if (dirname(dir) === dir) return false;
  }
}

/** Checks the fields a worker message could get wrong, naming the field and the value received. */
export function checkDetectRequest(req: DetectRequest): void {
  if (typeof req.root !== 'string' || !isAbsolute(req.root)) {
    throw new InvalidArgumentError(`request.root must be an absolute path, got ${JSON.stringify(req.root)}`);
  }
  if (!['auto', 'git', 'stat'].includes(req.backend)) {
    throw new InvalidArgumentError(`request.backend must be 'auto', 'git' or 'stat', got ${JSON.stringify(req.backend)}`);
  }
  const t = req.gitTimeoutMs;
  if (t !== undefined && !(Number.isFinite(t) && t > 0)) {
    throw new InvalidArgumentError(`request.gitTimeoutMs must be a positive number of milliseconds, got ${String(t)}`);
  }
  if (req.notesDir !== undefined) {
    try {
      checkNotesDir(req.notesDir);
    } catch (err) {
      throw new InvalidArgumentError(`request.${(err as Error).message}`);
    }
  }
}

/** Detects what changed under `req.root`, with the backend the request and the folder allow. */
export async function detectChanges(req: DetectRequest, signal?: AbortSignal): Promise<DetectResult> {
  checkDetectRequest(req);
  if (req.backend === 'stat') return detectStat(req, signal);
  if (req.knownWorkTree) {
    // The common tick: the root was a work tree last time, so skip one git launch. Should
    // git now disagree (the .git folder went away, git was uninstalled), take the long way.
    try {
      return await detectGit(req, signal);
    } catch (err) {
      if (signal?.aborted) throw err;
    }
  }
  const probe = await probeWorkTree(req, signal);
  if (probe.kind === 'work_tree') {
    const result = await detectGit(req, signal);
    return { ...result, gitMs: result.gitMs + probe.ms };
  }
  let fallback: DetectFallback = null;
  if (probe.kind === 'git_missing') {
    if (req.backend === 'git' || (await looksLikeGitCheckout(req.root))) fallback = 'git_missing';
  } else if (req.backend === 'git') {
    fallback = 'not_a_work_tree';
  }
  const result = await detectStat(req, signal);
  return { ...result, fallback, gitMs: probe.ms };
}
