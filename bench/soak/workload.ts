/**
 * The working day, one round after another until the time is up. A round:
 *
 *   1. sessions come: 1 to 4, each over a transport drawn in turn (stdio proxy, socket,
 *      Streamable HTTP, REST) on a brain drawn at random;
 *   2. a burst on one brain (1, 10, 100 or 1000 files; 1000 only on the big one; dealt from a deck,
 *      burst-sizes.ts), sometimes with a git move or a file crossing the per-file bound, and its token;
 *   3. while the burst is picked up, the sessions query (seek, refs, impact, delegate, notes)
 *      and the token is looked up with seek until it is found;
 *   4. sessions go: one in three rounds one of them is killed in the middle of a call;
 *   5. every THROWAWAY_EVERY rounds, a folder that comes and goes (throwaway-brains.ts): made,
 *      ingested, deleted, and its brain pruned through the owner;
 *   6. once the brains settle (backlog 0, no tick running), a quiet sample;
 *   7. a pause of THINK_MS_MIN to THINK_MS_MAX, as between one change and the next.
 *
 * A REST seek prober runs beside all of it on the big brain (one every PROBE_EVERY_MS), the
 * same calls as the idle measurement before the soak, so their p99s compare; it runs on a thread
 * of its own (seek-prober.ts), since this one stalls in the bursts' writes and git runs.
 */
import { Rng, seedOf } from '../fixtures/source-files.js';
import type { OwnerProcess } from './owner-process.js';
import type { Sampler } from './sampler.js';
import { openSession, pollSocketsAfterBlocking, restCall, TRANSPORTS, type SoakSession, type Transport } from './sessions.js';
import type { Tree, TreeKind } from './trees.js';
import { SeekProber } from './seek-prober.js';
import { throwawayBrain } from './throwaway-brains.js';
import { BurstSizes } from './burst-sizes.js';
import { dirname, join } from 'node:path';

/** The burst window's cap (src/watch: BURST_COALESCE_CAP_MS): a token's window starts with it. */
export const BURST_WINDOW_MS = 5_000;
/** A token not found after this long is lost (the soak then goes on). */
export const TOKEN_LOST_MS = 120_000;
const TOKEN_POLL_MS = 100;
export const PROBE_EVERY_MS = 500;
const SETTLE_POLL_MS = 250;
const SETTLE_BOUND_MS = 180_000;
/** The pause between rounds: a day is bursts with time between them, not one long burst. */
export const THINK_MS_MIN = 3_000;
export const THINK_MS_MAX = 12_000;
/** A throwaway folder's brain made and pruned every this many rounds (the last of each run of them). */
export const THROWAWAY_EVERY = 8;

/** Queries drawn for seek: words the generators use, in every language. */
export const SEEK_WORDS = ['invoice', 'ledger total', 'retry queue', 'session cache', 'parse order', 'flush buffer', 'tenant policy', 'resolve route', 'publish event', 'shard cursor'];
const REF_NAMES = ['total', 'items', 'rate', 'load', 'save', 'Store', 'cache', 'apply'];

/** The moves a brain's visits cycle over (Workload's #special): none, a file growing past the per-file bound or shrinking back, a branch switch, renames, a rebase, a `git gc`. */
export const MOVES = 6;

export interface TokenRecord {
  round: number;
  brain: string;
  token: string;
  burst: number;
  ops: string[];
  /** ms from the token's write to the seek that found it; null if lost. */
  foundMs: number | null;
  /** ms from the write to the end of the tick that took it in (the second watcher tick after the write, which covers a tick already running), null when none was logged. */
  tickDoneMs: number | null;
  /** Found no later than the burst window plus its tick (and one poll). */
  inWindow: boolean;
  /** When the burst was written, epoch ms (beside the probes' times, what a slow one ran into). */
  at: number;
}

export interface CallStat {
  transport: Transport;
  tool: string;
  ok: boolean;
  ms: number;
  /** When the call started, epoch ms. */
  at: number;
  error?: string;
}

export interface WorkloadResult {
  rounds: number;
  tokens: TokenRecord[];
  probeSeekMs: number[];
  /** When each probe started, epoch ms (one for each of probeSeekMs). */
  probeSeekAt: number[];
  calls: CallStat[];
  sessionsOpened: Record<Transport, number>;
  killedMidCall: Record<Transport, number>;
  failures: string[];
  /** Throwaway folders: tried, whose brain was made, whose brain the owner then removed. */
  throwaways: { tried: number; made: number; removed: number };
}

export interface Brain {
  id: string;
  tree: Tree;
}

