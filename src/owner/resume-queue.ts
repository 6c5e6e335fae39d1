/**
 * The owner's resume: when it starts watching an armed brain (at start, after the listeners
 * are up; or later, when the brain is armed) the brain gets one tick at once. The tick finishes
 * what a killed owner left (a saved backlog, a tick lease left set: taken over, vigil-state.ts)
 * and its detection catches the edits made while nothing watched, instead of waiting for the
 * next file event or the safety-net tick (SAFETY_NET_TICK_MS), while recall verbs, which never
 * tick, would answer from a half-updated map.
 *
 * One brain at a time: a home with many armed brains resumes them in turn, brains with saved
 * work first, so the pool and the disk are never asked for every brain at once. Each tick is
 * the vigil's usual single-flight tick (a session's traffic on that brain joins it as the one
 * follow-up), and nothing here is awaited by a listener or a call.
 */

/** Runs one brain's resume tick; resolves when it ends. Never rejects (a vigil is fail-open). */
export type ResumeTick = () => Promise<void>;

export class ResumeQueue {
  /** Brains with saved work (a backlog, a stale lease), then the others; each in arrival order. */
  readonly #urgent = new Map<string, ResumeTick>();
  readonly #later = new Map<string, ResumeTick>();
  #running: Promise<void> | null = null;
  #closed = false;
  readonly #onError: (id: string, err: Error) => void;

  constructor(onError: (id: string, err: Error) => void) {
    this.#onError = onError;
  }

  /** Queues one resume tick for a brain (once: a brain already waiting keeps its place). */
  add(id: string, urgent: boolean, tick: ResumeTick): void {
    if (this.#closed || this.#urgent.has(id) || this.#later.has(id)) return;
    (urgent ? this.#urgent : this.#later).set(id, tick);
    this.#next();
  }

  /** Forgets a brain that is waiting (it is no longer watched). A running tick goes on. */
  drop(id: string): void {
    this.#urgent.delete(id);
    this.#later.delete(id);
  }

  /** How many brains still wait for their resume tick (the running one not counted). */
  get waiting(): number {
    return this.#urgent.size + this.#later.size;
  }

  /** Resolves when no resume tick is running or waiting. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  /** Drops what waits and joins the running tick (the vigils stop it between batches). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#urgent.clear();
    this.#later.clear();
    await this.idle();
  }

  #next(): void {
    if (this.#running || this.#closed) return;
    const lane = this.#urgent.size > 0 ? this.#urgent : this.#later;
    const first = lane.entries().next();
    if (first.done) return;
    const [id, tick] = first.value;
    lane.delete(id);
    this.#running = (async () => {
      try {
        await tick();
      } catch (err) {
        this.#onError(id, err as Error);
      }
    })().then(() => {
      // Cleared and the next one started in the same callback: an add() can never slip between.
      this.#running = null;
      this.#next();
    });
  }
}
