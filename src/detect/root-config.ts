/**
 * `.gardener/config.json`: a root's Gardener settings, committed with the code so a whole team
 * (and CI) reads the root the same way. One key today:
 *
 * - `notesDir`: the team notes folder (notes-dir.ts), `.gardener/notes` when unset.
 *
 * Read by the detect worker at each detection, with a stat-keyed cache (one stat per detection
 * when the file did not change). A file that is not valid (not JSON, a bad `notesDir`) is a
 * problem the writer raises as an alert naming the file, and the root keeps the notes folder
 * it last read from a valid file: a typo must neither stop the map nor turn the team's notes
 * into code. An unknown key is a problem too, and the known keys still apply.
 */
import { closeSync, fstatSync, lstatSync, openSync, constants } from 'node:fs';
import { joinFsPath } from '../paths/path-bytes.js';
import { DEFAULT_NOTES_DIR } from './notes-dir.js';
import { readUpTo } from './read-up-to.js';
import { SKIP_DIR_NAMES } from './skip-dirs.js';

/** The file, root-relative. It lies in `.gardener`, which never enters the map itself. */
export const ROOT_CONFIG_FILE = '.gardener/config.json';
/** Largest config read, in bytes: settings, not data. */
export const MAX_ROOT_CONFIG_BYTES = 64 * 1024;
/** Longest notes folder a config may name, in characters. */
export const MAX_NOTES_DIR_LENGTH = 200;

const KNOWN_KEYS = ['notesDir'];
/** A folder name a notes folder may have: letters, digits, `.`, `_` and `-` (no glob, no space). */
const SEGMENT = /^[A-Za-z0-9._-]+$/;

export interface RootConfig {
  /** The notes folder; null when the file is not valid (the caller keeps the one it had). */
  notesDir: string | null;
  /** What is wrong with the file, for an alert (without the file's name); null when nothing. */
  problem: string | null;
}

const DEFAULTS: RootConfig = { notesDir: DEFAULT_NOTES_DIR, problem: null };

/**
 * Checks a notes folder as a config names it. Returns it root-relative, '/'-separated, without
 * a trailing '/'; throws an Error saying what is wrong and what to write instead.
 */
export function checkNotesDir(value: unknown): string {
  if (typeof value !== 'string') throw new Error(`notesDir must be a string (a folder in the root, e.g. "docs/notes"), not ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
  const dir = value.endsWith('/') ? value.slice(0, -1) : value;
  if (dir === '' || dir === '.') throw new Error('notesDir names the root itself; name a folder in it, e.g. "docs/notes"');
  if (dir.length > MAX_NOTES_DIR_LENGTH) throw new Error(`notesDir is ${dir.length} characters; at most ${MAX_NOTES_DIR_LENGTH}`);
  if (dir.startsWith('/') || /^[A-Za-z]:/.test(dir)) throw new Error(`notesDir "${value}" is absolute; name a folder relative to the root, e.g. "docs/notes"`);
  for (const segment of dir.split('/')) {
    if (segment === '..') throw new Error(`notesDir "${value}" is outside the root; name a folder in it`);
    if (segment === '' || segment === '.') throw new Error(`notesDir "${value}" has an empty or "." folder name; write it as "a/b"`);
    if (!SEGMENT.test(segment)) throw new Error(`notesDir "${value}": the folder name "${segment}" may hold only letters, digits, ".", "_" and "-"`);
    if (SKIP_DIR_NAMES.has(segment) && segment !== '.gardener') {
      throw new Error(`notesDir "${value}" is inside ${segment}, a folder the map never reads; pick a folder the repository commits`);
    }
  }
  return dir;
}

/** The settings a config file's text holds. */
export function parseRootConfig(text: string): RootConfig {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { notesDir: null, problem: `not valid JSON (${(err as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { notesDir: null, problem: 'must be a JSON object, e.g. {"notesDir": "docs/notes"}' };
  const settings = value as Record<string, unknown>;
  let notesDir = DEFAULT_NOTES_DIR;
  if (settings.notesDir !== undefined) {
    try {
      notesDir = checkNotesDir(settings.notesDir);
    } catch (err) {
      return { notesDir: null, problem: (err as Error).message };
    }
  }
  const unknown = Object.keys(settings).filter((k) => !KNOWN_KEYS.includes(k));
  const problem = unknown.length === 0 ? null : `unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => JSON.stringify(k)).join(', ')} (known: ${KNOWN_KEYS.join(', ')}); ignored`;
  return { notesDir, problem };
}

/** Per root, the settings as last read, keyed by the file's identity. */
const CACHED = new Map<string, { key: string; config: RootConfig }>();

/** The settings of `<root>/.gardener/config.json` (the defaults when there is none). */
export function rootConfigOf(root: string): RootConfig {
  const file = joinFsPath(root, ROOT_CONFIG_FILE);
  let key: string;
  try {
    const st = lstatSync(file);
    if (!st.isFile()) return { notesDir: null, problem: 'is not a regular file (a symlink or a folder is not read)' };
    key = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch (err) {
    CACHED.delete(root);
    if (['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) return DEFAULTS;
    return { notesDir: null, problem: `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
  const hit = CACHED.get(root);
  if (hit?.key === key) return hit.config;
  let config: RootConfig;
  try {
    const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const size = fstatSync(fd).size;
      config = size > MAX_ROOT_CONFIG_BYTES
        ? { notesDir: null, problem: `is ${size} bytes, more than the ${MAX_ROOT_CONFIG_BYTES} a config may have` }
        : parseRootConfig(readUpTo(fd, size).toString('utf8'));
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    return { notesDir: null, problem: `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
  CACHED.set(root, { key, config });
  return config;
}

/**
 * The notes folder a detection applies: the config's, or `last` (the one the map last read
 * notes from) while the config is not valid; with the config's problem, if any.
 */
export function notesDirFor(root: string, last: string | undefined): { notesDir: string; configProblem: string | null } {
  const config = rootConfigOf(root);
  return { notesDir: config.notesDir ?? last ?? DEFAULT_NOTES_DIR, configProblem: config.problem };
}
