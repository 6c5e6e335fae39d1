/**
 * One Vigil per brain for the whole process, so every session and transport that touches a
 * brain shares its single-flight tick.
 */
import type { Brain } from '../brain/brain.js';
import { Vigil, type VigilOptions } from './vigil.js';

export class Vigils {
  #options: VigilOptions;
  #byBrain = new Map<string, Vigil>();

  constructor(options: VigilOptions = {}) {
    this.#options = options;
  }

  get(brain: Brain): Vigil {
    let v = this.#byBrain.get(brain.id);
    if (!v || v.brain !== brain) {
      v = new Vigil(brain, this.#options);
      this.#byBrain.set(brain.id, v);
    }
    return v;
  }

  /** The vigil of an open brain, if one was made. */
  peek(brainId: string): Vigil | undefined {
    return this.#byBrain.get(brainId);
  }

  /** Stops and forgets the vigil of a brain that is being closed (the backlog keeps the rest). */
  async retire(brain: Brain): Promise<void> {
    const v = this.#byBrain.get(brain.id);
    if (!v || v.brain !== brain) return;
    this.#byBrain.delete(brain.id);
    await v.close();
  }

  async close(): Promise<void> {
    await Promise.all([...this.#byBrain.values()].map((v) => v.close()));
  }
}