export class Workload {
  readonly result: WorkloadResult = {
    rounds: 0,
    tokens: [],
    probeSeekMs: [],
    probeSeekAt: [],
    calls: [],
    sessionsOpened: { stdio: 0, socket: 0, http: 0, rest: 0 },
    killedMidCall: { stdio: 0, socket: 0, http: 0, rest: 0 },
    failures: [],
    throwaways: { tried: 0, made: 0, removed: 0 },
  };
  open = new Set<SoakSession>();
  #rng: Rng;
  #transport = 0;
  #seekProber: SeekProber | undefined;
  #sizes: BurstSizes;

  constructor(
    private owner: OwnerProcess,
    private home: string,
    private env: NodeJS.ProcessEnv,
    private brains: Brain[],
    private sampler: Sampler,
    seed: number,
    private log: (line: string) => void,
  ) {
    this.#rng = new Rng(seedOf(seed, 'workload'));
    this.#sizes = new BurstSizes(new Rng(seedOf(seed, 'burst sizes')), MOVES);
  }

  /** `count` REST seeks on the big brain, back to back: the idle p99's calls (timed on the prober's thread). */
  async idleSeeks(count: number, warmup = 20): Promise<number[]> {
    return this.#prober().idle(count, warmup);
  }

  startProbe(): void {
    this.#prober().start();
  }

  async stopProbe(): Promise<void> {
    const { ms, at, failures } = await this.#prober().stop();
    this.result.probeSeekMs.push(...ms);
    this.result.probeSeekAt.push(...at);
    for (const f of failures) this.#fail(f);
  }

