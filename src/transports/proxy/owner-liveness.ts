/**
 * Is the owner still there? The proxy's answer while requests wait on it.
 *
 * An owner that exits closes its socket, and the proxy falls back at once. An owner that is
 * stopped (SIGSTOP, a debugger) or stuck keeps the socket open and says nothing: without a
 * bound the host's call waits forever. So, while anything waits on the owner:
 *
 *   - every PING_AFTER (a quarter of the bound) of silence from the owner, the proxy sends it
 *     an MCP `ping` with a proxy-private id (its answer is swallowed, never sent to the host);
 *   - anything the owner sends (a ping's answer, progress, an answer) is a sign of life;
 *   - no sign of life for `livenessMs` (PROXY_LIVENESS_MS, 10 s) → `onStalled`: the proxy
 *     leaves the owner and serves in-process, as when the owner dies.
 *
 * The owner's SDK server answers a ping while tools run on the same session (a tool's git and
 * hashing run in workers), so a long `scan` is never taken for a stall. With nothing waiting,
 * there is no timer and no ping: an idle session costs nothing. Timers are injectable (tests
 * drive a manual clock) and real ones are unref'd.
 *
 * This file is loaded by the `gardener mcp` proxy: it imports src/timers.ts only.
 */
import { realTimers, type Timers } from '../../timers.js';

/** Silence from an owner with requests waiting after which the proxy leaves it, in ms. */
export const PROXY_LIVENESS_MS = 10_000;
/** Sets the liveness bound in ms (tests shorten it; the default is PROXY_LIVENESS_MS). */
export const PROXY_LIVENESS_ENV = 'GARDENER_PROXY_LIVENESS_MS';

/** The clock and timers the check runs on (src/timers.ts, which imports nothing). */
export type ProxyTimers = Timers;


export interface OwnerLivenessOptions {
  /** Silence (with requests waiting) after which the owner is taken for stalled, in ms. @default PROXY_LIVENESS_MS */
  livenessMs?: number;
  timers?: ProxyTimers;
  /** Writes one line (a ping request) to the owner. */
  sendToOwner: (line: string) => void;
  /** Called once, when the owner gave no sign of life for `livenessMs` with requests waiting. */
  onStalled: (silentMs: number) => void;
}

export class OwnerLiveness {
  readonly livenessMs: number;
  readonly pingAfterMs: number;
  #timers: ProxyTimers;
  #options: OwnerLivenessOptions;
  /** When silence began: the last sign of life, or the moment something started waiting. */
  #quietSince = 0;
  #lastPingAt = 0;
  #waiting = false;
  #timer: unknown = null;
  /** The proxy's own ping ids start with this (a nonce: no host picks it by chance). */
  #pingPrefix = `gardener-proxy-ping-${process.pid}-${Math.random().toString(36).slice(2, 10)}-`;
  #nextPing = 1;
  #stopped = false;

  constructor(options: OwnerLivenessOptions) {
    const ms = options.livenessMs ?? PROXY_LIVENESS_MS;
    if (!Number.isInteger(ms) || ms < 4) throw new RangeError(`options.livenessMs must be an integer of at least 4 (ms), got ${String(ms)} (${typeof ms})`);
    this.livenessMs = ms;
    this.pingAfterMs = Math.floor(ms / 4);
    this.#timers = options.timers ?? realTimers;
    this.#options = options;
  }

  /** Something arrived from the owner. */
  heard(): void {
    this.#quietSince = this.#timers.now();
  }

  /** Whether anything now waits on the owner (requests sent and not answered). */
  setWaiting(waiting: boolean): void {
    if (this.#stopped || waiting === this.#waiting) return;
    this.#waiting = waiting;
    if (waiting) {
      this.#quietSince = this.#lastPingAt = this.#timers.now();
      this.#arm(this.pingAfterMs);
    } else this.#disarm();
  }

  /** True for the id of a ping this proxy sent: its answer is swallowed, even a late one. */
  isPingId(id: unknown): boolean {
    return typeof id === 'string' && id.startsWith(this.#pingPrefix);
  }

  stop(): void {
    this.#stopped = true;
    this.#disarm();
  }

  #arm(ms: number): void {
    this.#disarm();
    this.#timer = this.#timers.setTimeout(() => this.#check(), Math.max(1, ms));
  }

  #disarm(): void {
    if (this.#timer !== null) this.#timers.clearTimeout(this.#timer);
    this.#timer = null;
  }

  #check(): void {
    this.#timer = null;
    if (this.#stopped || !this.#waiting) return;
    const now = this.#timers.now();
    const silent = now - this.#quietSince;
    if (silent >= this.livenessMs) {
      this.stop();
      return this.#options.onStalled(silent);
    }
    if (silent >= this.pingAfterMs && now - this.#lastPingAt >= this.pingAfterMs) {
      const id = `${this.#pingPrefix}${this.#nextPing++}`;
      this.#lastPingAt = now;
      this.#options.sendToOwner(JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }) + '\n');
    }
    const nextPing = Math.max(this.#quietSince, this.#lastPingAt) + this.pingAfterMs;
    this.#arm(Math.min(nextPing, this.#quietSince + this.livenessMs) - now);
  }
}
