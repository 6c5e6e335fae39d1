/** Checks a folder argument once, at the edge: it must exist, be a folder, and be readable. */
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { FolderNotFoundError } from '../errors.js';

/** The folder's real absolute path, or a FolderNotFoundError that names it and why. */
export function checkFolder(path: string, cwd: string = process.cwd()): string {
  const abs = resolve(cwd, path);
  let st;
  try {
    st = statSync(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new FolderNotFoundError(abs, code === 'ENOENT' ? 'no such folder' : `cannot be read (${code})`, { cause: err });
  }
  if (!st.isDirectory()) throw new FolderNotFoundError(abs, 'is not a folder');
  try {
    accessSync(abs, constants.R_OK | constants.X_OK);
  } catch (err) {
    throw new FolderNotFoundError(abs, 'is not readable (check its permissions)', { cause: err });
  }
  return realpathSync(abs);
}
