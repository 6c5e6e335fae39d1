/**
 * The registry: which brain covers which folder. A small JSON file in the home folder,
 * replaced atomically (write, fsync, rename) so a crash leaves the old or the new version,
 * never half of one. A folder resolves to the brain whose ingest root is that folder or its
 * nearest ancestor.
 */
import { mkdirSync, openSync, readFileSync, renameSync, writeSync, fsyncSync, closeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, join, sep } from 'node:path';
import { StoreCorruptError } from '../errors.js';

export interface BrainEntry {
  id: string;
  roots: string[];
  createdAt: number;
}

interface RegistryFile {
  version: 1;
  brains: BrainEntry[];
}

export class Registry {
  readonly file: string;
  #data: RegistryFile;

  constructor(home: string) {
    this.file = join(home, 'registry.json');
    this.#data = load(this.file);
  }

  list(): readonly BrainEntry[] {
    return this.#data.brains;
  }

  get(id: string): BrainEntry | undefined {
    return this.#data.brains.find((b) => b.id === id);
  }

  /** The brain whose root is `folder` or its nearest ancestor, with that root. */
  resolve(folder: string): { brain: BrainEntry; root: string } | undefined {
    let best: { brain: BrainEntry; root: string } | undefined;
    for (const brain of this.#data.brains) {
      for (const root of brain.roots) {
        if ((folder === root || folder.startsWith(root.endsWith(sep) ? root : root + sep)) && (!best || root.length > best.root.length)) {
          best = { brain, root };
        }
      }
    }
    return best;
  }

  /** Registers a new brain for `root` and saves; returns it. */
  add(root: string, now: number): BrainEntry {
    const entry: BrainEntry = { id: brainIdFor(root), roots: [root], createdAt: now };
    this.#data = load(this.file); // another process may have written meanwhile
    this.#data.brains = this.#data.brains.filter((b) => b.id !== entry.id).concat(entry);
    this.#save();
    return entry;
  }

  /** Unregisters the brains with these ids and saves; returns the entries it removed. */
  remove(ids: readonly string[]): BrainEntry[] {
    const drop = new Set(ids);
    this.#data = load(this.file); // another process may have written meanwhile
    const removed = this.#data.brains.filter((b) => drop.has(b.id));
    if (removed.length === 0) return [];
    this.#data.brains = this.#data.brains.filter((b) => !drop.has(b.id));
    this.#save();
    return removed;
  }

  #save(): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, JSON.stringify(this.#data, null, 2) + '\n');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.file);
  }
}

/** A readable, stable id: the folder's name plus a short hash of its full path. */
export function brainIdFor(root: string): string {
  const slug = basename(root).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'root';
  return `${slug}-${createHash('sha256').update(root).digest('hex').slice(0, 8)}`;
}

function load(file: string): RegistryFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
      return { version: 1, brains: [] };
    }
    throw err;
  }
  try {
    const data = JSON.parse(text) as RegistryFile;
    if (data.version !== 1 || !Array.isArray(data.brains)) throw new Error('unknown registry version');
    return data;
  } catch (err) {
    throw new StoreCorruptError(file, (err as Error).message, { cause: err });
  }
}
