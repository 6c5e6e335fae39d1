/**
 * The owner's registry of armed brains: which open brains are subscribed.
 *
 * An open brain whose store says it is armed is subscribed; when the LRU evicts the brain it is
 * unsubscribed. The opt-in lives in the brain's own store, so an evicted armed brain is
 * subscribed again on the next resolve that reopens it. Emits 'subscribed' and 'unsubscribed'
 * with the brain.
 */
import { EventEmitter } from 'node:events';
import type { Brain } from '../brain/index.js';

export class ArmedBrains extends EventEmitter {
  #armed = new Map<string, Brain>();

  /** Subscribes an armed brain (idempotent). */
  subscribe(brain: Brain): void {
    if (this.#armed.get(brain.id) === brain) return;
    this.#armed.set(brain.id, brain);
    this.emit('subscribed', brain);
  }

  /** Unsubscribes a brain (idempotent; a reopened brain of the same id stays subscribed). */
  unsubscribe(brain: Brain): void {
    if (this.#armed.get(brain.id) !== brain) return;
    this.#armed.delete(brain.id);
    this.emit('unsubscribed', brain);
  }

  has(id: string): boolean {
    return this.#armed.has(id);
  }

  ids(): string[] {
    return [...this.#armed.keys()];
  }

  close(): void {
    for (const brain of [...this.#armed.values()]) this.unsubscribe(brain);
  }
}
