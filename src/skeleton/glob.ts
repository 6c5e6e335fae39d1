/**
 * Member globs of a room, matched against root-relative paths with `/` separators.
 *
 * A small dialect on purpose (what a room needs, nothing a reader must look up): `**` spans
 * any number of folders, `*` anything inside one segment, `?` one character; a glob without
 * any of these names a file or a folder, and a folder covers everything under it. Node 20 has
 * no stable glob matcher (`path.matchesGlob` is Node 22), and a dependency for twenty lines
 * would not earn its place.
 */

/** Longest glob accepted, in characters: a glob is a folder pattern, not a file list. */
export const MAX_GLOB_CHARS = 300;

export type GlobMatcher = (path: string) => boolean;

/** Why a glob is unusable, or null when it is fine. */
export function globProblem(glob: string): string | null {
  if (glob.length === 0) return 'is empty';
  if (glob.length > MAX_GLOB_CHARS) return `is longer than ${MAX_GLOB_CHARS} characters`;
  if (glob.startsWith('/')) return 'is absolute: globs are relative to the ingest root (e.g. "src/store/**")';
  if (glob.split('/').some((s) => s === '..' || s === '.')) return 'has a "." or ".." segment: globs are plain root-relative paths';
  if (glob.includes('\\')) return 'has a backslash: use "/" between folders';
  return null;
}

export function compileGlob(glob: string): GlobMatcher {
  const trimmed = glob.replace(/\/+$/, '');
  if (!/[*?]/.test(trimmed)) {
    const prefix = `${trimmed}/`;
    return (path) => path === trimmed || path.startsWith(prefix);
  }
  // The common room glob, `folder/**`, is a prefix test: no regular expression per path.
  if (trimmed.endsWith('/**') && !/[*?]/.test(trimmed.slice(0, -3))) {
    const prefix = trimmed.slice(0, -2);
    return (path) => path.startsWith(prefix);
  }
  const re = new RegExp(`^${globSource(trimmed)}$`);
  return (path) => re.test(path);
}

function globSource(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slashAfter = glob[i + 2] === '/';
      // `**/` matches zero or more whole folders; a trailing `**` matches anything below.
      out += slashAfter ? '(?:.*/)?' : '.*';
      i += slashAfter ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return out;
}
