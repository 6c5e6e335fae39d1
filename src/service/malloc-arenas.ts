/**
 * The owner holds glibc's malloc to two arenas and a fixed mmap threshold (OWNER_GLIBC_TUNABLES):
 * on Linux, `gardener serve` starts again once, in the same process (execve: the same pid and
 * stdio, so systemd and launchd see one process), with `GLIBC_TUNABLES` set, before it opens
 * anything.
 *
 * Why: glibc gives every thread that allocates an arena of its own (up to 8 per core) and keeps
 * the memory freed in each, and the owner's threads are many: the main thread, the pool and the
 * store writer, V8's compiler and collector threads. glibc reads its tunables only when a process
 * starts, so the setting cannot be made from JavaScript. The daemon pays for the second start
 * once: ready 261 ms after spawn against 226 (Node 24, medians of 7); `gardener mcp` never does,
 * since its first frame is waited for. Measured on Node 24 (7 interleaved pairs: an owner on the
 * bench's 5000-file repository through three 1000-file bursts, a 400-file tree-sitter burst and
 * 50 seeks, docs/owner.md): peak RSS median 181 MB against 191, the same work as fast.
 *
 * Not done: when GLIBC_TUNABLES is set at all (by the service unit, by the user, or by this
 * start: never twice; an empty value turns it off), off Linux (no glibc), on Bun (its own
 * allocator), and on Node without `process.execve` (before 22.15 and 23.11: the service unit
 * sets the variable there). If execve fails, the owner goes on as it was, saying why.
 */
import { onBun } from '../heap-growth.js';
import type { Logger } from '../log.js';

/**
 * What the owner's malloc is held to: two arenas for every thread of the process, and an mmap
 * threshold fixed at 32 KiB, a quarter of glibc's starting 128 KiB. Fixed: left to slide, glibc
 * raises the threshold to the largest mmapped block freed (up to 32 MiB), and after the owner
 * frees one large block (a message's serialized copy, a big file's text) every block below it
 * comes from an arena, which keeps what is freed in it. Measured in the soak (20 minutes, two
 * owners side by side on Node 20, docs/reliability.md): the second arena grew 48.5 -> 55.6 MB
 * with the threshold sliding and stayed at 49.2 MB fixed; RSS beyond the V8 heaps 7.28 against
 * 1.46 MB per 10 minutes.
 *
 * 32 KiB rather than 128: the blocks between them are transient and come in bursts (a pipe's
 * 64 KiB reads of git's output, a batch's file texts), and from an arena a burst's peak stayed in
 * the RSS wherever a block that lives on was placed above it. Measured in the soak (15 minutes,
 * the same seed, two Node 20 owners side by side, docs/reliability.md): RSS less the heaps and
 * the mapped files 66.9 MB at minute 2 and 67.5 at minute 14 against 74.4 and 78.8 at 128 KiB,
 * RSS medians about 10 MB lower (200 against 210 MB), the owner's CPU 57 s against 55.
 */
export const OWNER_GLIBC_TUNABLES = 'glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=32768';

/** What the decision reads; the real process unless a test hands in its own. */
export interface RestartHost {
  platform: string;
  onBun: boolean;
  env: NodeJS.ProcessEnv;
  execPath: string;
  execArgv: readonly string[];
  argv: readonly string[];
  execve: ((file: string, args: string[], env: NodeJS.ProcessEnv) => void) | undefined;
}

export interface Restart {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/** The start to make instead of this one, or null when this process keeps going as it is. */
export function ownerRestart(host: RestartHost): Restart | null {
  if (host.platform !== 'linux' || host.onBun) return null;
  if (host.env.GLIBC_TUNABLES !== undefined) return null;
  if (typeof host.execve !== 'function') return null;
  return {
    file: host.execPath,
    args: [host.execPath, ...host.execArgv, ...host.argv.slice(1)],
    env: { ...host.env, GLIBC_TUNABLES: OWNER_GLIBC_TUNABLES },
  };
}

function thisProcess(): RestartHost {
  return {
    platform: process.platform,
    onBun,
    env: process.env,
    execPath: process.execPath,
    execArgv: process.execArgv,
    argv: process.argv,
    execve: (process as { execve?: RestartHost['execve'] }).execve?.bind(process),
  };
}

/** Starts this process again with OWNER_GLIBC_TUNABLES when ownerRestart says so; returns only if it did not. */
export function holdMallocArenas(log: Logger, host: RestartHost = thisProcess()): void {
  const restart = ownerRestart(host);
  if (!restart) return;
  try {
    host.execve!(restart.file, restart.args, restart.env);
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    log.warn('could not start again with malloc held to two arenas: going on as it is', { GLIBC_TUNABLES: OWNER_GLIBC_TUNABLES, code: typeof code === 'string' ? code : String(err) });
  }
}
