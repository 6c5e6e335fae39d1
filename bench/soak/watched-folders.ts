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
import { NATIVE_GIT_NOISE } from '../../src/watch/index.js';

export type WatchBackendName = 'native' | 'fs.watch';

/** The `.git` folders the native watcher ignores, by name inside `.git`. */
const gitNoise = new Set(NATIVE_GIT_NOISE.map((p) => p.slice('.git/'.length)));

/** The folders `backend` watches under `roots`, the roots included; a folder gone mid-walk is not counted. */
export function watchedFolders(roots: readonly string[], backend: WatchBackendName): number {
  let n = 0;
  // `gitDepth`: -1 outside `.git`, 0 in `.git` itself, 1 below it.
  const walk = (dir: string, gitDepth: number): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    n++;
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const depth = gitDepth >= 0 ? Math.min(gitDepth + 1, 1) : e.name === '.git' ? 0 : -1;
      if (backend === 'native') {
        if (depth === -1 && SKIP_DIR_NAMES.has(e.name)) continue;
        if (gitDepth === 0 && gitNoise.has(e.name)) continue;
      }
      walk(join(dir, e.name), depth);
    }
  };
  for (const root of roots) walk(root, -1);
  return n;
}
