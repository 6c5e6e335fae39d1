/**
 * Background threads give way to the main thread. The main thread answers agents (recall
 * reads on it, beside every transport); the pool threads and the store writer do the
 * vigil's work, which can wait a little. On a two-core machine a drain keeps two threads busy
 * (hashing, writing), and at equal priority the main thread shared a core with one of them:
 * `seek` during a 1000-file drain had a p99 2.6× its idle p99 (docs/benchmarks.md). With the
 * workers a few nice steps lower, the kernel keeps a core for the main thread when it has
 * work, and gives the workers every cycle it does not use: an idle machine drains as fast.
 *
 * Linux only: there a thread's nice value is its own (setpriority on the calling thread, which
 * `os.setPriority(n)` is), on Node and Bun alike. On macOS and Windows it would apply to the
 * whole process, main thread included, and an unprivileged process can never raise it back,
 * so there the workers are left as they are.
 */
import { getPriority, setPriority } from 'node:os';

/**
 * Nice steps a worker thread takes below the process: kernel weight 655 against the main
 * thread's 1024, enough for the scheduler to keep the main thread alone on a core of two while
 * both workers run, and little against other processes (5 steps, weight 335, lost the drain a
 * third of its CPU whenever the machine was busy with anything else).
 */
export const WORKER_NICE_STEPS = 2;
/** The lowest priority there is (the highest nice value). */
const MAX_NICE = 19;

let lowered = false;

/**
 * Lowers the calling worker thread's priority once (later calls in the same thread do nothing:
 * a pool thread loads several task modules). Never throws: a refusal leaves it as it was.
 */
export function yieldToMainThread(platform: NodeJS.Platform = process.platform): boolean {
  if (lowered || platform !== 'linux') return false;
  lowered = true;
  try {
    setPriority(Math.min(MAX_NICE, getPriority() + WORKER_NICE_STEPS));
    return true;
  } catch {
    return false;
  }
}
