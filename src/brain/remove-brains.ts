/**
 * Removing brains from a home: the registry entries first (atomically, so no folder resolves
 * to a brain being removed), then each brain's folder. A crash between the two leaves a folder
 * no entry names, which `listHomeBrains` reports as an orphan and the next prune removes.
 *
 * The caller holds the home's owner lock (cli/commands/brains.ts): an owner keeps a removed
 * brain's store open and would find it again under the same id if the folder came back.
 * The folders the brains map are never touched.
 */
import { rmSync } from 'node:fs';
import { basename } from 'node:path';
import { brainDir } from './home.js';
import { Registry } from './registry.js';

export interface Removal {
  /** Ids unregistered, with their folders removed. */
  removed: string[];
  /** Orphan folders removed. */
  orphans: string[];
}

export function removeBrains(home: string, ids: readonly string[], orphans: readonly string[] = []): Removal {
  const registry = new Registry(home);
  const removed = registry.remove(ids).map((e) => e.id);
  // Read again now: a brain being created registers before it makes its folder, so a folder
  // that became a brain since the list was made is named here and kept.
  const known = new Set(registry.list().map((e) => e.id));
  const strays = orphans.filter((dir) => !known.has(basename(dir)));
  for (const dir of [...removed.map((id) => brainDir(home, id)), ...strays]) rmSync(dir, { recursive: true, force: true });
  return { removed, orphans: strays };
}
