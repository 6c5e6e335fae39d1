/**
 * Finding, creating and opening brains: the registry, the home folder and the shared pool,
 * behind one object a process keeps for its lifetime.
 */
import { BrainNotFoundError } from '../errors.js';
import { WorkerPool, type WorkerPoolOptions } from '../pool/index.js';
import { Brain } from './brain.js';
import { checkFolder } from './folders.js';
import { brainFile, resolveHome } from './home.js';
import { Registry } from './registry.js';

export interface BrainsOptions extends WorkerPoolOptions {
  /** The home folder. @default resolveHome() */
  home?: string;
}

export class Brains {
  readonly home: string;
  readonly pool: WorkerPool;
  #open = new Map<string, Brain>();

  constructor(options: BrainsOptions = {}) {
    this.home = options.home ?? resolveHome();
    this.pool = new WorkerPool(options);
  }

  registry(): Registry {
    return new Registry(this.home);
  }

  /** The brain covering `folder` (checked: exists, readable), or BrainNotFoundError. */
  resolve(folder: string): Brain {
    const real = checkFolder(folder);
    const hit = this.registry().resolve(real);
    if (!hit) throw new BrainNotFoundError(real);
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
    if (!brain) {
      brain = new Brain(id, brainFile(this.home, id), roots, this.pool);
      this.#open.set(id, brain);
    }
    return brain;
  }

  /** Every brain in the registry, opened. */
  all(): Brain[] {
    return this.registry().list().map((b) => this.open(b.id, b.roots));
  }

  async close(): Promise<void> {
    const brains = [...this.#open.values()];
    this.#open.clear();
    await Promise.all(brains.map((b) => b.close()));
    await this.pool.close();
  }
}
