/**
 * The floor: what the same burst costs with nothing but the unavoidable work, measured in the
 * same process right after the tick, on the same work tree. It is a bare `git status` (the
 * changed set) plus reading and hashing the burst's present files on one thread (xxh64, as the
 * pipeline does). Symbol extraction and SQLite writes are real work too, so a tick can never
 * reach the floor; the target is to stay within a small multiple of it.
 *
 * The bench may block its own main thread here: this is the yardstick, not the product.
 * Git runs with GIT_OPTIONAL_LOCKS=0 like the detector's git, so neither refreshes the index
 * for the other.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import xxhash from 'xxhash-wasm';

export interface Floor {
  gitStatusMs: number;
  readHashMs: number;
  /** gitStatusMs + readHashMs. */
  floorMs: number;
}

type H64Raw = Awaited<ReturnType<typeof xxhash>>['h64Raw'];

function floorGitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' };
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_COMMON_DIR', 'GIT_PREFIX']) delete env[name];
  return env;
}

/** Wall time of one bare `git status --porcelain -uall` in `dir`, in ms. */
export function timeGitStatus(dir: string): number {
  const env = floorGitEnv();
  const t0 = performance.now();
  const r = spawnSync('git', ['status', '--porcelain', '-uall'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  const ms = performance.now() - t0;
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`bench: git status failed in ${dir}: ${r.stderr.toString().trim()}`);
  return ms;
}

/** Measures floors; holds the xxhash-wasm instance so its start-up is never measured. */
export class FloorMeter {
  #h64: H64Raw;
  private constructor(h64: H64Raw) {
    this.#h64 = h64;
  }

  static async create(): Promise<FloorMeter> {
    return new FloorMeter((await xxhash()).h64Raw);
  }

  /** Wall time to read and xxh64 each of `paths` under `root` on this thread, in ms. */
  timeReadHash(root: string, paths: readonly string[]): number {
    let sink = 0n;
    const t0 = performance.now();
    for (const p of paths) sink ^= this.#h64(readFileSync(join(root, p)));
    const ms = performance.now() - t0;
    if (sink === -1n) process.stderr.write(''); // keeps the hashes observably used
    return ms;
  }

  measure(root: string, present: readonly string[]): Floor {
    const gitStatusMs = timeGitStatus(root);
    const readHashMs = this.timeReadHash(root, present);
    return { gitStatusMs, readHashMs, floorMs: gitStatusMs + readHashMs };
  }
}