  #prober(): SeekProber {
    this.#seekProber ??= new SeekProber({ url: this.owner.url, token: this.owner.token, folder: this.brains[0]!.tree.dir, words: SEEK_WORDS, everyMs: PROBE_EVERY_MS });
    return this.#seekProber;
  }

  #fail(why: string): void {
    if (this.result.failures.length < 200) this.result.failures.push(why);
    this.log(`soak: ${why}`);
  }

  async #call(s: SoakSession, tool: string, args: Record<string, unknown>): Promise<void> {
    const at = Date.now();
    const r = await s.call(tool, args);
    const stat: CallStat = { transport: s.transport, tool, ok: r.ok, ms: Math.round(r.ms * 10) / 10, at };
    if (!r.ok) {
      stat.error = r.text.slice(0, 200);
      this.#fail(`${tool} over ${s.transport} failed: ${stat.error}`);
    }
    this.result.calls.push(stat);
  }

  /** One query of the day's mix on a session. */
  async #query(s: SoakSession, round: number): Promise<void> {
    const rng = this.#rng;
    const roll = rng.next();
    if (roll < 0.35) return this.#call(s, 'seek', { query: rng.pick(SEEK_WORDS) });
    if (roll < 0.55) return this.#call(s, 'refs', { name: rng.pick(REF_NAMES) });
    if (roll < 0.7) {
      const tree = this.brains.find((b) => b.tree.dir === s.folder)!.tree;
      return this.#call(s, 'impact', { path: rng.pick(tree.files).path });
    }
    if (roll < 0.8) return this.#call(s, 'delegate', { task: `add a retry to how the ${rng.pick(SEEK_WORDS)} is saved` });
    if (roll < 0.9) return this.#call(s, 'remember', { text: `soak round ${round}: the ${rng.pick(SEEK_WORDS)} path retries twice`, tags: ['soak'] });
    return this.#call(s, 'seek', { query: 'retries', scope: 'notes' });
  }

  async #openSessions(count: number): Promise<SoakSession[]> {
    const out: SoakSession[] = [];
    for (let i = 0; i < count; i++) {
      const transport = TRANSPORTS[this.#transport++ % TRANSPORTS.length]!;
      const brain = this.#rng.pick(this.brains);
      try {
        const s = await openSession(transport, this.owner, this.home, brain.tree.dir, this.env);
        this.open.add(s);
        this.result.sessionsOpened[transport]++;
        out.push(s);
      } catch (err) {
        this.#fail(`opening a ${transport} session failed: ${(err as Error).message}`);
      }
    }
    return out;
  }

  /** Waits until the owner's brains have no backlog and no tick running (bounded). */
  async settle(): Promise<boolean> {
    const until = performance.now() + SETTLE_BOUND_MS;
    while (performance.now() < until) {
      try {
        const s = await this.owner.status();
        if (s.brains.every((b) => (b.backlog ?? 0) === 0 && !b.ticking)) return true;
      } catch {
        // The next look answers.
      }
      await new Promise((r) => setTimeout(r, SETTLE_POLL_MS));
    }
    return false;
  }

  /** The day's other moves, in turn on the git brains (and renames/bounds on any). */
  #special(brain: Brain, round: number, visit: number): string[] {
    const tree = brain.tree;
    // Its moves cycle over the brain's own visits.
    const pick = visit % MOVES;
    if (pick === 1) return [tree.growOrShrink()];
    if (pick === 3) return [tree.renames(20)];
    if (!tree.git) return [];
    if (pick === 2) return [tree.branchSwitch(round, 50)];
    if (pick === 4) return [tree.rebase(round, 40)];
    if (pick === 5) return [tree.gc()];
    return [];
  }

  async round(round: number): Promise<void> {
    const rng = this.#rng;
    const sessions = await this.#openSessions(rng.int(1, 4));
    const brain = this.brains[round % this.brains.length]!;
    // Each brain comes every third round: this is its `visit`-th.
    const visit = Math.floor(round / this.brains.length);
    const size = this.#sizes.next(brain.tree.kind, visit);
    let ops: string[] = [];
    try {
      ops = this.#special(brain, round, visit);
    } catch (err) {
      this.#fail(`a git move failed on ${brain.tree.kind}: ${(err as Error).message.slice(0, 300)}`);
    }
    const ticksBefore = this.owner.ticks.get(brain.id)?.length ?? 0;
    const writing = Date.now();
    const token = brain.tree.burst(size, round);
    const wrote = performance.now();
    await pollSocketsAfterBlocking();
    const querying = (async () => {
      for (let i = 0; i < 3; i++) await Promise.all(sessions.map((s) => this.#query(s, round)));
    })();
    const foundMs = await this.#lookUp(brain, token, wrote);
    await querying;
    const ticks = this.owner.ticks.get(brain.id) ?? [];
    const after = ticks.slice(ticksBefore).filter((t) => t >= wrote);
    const tickDone = after[1] ?? after[0];
    const tickDoneMs = tickDone === undefined ? null : tickDone - wrote;
    const inWindow = foundMs !== null && (foundMs <= BURST_WINDOW_MS || (tickDoneMs !== null && foundMs <= tickDoneMs + 2 * TOKEN_POLL_MS + 1000));
    this.result.tokens.push({ round, brain: brain.tree.kind, token, burst: size, ops, foundMs, tickDoneMs, inWindow, at: writing });
    if (foundMs === null) this.#fail(`token ${token} (round ${round}, ${brain.tree.kind}, burst ${size}) not found within ${TOKEN_LOST_MS} ms`);
    else if (!inWindow) this.#fail(`token ${token} found after ${foundMs.toFixed(0)} ms, past the burst window and its tick (${tickDoneMs?.toFixed(0) ?? 'no tick logged'})`);

    const kill = round % 3 === 2 && sessions.length > 0;
    for (const [i, s] of sessions.entries()) {
      this.open.delete(s);
      try {
        if (kill && i === 0) {
          this.result.killedMidCall[s.transport]++;
          await s.killMidCall('delegate', { task: `where is the ${rng.pick(SEEK_WORDS)} retried` });
        } else await s.close();
      } catch (err) {
        this.#fail(`closing a ${s.transport} session failed: ${(err as Error).message}`);
      }
    }
    if (round % THROWAWAY_EVERY === THROWAWAY_EVERY - 1) await this.#throwaway(round);
    if (!(await this.settle())) this.#fail(`round ${round}: the brains did not settle within ${SETTLE_BOUND_MS} ms`);
    else await this.sampler.take(true);
    this.result.rounds++;
    await new Promise((r) => setTimeout(r, rng.int(THINK_MS_MIN, THINK_MS_MAX)));
  }

  async #throwaway(round: number): Promise<void> {
    const t = this.result.throwaways;
    t.tried++;
    const dir = join(dirname(this.home), 'throwaway', `wt-${round}`);
    const out = await throwawayBrain(this.owner, this.home, this.env, dir, new Set(this.brains.map((b) => b.id)), round);
    if (out.made) t.made++;
    if (out.removed) t.removed++;
    if (out.why) this.#fail(`round ${round}: ${out.why}`);
  }

  /** Seek on the token until found, from a REST call of its own; ms from the write, or null. */
  async #lookUp(brain: Brain, token: string, wrote: number): Promise<number | null> {
    while (performance.now() - wrote < TOKEN_LOST_MS) {
      const r = await restCall(this.owner, brain.tree.dir, 'seek', { query: token, scope: 'code', limit: 5 });
      if (r.ok && r.text.includes(token)) return performance.now() - wrote;
      await new Promise((res) => setTimeout(res, TOKEN_POLL_MS));
    }
    return null;
  }

  async closeAll(): Promise<void> {
    for (const s of this.open) await s.close().catch(() => {});
    this.open.clear();
  }
}
