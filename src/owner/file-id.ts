/**
 * A file's identity, its device and inode: what the owner remembers of the files it made or
 * locked (its socket, its lock file), so it tells its own file from one put at the same path
 * later, and removes or trusts only its own. Node built-ins only.
 */
import { lstatSync } from 'node:fs';

export interface FileId {
  dev: number;
  ino: number;
}

/** The identity of what is at `path` (not following a symlink), or null when nothing is. */
export function fileIdOf(path: string): FileId | null {
  try {
    const st = lstatSync(path);
    return { dev: st.dev, ino: st.ino };
  } catch {
    return null;
  }
}

/** Whether `path` holds the very file `id` names. */
export function isFileAt(path: string, id: FileId | null): boolean {
  const now = fileIdOf(path);
  return now !== null && id !== null && now.dev === id.dev && now.ino === id.ino;
}
