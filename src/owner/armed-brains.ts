/**
 * The owner's registry of armed brains: the seam the live watcher (a later issue) plugs into.
 *
 * An open brain whose store says it is armed is subscribed, and whatever per-brain background
 * work the owner runs for it is started (`BrainWork`); when the LRU evicts the brain it is
 * unsubscribed and that work is stopped and joined. The opt-in lives in the brain's own store,
 * so an evicted armed brain is subscribed again on the next resolve that reopens it.
 */
import { EventEmitter } from 'node:events';
import type { Brain } from '../brain/index.js';

/** Per-brain background work the owner starts for an armed brain; returns how to stop it. */
export type BrainWork = (brain: Brain) => (() => Promise<void>) | void;

export class ArmedBrains extends EventEmitter {
  #armed = new Map<string, { brain: Brain; stop?: () => Promise<void> }>();
  #work: BrainWork;

  constructor(work: BrainWork = () => {}) {
    super();
    this.#work = work;
  }

  /** Subscribes an armed brain (idempotent) and starts its background work. */
  subscribe(brain: Brain): void {
    const had = this.#armed.get(brain.id);
    if (had?.brain === brain) return;
    this.#armed.set(brain.id, { brain, stop: this.#work(brain) ?? undefined });
    this.emit('subscribed', brain);
  }

  /** Unsubscribes a brain and joins its background work. */
  async unsubscribe(brain: Brain): Promise<void> {
    const had = this.#armed.get(brain.id);
    if (!had || had.brain !== brain) return;
    this.#armed.delete(brain.id);
    this.emit('unsubscribed', brain);
    await had.stop?.();
  }

  has(id: string): boolean {
    return this.#armed.has(id);
  }

  ids(): string[] {
    return [...this.#armed.keys()];
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.#armed.values()].map((a) => this.unsubscribe(a.brain)));
  }
}
