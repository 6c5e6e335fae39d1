/**
 * Pool worker (Piscina): change detection for one ingest root, and the `changes` tool's ref.
 *
 *   main thread ── run(DetectTask) ──────────► [this worker] ── spawns git / walks the root
 *               ── "abort" on task.abort ────►   (kills its git, rejects with AbortedError)
 *               ◄── DetectResult / commit ────┘
 *
 * Stateless: it runs git (asynchronously, each bounded by GIT_COMMAND_TIMEOUT_MS, all of a task
 * by DETECT_TASK_TIMEOUT_MS, killed on abort) and stats files under the root it is given. It
 * never opens the store. The caller's cancel arrives as a message, not as a Piscina abort, so
 * that a cancelled task kills its git rather than losing its thread with the git still running.
 */
import type { MessagePort } from 'node:worker_threads';
import { detectChanges } from '../src/detect/detect-changes.js';
import { resolveCommit as resolveCommitOf } from '../src/detect/run-git.js';
import { DETECT_TASK_TIMEOUT_MS, type DetectResult, type DetectTask, type ResolveCommitTask } from './types.js';
import { yieldToMainThread } from '../src/pool/thread-priority.js';

// A pool thread works below the main thread's priority (src/pool/thread-priority.ts); its gits inherit it.
yieldToMainThread();

/** The task's signal: its own bound, or the caller's cancel relayed on `port`. */
async function withTaskSignal<T>(port: MessagePort | undefined, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const cancel = new AbortController();
  port?.once('message', () => cancel.abort(new Error('the caller cancelled')));
  try {
    return await run(AbortSignal.any([cancel.signal, AbortSignal.timeout(DETECT_TASK_TIMEOUT_MS)]));
  } finally {
    port?.close();
  }
}

export default function detect(task: DetectTask): Promise<DetectResult> {
  return withTaskSignal(task.abort, (signal) => detectChanges(task.request, signal));
}

export function resolveCommit(task: ResolveCommitTask): Promise<string | null> {
  return withTaskSignal(task.abort, (signal) => resolveCommitOf(task.ref, { cwd: task.root, gitBinary: task.gitBinary, signal }));
}
