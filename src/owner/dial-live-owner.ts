/**
 * `gardener mcp`'s dial: a live owner is always used; in-process is only for a home nobody owns.
 *
 * The dial bound (PROXY_DIAL_MS, 100 ms) is what a home without a live owner costs once, and a
 * live owner answers well inside it, but not always: on a loaded machine the challenge round
 * trip alone can take longer, and a proxy that then served in-process would split the brain
 * between two processes. So a dial that found no answer asks the kernel whether a live process
 * holds the owner lock (dial-lock.ts). Nobody holds it: no owner, serve in-process at once.
 * Somebody does: that owner is alive (stopped, busy, starting), so the proxy waits for it, up to
 * PROXY_OWNER_WAIT_MS (8 s), dialling again while the lock stays held. An owner that dies meanwhile
 * frees the lock, and the proxy serves in-process then. One that keeps the lock and never
 * answers ends the proxy with GDN_OWNER_NOT_ANSWERING, naming its pid: two writers on one home
 * is what this rule exists to prevent.
 *
 * Loads nothing beyond dial-home.ts until the first dial has failed.
 */
import type { ClientHello } from '../transports/socket/hello.js';
import { dialOwnerOf, ownerEverRan, type Dialed, type DialFailure } from './dial-home.js';
import { monotonicNow } from '../timers.js';

/**
 * How long a proxy waits for an owner that holds the home but has not answered, in ms: 80 times
 * the dial bound, where an owner's start (the lock comes before the socket) takes under a
 * second; and under the 10 s the least patient host gives a server to start (Codex's default
 * `startup_timeout_sec`, openai/codex#11851), so the host shows this error, not its own timeout.
 */
export const PROXY_OWNER_WAIT_MS = 8_000;
/** Sets PROXY_OWNER_WAIT_MS (tests shorten it). */
export const PROXY_OWNER_WAIT_ENV = 'GARDENER_PROXY_OWNER_WAIT_MS';
/**
 * Pause before dialling again when a dial ended at once (the owner holds the lock but is not
 * listening yet, as while it starts), in ms. A dial that reaches a listening socket waits on
 * the answer itself, with no pause.
 */
export const OWNER_REDIAL_PAUSE_MS = 50;

/** No owner was used. `silent` is set when a live one held the home and did not answer within the wait. */
export type LiveDialFailure = DialFailure & { silent?: { pid: number | null; waitedMs: number } };

export interface DialLiveOptions {
  /** Bound on the first dial, in ms. */
  dialMs: number;
  /** Bound on waiting for an owner that holds the lock, in ms. */
  waitMs: number;
  log: (line: string) => void;
}

export async function dialLiveOwner(home: string, hello: ClientHello, options: DialLiveOptions): Promise<(Dialed & { socketPath: string }) | LiveDialFailure> {
  const first = await dialOwnerOf(home, hello, options.dialMs);
  // No token: no owner ever ran here, so there is no lock to ask about (and nothing more to load).
  if (first.socket || first.untrusted || !ownerEverRan(home)) return first;
  const [{ ownerLockHolder }, { runPaths }, { readOwnerFile }] = await Promise.all([import('./dial-lock.js'), import('./run-paths.js'), import('./owner-file.js')]);
  const paths = runPaths(home);
  let holder = await ownerLockHolder(paths.lockFile);
  if (!holder.held) return first;
  const pid = holder.pid ?? readOwnerFile(paths.ownerFile)?.pid ?? null;
  options.log(`the owner (pid ${pid ?? 'unknown'}) holds this home but did not answer within ${options.dialMs} ms: waiting for it (up to ${options.waitMs} ms)`);
  const started = monotonicNow();
  const deadline = started + options.waitMs;
  let last: LiveDialFailure = first;
  for (;;) {
    const left = deadline - monotonicNow();
    if (left <= 0) return { ...last, silent: { pid, waitedMs: Math.round(monotonicNow() - started) } };
    const at = monotonicNow();
    const d = await dialOwnerOf(home, hello, left);
    if (d.socket || d.untrusted) return d;
    last = d;
    holder = await ownerLockHolder(paths.lockFile);
    if (!holder.held) {
      options.log('the owner let go of this home while the proxy waited');
      return d;
    }
    // Ended at once (nothing listens yet): pause before the next try. Ended by its bound: none.
    const pause = Math.min(OWNER_REDIAL_PAUSE_MS - (monotonicNow() - at), deadline - monotonicNow());
    if (pause > 0) await new Promise((r) => setTimeout(r, pause));
  }
}
