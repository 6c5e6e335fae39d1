/**
 * A path given on the command line, as a brain's root-relative path: resolved against the
 * working directory and refused, like every path a session is given, when it (or what a symlink
 * in it leads to) is outside the brain's roots.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { InvalidArgumentError } from '../../errors.js';

export function rootRelative(roots: readonly string[], path: string): string {
  if (path.includes('\0')) throw new InvalidArgumentError('a path must not contain a NUL character');
  const abs = resolve(path);
  const inside = (root: string, p: string) => {
    const rel = relative(root, p);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel)) ? rel : null;
  };
  for (const root of roots) {
    const rel = inside(root, abs);
    if (rel === null) continue;
    let real = abs;
    try {
      real = realpathSync(abs);
    } catch {
      // A path that does not exist (yet) is checked as written.
    }
    if (real !== abs && inside(root, real) === null) {
      throw new InvalidArgumentError(`${path} leads outside the brain's roots through a symlink (to ${real}); only paths inside them can be used`);
    }
    return rel.split(sep).join('/');
  }
  throw new InvalidArgumentError(`${path} is outside the brain's roots (${roots.join(', ')}); only paths inside them can be used`);
}
