/**
 * The noise policy: folders whose contents never enter the code map, whatever .gitignore says.
 *
 * Both detectors apply it: the stat walk never descends into these folders, and the git
 * backend drops any path that has one of them as a folder anywhere in the path (git lists
 * an un-ignored node_modules in full). Only folder components count: a file that happens to
 * be called `target` or `coverage` is still a file. `dist` and `vendor` are deliberately
 * absent: a repository may commit its build output, and Go's vendor folder is source.
 */
import { DEFAULT_NOTES_DIR, isOnNotesPath } from './notes-dir.js';

/** Tool caches, dependency installs and VCS metadata: generated, huge, never worth a symbol. */
export const SKIP_DIR_NAMES: ReadonlySet<string> = new Set([
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  'bower_components',
  '__pycache__',
  '.venv',
  'venv',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  'target',
  '.gradle',
  '.idea',
  '.next',
  '.nuxt',
  '.cache',
  'coverage',
  '.turbo',
  '.parcel-cache',
  '.gardener',
]);

/** True when a folder with this name is never descended into. */
export function isSkippedDirName(name: string): boolean {
  return SKIP_DIR_NAMES.has(name);
}

/**
 * Normalises the request's extra skip prefixes: './a/b/' becomes 'a/b'; empty ones and '.'
 * are dropped (they would skip the whole root, which is never what a caller means).
 */
export function normalizeSkipPrefixes(prefixes: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of prefixes) {
    let p = raw;
    while (p.startsWith('./')) p = p.slice(2);
    while (p.endsWith('/')) p = p.slice(0, -1);
    if (p !== '' && p !== '.') out.push(p);
  }
  return out;
}

/** True when `relPath` equals one of the (normalised) prefixes or lies under one. */
function isUnderPrefix(relPath: string, prefixes: readonly string[]): boolean {
  for (const p of prefixes) {
    if (relPath === p || (relPath.length > p.length && relPath.startsWith(p) && relPath[p.length] === '/')) {
      return true;
    }
  }
  return false;
}

/**
 * True when a root-relative path must not enter the map: a folder component is a noise
 * folder, or the path lies under one of `extraPrefixes` (folder prefixes, see
 * normalizeSkipPrefixes). The way to the root's notes folder and the note files in it pass
 * the noise policy (notes-dir.ts), not the extra prefixes. Paths are '/'-separated.
 */
export function isSkippedPath(relPath: string, extraPrefixes: readonly string[] = [], notesDir: string = DEFAULT_NOTES_DIR): boolean {
  if (isOnNotesPath(relPath, notesDir)) return extraPrefixes.length > 0 && isUnderPrefix(relPath, normalizeSkipPrefixes(extraPrefixes));
  let start = 0;
  for (;;) {
    const slash = relPath.indexOf('/', start);
    if (slash === -1) break;
    if (SKIP_DIR_NAMES.has(relPath.slice(start, slash))) return true;
    start = slash + 1;
  }
  return extraPrefixes.length > 0 && isUnderPrefix(relPath, normalizeSkipPrefixes(extraPrefixes));
}

/** A predicate for many paths, normalising the prefixes once. */
export function makeSkipFilter(extraPrefixes: readonly string[], notesDir: string = DEFAULT_NOTES_DIR): (relPath: string) => boolean {
  const prefixes = normalizeSkipPrefixes(extraPrefixes);
  return (relPath) => isSkippedPath(relPath, [], notesDir) || isUnderPrefix(relPath, prefixes);
}
