/**
 * The team notes folder of a root (docs/notes.md): where a note that travels through git is a
 * file. `.gardener/notes` unless the root's `.gardener/config.json` names another
 * (root-config.ts). Only the files directly inside it are notes; its subfolders are not read
 * as notes. These are pure path rules, shared by detection, the hash+extract worker and the
 * store writer, so all three agree on what a note file is.
 */
/** The notes folder of a root whose config names none. */
export const DEFAULT_NOTES_DIR = '.gardener/notes';

/** True for a file directly inside `dir` (not in a subfolder of it). */
export function isNoteFile(path: string, dir: string = DEFAULT_NOTES_DIR): boolean {
  return path.length > dir.length + 1 && path.startsWith(dir) && path[dir.length] === '/' && !path.includes('/', dir.length + 1);
}

/**
 * True for a folder on the way to `dir`, `dir` itself, and a note file in it: the paths the
 * noise policy lets through although a folder on the way (`.gardener`) is one it skips.
 */
export function isOnNotesPath(path: string, dir: string = DEFAULT_NOTES_DIR): boolean {
  if (path === dir || isNoteFile(path, dir)) return true;
  return dir.length > path.length && dir.startsWith(path) && dir[path.length] === '/';
}
