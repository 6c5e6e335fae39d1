/**
 * Finding, creating and opening brains: the registry, the home folder and the shared pool,
 * behind one object a process keeps for its lifetime.
 */
import { BrainNotFoundError, InvalidArgumentError } from '../errors.js';
import { WorkerPool, type WorkerPoolOptions } from '../pool/index.js';
import { Brain } from './brain.js';
import { checkFolder } from './folders.js';
import { brainFile, resolveHome } from './home.js';
import { Registry } from './registry.js';

export interface BrainsOptions extends WorkerPoolOptions {
  /** The home folder. @default resolveHome() */
  home?: string;
  /**
   * Most brains kept open (writer worker + read connection each); the least recently used is
   * closed past it. A closed brain reopens on its next resolve. @default Infinity
   */
  maxOpen?: number;
  /** Called when a brain is opened (the owner's armed-brain registry listens). */
  onOpen?: (brain: Brain) => void;
  /** Called before an evicted brain is closed; awaited (the owner joins its vigil here). */
  onEvict?: (brain: Brain) => Promise<void>;
  /** Quiet before an open brain's writer thread ends, in ms. @default WRITER_IDLE_MS */
  writerIdleMs?: number;
  /** Told when an open brain's idle writer thread has ended. */
  onWriterParked?: (brain: Brain) => void;
}

export class Brains {
  readonly home: string;
  readonly pool: WorkerPool;
  readonly maxOpen: number;
  /** Open brains, least recently used first (a Map keeps insertion order). */
  #open = new Map<string, Brain>();
  #evicting = new Set<Promise<void>>();
  #onOpen: (brain: Brain) => void;
  #onEvict: (brain: Brain) => Promise<void>;
  #writerIdleMs: number | undefined;
  #onWriterParked: (brain: Brain) => void;

  constructor(options: BrainsOptions = {}) {
    const max = options.maxOpen ?? Infinity;
    if (max !== Infinity && (!Number.isInteger(max) || max < 1)) {
      throw new InvalidArgumentError(`options.maxOpen must be a positive integer, got ${String(max)} (${typeof max})`);
    }
    this.maxOpen = max;
    this.home = options.home ?? resolveHome();
    this.pool = new WorkerPool(options);
    this.#onOpen = options.onOpen ?? (() => {});
    this.#onEvict = options.onEvict ?? (async () => {});
    this.#writerIdleMs = options.writerIdleMs;
    this.#onWriterParked = options.onWriterParked ?? (() => {});
  }

  /** The open brains, least recently used first. */
  openBrains(): Brain[] {
    return [...this.#open.values()];
  }

  registry(): Registry {
    return new Registry(this.home);
  }

  /** The brain covering `folder` (checked: exists, readable), or BrainNotFoundError. */
  resolve(folder: string): Brain {
    const real = checkFolder(folder);
    const hit = this.registry().resolve(real);
    if (!hit) throw new BrainNotFoundError(real, this.home);
    return this.open(hit.brain.id, hit.brain.roots);
  }

  /** The brain covering `folder`, creating and registering one rooted there if none does. */
  async ensure(folder: string, now: number = Date.now()): Promise<{ brain: Brain; created: boolean; root: string }> {
    const real = checkFolder(folder);
    const registry = this.registry();
    const hit = registry.resolve(real);
    if (hit) return { brain: this.open(hit.brain.id, hit.brain.roots), created: false, root: hit.root };
    const entry = registry.add(real, now);
    const brain = this.open(entry.id, entry.roots);
    await brain.create();
    await brain.writer.ensureRoot(real, now);
    return { brain, created: true, root: real };
  }

  open(id: string, roots: readonly string[]): Brain {
    let brain = this.#open.get(id);
    if (brain) {
      // Most recently used goes last.
      this.#open.delete(id);
      this.#open.set(id, brain);
      return brain;
    }
    const opened: Brain = new Brain(id, brainFile(this.home, id), roots, this.pool, { writerIdleMs: this.#writerIdleMs, onWriterParked: () => this.#onWriterParked(opened) });
    brain = opened;
    this.#open.set(id, brain);
    while (this.#open.size > this.maxOpen) void this.#evict(this.#open.values().next().value!).catch(() => {});
    this.#onOpen(brain);
    return brain;
  }

  /**
   * Closes one open brain as eviction does (its sessions re-resolve, onEvict runs, the writer
   * and reader close) and resolves once it is closed; nothing when it is not open. For a brain
   * being removed: unregister it first, so nothing opens it again.
   */
  async closeOne(id: string): Promise<void> {
    const brain = this.#open.get(id);
    if (brain) await this.#evict(brain);
  }

  #evict(brain: Brain): Promise<void> {
    this.#open.delete(brain.id);
    brain.retire();
    const closing = (async () => {
      try {
        await this.#onEvict(brain);
      } finally {
        await brain.close();
      }
    })();
    this.#evicting.add(closing);
    void closing.catch(() => {}).finally(() => this.#evicting.delete(closing));
    return closing;
  }

  /** Every brain in the registry, opened. */
  all(): Brain[] {
    return this.registry().list().map((b) => this.open(b.id, b.roots));
  }

  async close(): Promise<void> {
    const brains = [...this.#open.values()];
    this.#open.clear();
    await Promise.allSettled([...this.#evicting]);
    await Promise.all(brains.map((b) => b.close()));
    await this.pool.close();
  }
}
