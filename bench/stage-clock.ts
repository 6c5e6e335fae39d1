/**
 * Where a tick's time goes, without changing the tick: `runTick` is handed a view of the brain
 * whose pool and store writer time every call that crosses to another thread. The tick awaits
 * its writer calls one after another, so `commitMs` is time the drain spent waiting on the
 * store writer; `hashWorkMs` is the pool's own work (summed over threads, which run in
 * parallel with each other and with the writer), and `gitMs` is detection's wait on git.
 */
import type { Brain } from '../src/brain/index.js';
import type { DetectResult, HashExtractDelivered, HashExtractOutput } from '../workers/types.js';

export interface StageTimes {
  /** Wall time detection waited on git processes, in ms (reported by the detect worker). */
  gitMs: number;
  /** Round trips of the store writer's commitResults calls (transactions included), in ms. */
  commitMs: number;
  /** Of `commitMs`, the transactions' own time inside the store writer thread, in ms. */
  commitWorkMs: number;
  /**
   * Round trips of every other store writer call the tick awaits (lease, roots, push, peek,
   * count), in ms. Staging a finished batch (stageFrom, stageResults) is left out: it overlaps
   * the hashing, and the drain waits on it only before a commit, for the group's last batch.
   */
  writerOtherMs: number;
  /** Time the pool threads spent reading, hashing and extracting, summed over batches, in ms. */
  hashWorkMs: number;
}

const zero = (): StageTimes => ({ gitMs: 0, commitMs: 0, commitWorkMs: 0, writerOtherMs: 0, hashWorkMs: 0 });

export class StageClock {
  readonly brain: Brain;
  #times = zero();

  constructor(brain: Brain) {
    const times = () => this.#times;
    const timed = <R>(fn: () => Promise<R>, add: (ms: number, value: R) => void): Promise<R> => {
      const t0 = performance.now();
      return fn().then((value) => {
        add(performance.now() - t0, value);
        return value;
      });
    };
    const pool = new Proxy(brain.pool, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (prop === 'detect') {
          return (...args: Parameters<typeof target.detect>) =>
            timed(() => target.detect(...args), (_ms, r: DetectResult) => void (times().gitMs += r.gitMs));
        }
        if (prop === 'hashExtract') {
          return (...args: Parameters<typeof target.hashExtract>) =>
            timed(() => target.hashExtract(...args), (_ms, r: HashExtractOutput) => void (times().hashWorkMs += r.workMs));
        }
        if (prop === 'hashExtractTo') {
          return (...args: Parameters<typeof target.hashExtractTo>) =>
            timed(() => target.hashExtractTo(...args), (_ms, r: HashExtractDelivered) => void (times().hashWorkMs += r.workMs));
        }
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    // Read through the real brain (its #private fields need the real `this`), hand out timed views.
    this.brain = new Proxy(brain, {
      get(target, prop) {
        if (prop === 'pool') return pool;
        if (prop === 'writer') {
          const api = target.writer;
          return new Proxy(api, {
            get(w, name) {
              const fn = Reflect.get(w, name) as (...a: unknown[]) => Promise<unknown>;
              return (...args: unknown[]) =>
                timed(() => fn(...args), (ms, value) => {
                  if (name === 'commitResults') {
                    times().commitMs += ms;
                    times().commitWorkMs += (value as { writeMs?: number }).writeMs ?? 0;
                  } else if (name !== 'stageResults' && name !== 'stageFrom') times().writerOtherMs += ms;
                });
            },
          });
        }
        const value = Reflect.get(target, prop);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  /** The times since the last take, and a fresh start. */
  take(): StageTimes {
    const t = this.#times;
    this.#times = zero();
    return t;
  }
}
