/**
 * The vigil of one brain: runs ticks fail-open and one at a time.
 *
 * Fail-open: a tick that throws is logged, recorded as a `tick_failed` alert and swallowed;
 * whoever asked still gets an answer (an outcome with ok: false), never a rejection. When the
 * store cannot take the alert (read-only, full), it is kept and recorded once the store can.
 * Single flight: at most one tick runs per brain in this process; a request that arrives
 * while one runs schedules exactly one follow-up (however many arrive), so traffic during a
 * tick is seen by the next one and never piles up.
 */
import { EventEmitter } from 'node:events';
import type { Brain } from '../brain/brain.js';
import { runTick, type TickOptions, type TickReport } from './tick.js';
import type { ReconcilerOptions } from '../skeleton/index.js';
import { AbortedError, TickFailedError } from '../errors.js';

export type TickOutcome =
  | { ok: true; report: TickReport }
  | { ok: false; error: { code: string; message: string }; alertId: number | null };

export interface VigilOptions {
  /** The tick to run; injectable so tests can make it throw. @default runTick */
  tick?: (brain: Brain, options: TickOptions) => Promise<TickReport>;
  /** Options for every tick this vigil runs. */
  tickOptions?: TickOptions;
  /** Where failures are logged. @default a line on stderr */
  log?: (line: string) => void;
  now?: () => number;
  /** The skeleton's auto-reconciler, run beside each brain's vigil by Vigils; false turns it off. @default {} */
  reconcile?: ReconcilerOptions | false;
}

export class Vigil extends EventEmitter {
  readonly brain: Brain;
  #tick: NonNullable<VigilOptions['tick']>;
  #tickOptions: TickOptions;
  #log: (line: string) => void;
  #now: () => number;
  #running: Promise<TickOutcome> | null = null;
  #followUp: Promise<TickOutcome> | null = null;
  #abort = new AbortController();
  /** A tick_failed alert the store could not take when it happened. */
  #unrecorded: { alert: { code: string; message: string }; at: number; repeats: number } | null = null;

  constructor(brain: Brain, options: VigilOptions = {}) {
    super();
    this.brain = brain;
    this.#tick = options.tick ?? runTick;
    this.#tickOptions = options.tickOptions ?? {};
    this.#log = options.log ?? ((line) => process.stderr.write(`gardener: ${line}\n`));
    this.#now = options.now ?? Date.now;
  }

  get busy(): boolean {
    return this.#running !== null;
  }

  /** Asks for a tick: starts one, or schedules the single follow-up. Never rejects. */
  request(options: TickOptions = {}): Promise<TickOutcome> {
    if (this.#abort.signal.aborted) {
      return Promise.resolve({ ok: false, error: { code: AbortedError.code, message: 'the vigil is closed' }, alertId: null });
    }
    if (!this.#running) return this.#start(options);
    this.#followUp ??= this.#running.then(() => {
      this.#followUp = null;
      return this.#start(options);
    });
    return this.#followUp;
  }

  /**
   * Runs a tick with these options (a heavy verb's own tick: inventory, progress, a caller's
   * signal), after any tick already running or scheduled; still one at a time. Never rejects.
   */
  async run(options: TickOptions = {}): Promise<TickOutcome> {
    while (this.#running || this.#followUp) {
      await (this.#followUp ?? this.#running);
      if (options.signal?.aborted) return { ok: false, error: { code: AbortedError.code, message: 'the tick was cancelled' }, alertId: null };
    }
    if (this.#abort.signal.aborted) return this.request(options);
    return this.#start(options);
  }

  /** Resolves when no tick is running or scheduled. */
  async idle(): Promise<void> {
    while (this.#running || this.#followUp) await (this.#followUp ?? this.#running);
  }

  /** Stops between batches (nothing is lost: the backlog keeps the rest) and joins the tick. */
  async close(): Promise<void> {
    this.#abort.abort(new Error('the vigil is closing'));
    await this.idle();
  }

  /** Records the alert a failed tick could not write (the first of a run of failures). */
  async #recordLate(): Promise<void> {
    const late = this.#unrecorded;
    if (!late) return;
    const more = late.repeats > 0 ? ` (${late.repeats} more failed tick${late.repeats === 1 ? '' : 's'} until the store could take this alert)` : '';
    await this.brain.writer.recordAlert({ ...late.alert, message: late.alert.message + more }, late.at);
    this.#unrecorded = null;
  }

  #start(options: TickOptions): Promise<TickOutcome> {
    const signal = options.signal ? AbortSignal.any([options.signal, this.#abort.signal]) : this.#abort.signal;
    const run = this.#runFailOpen({ ...this.#tickOptions, ...options, signal });
    this.#running = run;
    void run.then((outcome) => {
      if (this.#running === run) this.#running = null;
      this.emit('tick', outcome);
      if (!this.#running && !this.#followUp) this.emit('idle');
    });
    return run;
  }

  async #runFailOpen(options: TickOptions): Promise<TickOutcome> {
    try {
      const report = await this.#tick(this.brain, options);
      await this.#recordLate().catch((err: Error) => this.#log(`could not record the earlier alert yet: ${err.message}`));
      return { ok: true, report };
    } catch (err) {
      if (options.signal?.aborted) {
        // A cancelled tick is not a failure: nothing was lost, and there is nothing to alert.
        return { ok: false, error: { code: AbortedError.code, message: 'the tick was cancelled' }, alertId: null };
      }
      const error = {
        code: (err as { code?: string }).code ?? TickFailedError.code,
        message: err instanceof Error ? err.message : String(err),
      };
      this.#log(`tick of brain ${this.brain.id} failed: ${error.message}`);
      let alertId: number | null = null;
      const alert = { code: 'tick_failed', message: `${error.code}: ${error.message}` };
      const at = this.#now();
      try {
        await this.#recordLate();
        alertId = await this.brain.writer.recordAlert(alert, at);
      } catch (alertErr) {
        // A store that cannot be written (read-only, full) cannot take the alert either: keep
        // it, and record it with its own time once the store can.
        this.#log(`could not record the alert (kept until the store can take it): ${(alertErr as Error).message}`);
        if (this.#unrecorded) this.#unrecorded.repeats++;
        else this.#unrecorded = { alert, at, repeats: 0 };
      }
      return { ok: false, error, alertId };
    }
  }
}
