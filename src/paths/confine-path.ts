/**
 * Path confinement: a path argument from a client may name only something under a brain's
 * roots. It is refused before anything is read, first by its text (`..` or an absolute path
 * leading elsewhere, a NUL byte, a backslash, a name longer than the file system takes), then
 * by where its symlinks lead, resolved with lstat/readlink only (realpath), so nothing, not
 * even a FIFO, is opened. A path may name a file that was just deleted (`scan` re-checks it):
 * its longest existing ancestor is what is resolved.
 */
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { InvalidArgumentError } from '../errors.js';

/** Longest path argument, in bytes (Linux PATH_MAX): the file system refuses longer ones anyway. */
export const MAX_PATH_BYTES = 4096;
/** Longest single name in a path, in bytes (NAME_MAX on Linux and macOS). */
export const MAX_NAME_BYTES = 255;

/**
 * The root `path` falls under and its root-relative, '/'-separated form; `path` is resolved
 * from `anchor` (the session folder, the shell's folder for the CLI), or, when that names
 * nothing under a root, from each root: every answer prints root-relative paths, so one can be
 * passed back as it was printed, from anywhere. `rootsName` names the roots in the refusal
 * ("this session's brain roots"). Throws InvalidArgumentError for anything outside.
 */
export function confinePath(anchor: string, roots: readonly string[], path: string, rootsName: string): { root: string; rel: string } {
  checkPathText(path);
  const abs = isAbsolute(path) ? path : fromAnchorOrRoot(anchor, roots, path);
  for (const root of roots) {
    const rel = relative(root, abs);
    if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) {
      const real = realPathOfExisting(abs);
      const realRel = relative(root, real);
      if (realRel !== '' && (realRel.startsWith('..') || isAbsolute(realRel))) {
        throw new InvalidArgumentError(`${path} leads outside ${rootsName} through a symlink (to ${real}); only paths inside them can be used`);
      }
      return { root, rel: rel.split(sep).join('/') };
    }
  }
  throw new InvalidArgumentError(`${path} is outside ${rootsName} (${roots.join(', ')}); only paths inside them can be used`);
}

/** `path` from the anchor when that exists under a root; else from the first root where it exists. */
function fromAnchorOrRoot(anchor: string, roots: readonly string[], path: string): string {
  const fromAnchor = resolve(anchor, path);
  const under = roots.some((root) => {
    const rel = relative(root, fromAnchor);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  });
  if (under && existsSync(fromAnchor)) return fromAnchor;
  for (const root of roots) {
    const fromRoot = resolve(root, path);
    const rel = relative(root, fromRoot);
    if ((rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) && existsSync(fromRoot)) return fromRoot;
  }
  // Nothing exists either way (a deleted file): read from the anchor if that is inside, else the first root.
  return under || roots.length === 0 ? fromAnchor : resolve(roots[0]!, path);
}

/** Refuses a path argument whose text alone says it cannot name a file under a root. */
function checkPathText(path: string): void {
  const shown = JSON.stringify(path.length > 120 ? `${path.slice(0, 120)}…` : path);
  if (path.includes('\0')) throw new InvalidArgumentError(`${shown} contains a NUL byte; pass the path without it`);
  if (path.includes('\\')) throw new InvalidArgumentError(`${shown} contains a backslash; separate folders with "/"`);
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) throw new InvalidArgumentError(`${shown} is too long (over ${MAX_PATH_BYTES} bytes)`);
  for (const name of path.split('/')) {
    if (Buffer.byteLength(name) > MAX_NAME_BYTES) throw new InvalidArgumentError(`${shown} has a name too long (over ${MAX_NAME_BYTES} bytes)`);
  }
}

/** The real path of `abs`, or of its longest existing ancestor with the rest appended. */
function realPathOfExisting(abs: string): string {
  let head = abs;
  const tail: string[] = [];
  for (;;) {
    try {
      return join(realpathSync.native(head), ...tail.reverse());
    } catch (err) {
      const parent = dirname(head);
      if (parent === head || !['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) return abs;
      tail.push(basename(head));
      head = parent;
    }
  }
}
