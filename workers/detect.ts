/**
 * Pool worker (Piscina): change detection for one ingest root, the `changes` tool's ref, and
 * the history lists' mining (git log up to the map's head, src/history/mine-history.ts).
 *
 *   main thread ── run(DetectTask) ──────────► [this worker] ── spawns git / walks the root
 *               ── "abort" on task.abort ────►   (kills its git, rejects with AbortedError)
 *               ◄── DetectResult / commit ────┘
 *
 * Stateless: it runs git (asynchronously, each bounded by GIT_COMMAND_TIMEOUT_MS, all of a task
 * by DETECT_TASK_TIMEOUT_MS, killed on abort) and stats files under the root it is given. It
 * never opens the store. The caller's cancel arrives as a message, not as a Piscina abort, so
 * that a cancelled task kills its git rather than losing its thread with the git still running.
 * A Gardener error leaves as data and is itself again in the caller (src/pool/error-wire.ts).
 */
import type { MessagePort } from 'node:worker_threads';
import { detectChanges } from '../src/detect/detect-changes.js';
import { resolveCommit as resolveCommitOf } from '../src/detect/run-git.js';
import { mineHistory as mineHistoryOf, type MineOutcome } from '../src/history/index.js';
import { AbortedError } from '../src/errors.js';
import { throwsWhole } from '../src/pool/error-wire.js';
import { DETECT_TASK_TIMEOUT_MS, type DetectResult, type DetectTask, type MineHistoryTask, type ResolveCommitTask } from './types.js';
import { isMainThread } from 'node:worker_threads';
import { keepPagesReturned } from '../src/page-return.js';
import { yieldToMainThread } from '../src/pool/thread-priority.js';

// A pool thread works below the main thread's priority (src/pool/thread-priority.ts); its gits inherit it.
yieldToMainThread();
// It gives its heap's garbage pages back once the heap grew (src/page-return.ts; once per thread).
if (!isMainThread) keepPagesReturned();

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

export default throwsWhole((task: DetectTask): Promise<DetectResult> =>
  withTaskSignal(task.abort, (signal) => detectChanges(task.request, signal)));

export const resolveCommit = throwsWhole((task: ResolveCommitTask): Promise<string | null> =>
  withTaskSignal(task.abort, (signal) => resolveCommitOf(task.ref, { cwd: task.root, gitBinary: task.gitBinary, signal })));

/** A git that fails comes back as `{status: 'failed', note}` (see MineOutcome); a cancel still rejects. */
export const mineHistory = throwsWhole((task: MineHistoryTask): Promise<MineOutcome> =>
  withTaskSignal(task.abort, async (signal) => {
    try {
      return await mineHistoryOf(task.request, signal);
    } catch (err) {
      if (err instanceof AbortedError || signal.aborted) throw err;
      return { status: 'failed', note: (err as Error).message };
    }
  }));
