/**
 * One Vigil per brain for the whole process, so every session and transport that touches a
 * brain shares its single-flight tick, and beside it the brain's skeleton reconciler: armed
 * from the persisted deadline when the vigil is made (a restart inside the quiet window still
 * reconciles), re-armed after every tick that changed the map.
 */
import type { Brain } from '../brain/brain.js';
import { Reconciler } from '../skeleton/index.js';
import { Vigil, type VigilOptions } from './vigil.js';

export class Vigils {
  #options: VigilOptions;
  #byBrain = new Map<string, Vigil>();
  #reconcilers = new Map<string, Reconciler>();

  constructor(options: VigilOptions = {}) {
    this.#options = options;
  }

  get(brain: Brain): Vigil {
    let v = this.#byBrain.get(brain.id);
    if (!v) {
      v = new Vigil(brain, this.#options);
      this.#byBrain.set(brain.id, v);
      if (this.#options.reconcile !== false) {
        const r = new Reconciler(brain.id, brain.writer, { log: this.#options.log, now: this.#options.now, ...this.#options.reconcile });
        this.#reconcilers.set(brain.id, r);
        v.on('tick', (outcome: { ok: boolean; report?: { drained: number } }) => {
          if (outcome.ok && (outcome.report?.drained ?? 0) > 0) void r.schedule();
        });
        void r.schedule();
      }
    }
    return v;
  }

  /** The brain's reconciler, when this process runs one (after `get`). */
  reconciler(brainId: string): Reconciler | undefined {
    return this.#reconcilers.get(brainId);
  }

  async close(): Promise<void> {
    await Promise.all([...this.#byBrain.values()].map((v) => v.close()));
    await Promise.all([...this.#reconcilers.values()].map((r) => r.close()));
  }
}
