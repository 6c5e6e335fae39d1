/**
 * A path given on the command line, as a brain's root-relative path: read from the working
 * directory, or from a root when that names nothing there (the form every answer prints), and
 * refused, like every path a session is given, when it (or what a symlink in it leads to) is
 * outside the brain's roots. The rule is the sessions' own (src/paths/confine-path.ts).
 */
import { confinePath } from '../../paths/confine-path.js';

export function rootRelative(roots: readonly string[], path: string): string {
  return confinePath(process.cwd(), roots, path, "the brain's roots").rel;
}
