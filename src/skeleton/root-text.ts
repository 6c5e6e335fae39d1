/** Reads small text files (README, package.json) of a brain's roots, for drafting purposes. */
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';

/** Most bytes read from one file: a purpose comes from its first lines. */
const MAX_TEXT_BYTES = 64 * 1024;

export function rootTextReader(roots: readonly string[]): (path: string) => string | null {
  return (path) => {
    for (const root of roots) {
      let fd: number | undefined;
      try {
        fd = openSync(join(root, path), 'r');
        const buf = Buffer.alloc(MAX_TEXT_BYTES);
        const n = readSync(fd, buf, 0, MAX_TEXT_BYTES, 0);
        return buf.subarray(0, n).toString('utf8');
      } catch {
        // Not in this root (or unreadable): try the next; a draft can do without it.
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
    }
    return null;
  };
}
