/**
 * Reading and editing a host's JSON config file without losing anything of the user's: the
 * file is parsed strictly (a file with comments or a syntax error is refused, never rewritten),
 * one key is set or removed, the previous file is kept beside it as `<file>.gardener-backup`,
 * and the new one is written beside and renamed over (a crash leaves the old or the new file,
 * never half of one), with the old file's mode.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { HostConfigError } from '../errors.js';

export const BACKUP_SUFFIX = '.gardener-backup';

type Json = Record<string, unknown>;

/** The parsed file, `{}` when it does not exist; HostConfigError when it is not plain JSON. */
export function readJsonConfig(file: string): Json {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new HostConfigError(file, (err as Error).message, { cause: err });
  }
  const text = bytes.toString('utf8');
  if (text.trim() === '') return {};
  // The user's own file, not a peer's message: plain JSON.parse (wire/untrusted-json is for peers).
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new HostConfigError(file, `not plain JSON (${(err as Error).message}; comments are not supported)`, { cause: err });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new HostConfigError(file, 'not a JSON object');
  return value as Json;
}

/** The value at `path`, or undefined. */
export function getAt(doc: unknown, path: readonly string[]): unknown {
  let node = doc;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

/** Sets `path` to `value` in the file (creating objects on the way); true when the file changed. */
export function setJsonAt(file: string, path: readonly string[], value: unknown): boolean {
  const doc = readJsonConfig(file);
  if (JSON.stringify(getAt(doc, path)) === JSON.stringify(value)) return false;
  let node: Json = doc;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (next === undefined) node = node[key] = {};
    else if (next !== null && typeof next === 'object' && !Array.isArray(next)) node = next as Json;
    else throw new HostConfigError(file, `"${path.join('.')}" cannot be set: "${key}" is not an object`);
  }
  node[path[path.length - 1]!] = value;
  writeJsonConfig(file, doc);
  return true;
}

/**
 * Removes `path` from the file; true when it was there. Objects left empty on the way up are
 * removed too (install made them); nothing else is touched.
 */
export function removeJsonAt(file: string, path: readonly string[]): boolean {
  if (!existsSync(file)) return false;
  const doc = readJsonConfig(file);
  const parent = getAt(doc, path.slice(0, -1));
  const key = path[path.length - 1]!;
  if (parent === null || typeof parent !== 'object' || Array.isArray(parent) || !(key in parent)) return false;
  delete (parent as Json)[key];
  for (let depth = path.length - 1; depth > 0; depth--) {
    const node = getAt(doc, path.slice(0, depth)) as Json;
    if (Object.keys(node).length > 0) break;
    delete (getAt(doc, path.slice(0, depth - 1)) as Json)[path[depth - 1]!];
  }
  writeJsonConfig(file, doc);
  return true;
}

/** Removes the file when it holds only empty objects; true when it did. */
export function dropJsonIfEmpty(file: string): boolean {
  if (!existsSync(file)) return false;
  const empty = (v: unknown): boolean => v !== null && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every(empty);
  if (!empty(readJsonConfig(file))) return false;
  rmSync(file);
  return true;
}

function writeJsonConfig(file: string, doc: Json): void {
  mkdirSync(dirname(file), { recursive: true });
  let mode = 0o644;
  if (existsSync(file)) {
    mode = statSync(file).mode & 0o777;
    copyFileSync(file, file + BACKUP_SUFFIX);
  }
  const tmp = `${file}.gardener-${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(doc, null, 2) + '\n', { mode });
  renameSync(tmp, file);
}
