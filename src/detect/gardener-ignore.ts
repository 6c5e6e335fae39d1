/**
 * `.gardenerignore`: a file at an ingest root, in gitignore syntax (like `.cursorignore` and
 * `.aiderignore`), whose paths never enter the map. The matching is the `ignore` package's
 * (the gitignore matcher ESLint and others use), case-insensitive as that package defaults
 * to: a rule meant to keep something out should not miss it for a capital letter.
 *
 * Both detectors apply it, so an ignored path never reaches the backlog, and the hash+extract
 * worker applies it again before it reads a file, so a path that became ignored after it was
 * queued (or one an inventory queued for leaving) leaves the map instead of being re-read.
 * Each detection reports the rules' fingerprint; when it differs from the one the map last
 * saw, detection lists every file (an inventory), so newly ignored paths leave the map and
 * newly un-ignored ones enter it on the next tick.
 *
 * A `.gardenerignore` that exists but cannot be read fails detection (GDN_IGNORE_UNREADABLE):
 * going on without the user's rules would index what they asked to keep out.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import ignore from 'ignore';
import { GardenerIgnoreUnreadableError } from '../errors.js';
import { joinFsPath } from '../paths/path-bytes.js';
import { readUpTo } from './read-up-to.js';

/** The file's name, at the top of an ingest root. */
export const GARDENER_IGNORE_FILE = '.gardenerignore';
/** Largest `.gardenerignore` read, in bytes: a rule file, not a data file. */
export const MAX_GARDENER_IGNORE_BYTES = 1024 * 1024;

export interface GardenerIgnore {
  /** sha256 of the file's bytes; null when there is no file (no rules). */
  fingerprint: string | null;
  /** True when this root-relative file path is kept out of the map. */
  ignores(relPath: string): boolean;
  /** True when this root-relative folder, and so everything under it, is kept out. */
  ignoresDir(relPath: string): boolean;
}

const NO_RULES: GardenerIgnore = { fingerprint: null, ignores: () => false, ignoresDir: () => false };

function compile(bytes: Buffer): GardenerIgnore {
  const matcher = ignore().add(bytes.toString('utf8'));
  const test = (p: string) => ignore.isPathValid(p) && matcher.ignores(p);
  return {
    fingerprint: createHash('sha256').update(bytes).digest('hex'),
    ignores: test,
    ignoresDir: (p) => test(`${p}/`),
  };
}

const isAbsent = (err: unknown) => ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '');

function checkSize(file: string, size: number): void {
  if (size > MAX_GARDENER_IGNORE_BYTES) throw new GardenerIgnoreUnreadableError(file, `it is ${size} bytes, more than the ${MAX_GARDENER_IGNORE_BYTES} a rule file may have`);
}

/** The rules of `<root>/.gardenerignore` (no rules when there is none). For the detect worker. */
export async function loadGardenerIgnore(root: string): Promise<GardenerIgnore> {
  const file = joinFsPath(root, GARDENER_IGNORE_FILE);
  let bytes: Buffer;
  try {
    checkSize(String(file), (await stat(file)).size);
    bytes = await readFile(file);
  } catch (err) {
    if (isAbsent(err)) return NO_RULES;
    if (err instanceof GardenerIgnoreUnreadableError) throw err;
    throw new GardenerIgnoreUnreadableError(String(file), (err as NodeJS.ErrnoException).code ?? (err as Error).message, { cause: err });
  }
  return compile(bytes);
}

/** Per root, the rules as last read, keyed by the file's identity, so a batch pays one stat. */
const CACHED = new Map<string, { key: string; rules: GardenerIgnore }>();

/**
 * The same rules, read synchronously with a stat-keyed cache: for the hash+extract worker,
 * which checks every batch item against them before reading the file.
 */
export function gardenerIgnoreOf(root: string): GardenerIgnore {
  const file = joinFsPath(root, GARDENER_IGNORE_FILE);
  let fd: number;
  try {
    const st = statSync(file);
    const key = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    const hit = CACHED.get(root);
    if (hit && hit.key === key) return hit.rules;
    checkSize(String(file), st.size);
    fd = openSync(file, 'r');
    try {
      const size = fstatSync(fd).size;
      checkSize(String(file), size);
      const rules = compile(readUpTo(fd, size));
      CACHED.set(root, { key, rules });
      return rules;
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if (isAbsent(err)) {
      CACHED.delete(root);
      return NO_RULES;
    }
    if (err instanceof GardenerIgnoreUnreadableError) throw err;
    throw new GardenerIgnoreUnreadableError(String(file), (err as NodeJS.ErrnoException).code ?? (err as Error).message, { cause: err });
  }
}
