/**
 * How many folders a watch backend watches under the soak's roots: one inotify watch each.
 * Bun's recursive `fs.watch` watches every folder, `.git`'s and its loose objects' included, so
 * its count moves with every commit and `git gc`; the native watcher skips what
 * src/watch/native-backend.ts `nativeIgnores` names (noise folders at any depth, `.git`'s noise).
 * The judge holds the watches above this count to their level: a leaked watch outlives its folder.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SKIP_DIR_NAMES } from '../../src/detect/index.js';

export type WatchBackendName = 'native' | 'fs.watch';

/** `.git` folders the native backend ignores (native-backend.ts GIT_NOISE). */
const NATIVE_GIT_NOISE = new Set(['objects', 'logs', 'hooks', 'info', 'lfs', 'modules', 'worktrees']);

/** The folders `backend` watches under `roots`, the roots included; a folder gone mid-walk is not counted. */
export function watchedFolders(roots: readonly string[], backend: WatchBackendName): number {
  let n = 0;
  const walk = (dir: string, inGit: boolean, depthInGit: number): void => {
    n++;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      n--;
      return;
    }
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const git = inGit || e.name === '.git';
      if (backend === 'native') {
        if (!inGit && e.name !== '.git' && SKIP_DIR_NAMES.has(e.name)) continue;
        if (inGit && depthInGit === 0 && NATIVE_GIT_NOISE.has(e.name)) continue;
      }
      walk(join(dir, e.name), git, inGit ? depthInGit + 1 : 0);
    }
  };
  for (const root of roots) walk(root, false, 0);
  return n;
}
