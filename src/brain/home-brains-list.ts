/**
 * Every brain of a home as a person cleaning up sees it: its folders and whether each is still
 * there, what its store weighs, and brain folders no registry entry names (left by a crash
 * between the two steps of a removal, or by hand). An owner that runs for months under a
 * service manager sees throwaway folders come and go (worktrees, checkouts in a temp folder);
 * each `ingest` of one made a brain, and only this list says which of them are left over.
 *
 * A folder counts as gone only when the file system says it does not exist (ENOENT or
 * ENOTDIR); a folder that cannot be read (a permission, an unmounted network share that
 * answers EIO) counts as there, so no brain is removed on a doubt. Removing is in
 * remove-brains.ts.
 */
import { lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brainDir, brainFile } from './home.js';
import { Registry } from './registry.js';
import { readStoreFacts } from './store-facts.js';

export interface ListedRoot {
  path: string;
  present: boolean;
}

export interface ListedBrain {
  id: string;
  roots: ListedRoot[];
  /** Every root of the brain is gone. */
  gone: boolean;
  /** The store file (brain.db). */
  store: string;
  /** The brain's folder on disk: the store, its WAL and anything beside them. */
  bytes: number;
  created_at: string;
  /** From the store, read-only; null when it cannot be read (`unreadable` says why). */
  files: number | null;
  armed: boolean | null;
  fresh_as_of: string | null;
  unreadable?: string;
}

export interface HomeBrainsList {
  brains: ListedBrain[];
  /** Brain folders under `<home>/brains/` that no registry entry names. */
  orphans: string[];
}

export function listHomeBrains(home: string): HomeBrainsList {
  const entries = new Registry(home).list();
  const brains = entries.map((entry): ListedBrain => {
    const roots = entry.roots.map((path) => ({ path, present: rootPresent(path) }));
    const listed: ListedBrain = {
      id: entry.id,
      roots,
      gone: roots.length > 0 && roots.every((r) => !r.present),
      store: brainFile(home, entry.id),
      bytes: 0,
      created_at: new Date(entry.createdAt).toISOString(),
      files: null,
      armed: null,
      fresh_as_of: null,
    };
    try {
      const { files, armed, fresh_as_of } = readStoreFacts(listed.store);
      Object.assign(listed, { files, armed, fresh_as_of });
    } catch (err) {
      listed.unreadable = (err as Error).message;
    }
    // After the read: a read-only open can leave the store's -shm file behind, which is the brain's too.
    listed.bytes = folderBytes(brainDir(home, entry.id));
    return listed;
  });
  const orphans = orphanFolders(home, new Set(entries.map((e) => e.id)));
  return { brains: brains.sort((a, b) => (a.roots[0]?.path ?? a.id).localeCompare(b.roots[0]?.path ?? b.id)), orphans };
}

/** Brain folders under `<home>/brains/` that no registry entry (of `known` ids) names, sorted. */
export function orphanFolders(home: string, known: ReadonlySet<string>): string[] {
  let folders: string[] = [];
  try {
    folders = readdirSync(join(home, 'brains'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    // No brains folder yet: no orphans.
  }
  return folders.filter((name) => !known.has(name)).sort().map((name) => brainDir(home, name));
}

/** Bytes of the regular files in a folder and its subfolders (0 when it is gone). */
export function folderBytes(dir: string): number {
  let total = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    try {
      const st = lstatSync(join(dir, name));
      if (st.isDirectory()) total += folderBytes(join(dir, name));
      else if (st.isFile()) total += st.size;
    } catch {
      // Removed while counted.
    }
  }
  return total;
}

/** Every root of a brain is gone (none is an empty list). */
export function allRootsGone(roots: readonly string[]): boolean {
  return roots.length > 0 && roots.every((r) => !rootPresent(r));
}

/** False only when the file system says the folder does not exist (a doubt counts as there). */
export function rootPresent(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code !== 'ENOENT' && code !== 'ENOTDIR';
  }
}
