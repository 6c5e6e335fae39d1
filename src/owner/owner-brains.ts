/**
 * What the owner shares between every session and transport: one Brains (an LRU of open
 * brains over one Piscina pool, one store writer per open brain), one Vigils (so the traffic
 * rules — one tick at a time, one follow-up, fail-open — hold across all sessions of a brain),
 * one FolderProbe, and the armed-brain registry. It is the SessionHost the owner hands its
 * transports (transports/session-host.ts): sessions are built here, the same way for the
 * socket, HTTP MCP and REST.
 */
import { isAbsolute } from 'node:path';
import { Brains, bytesFreed, checkFolder, planRemoval, removeBrainFolders, unregisterBrains, type Brain, type RemovalChoice } from '../brain/index.js';
import { BrainNotGoneError, InvalidArgumentError } from '../errors.js';
import { FolderProbe } from '../probe/index.js';
import { Session } from '../session/index.js';
import { readVigil, countBacklog } from '../store/index.js';
import { TOOLS } from '../tools/index.js';
import { Vigils, type VigilOptions } from '../vigil/index.js';
import { ArmedBrains } from './armed-brains.js';
import type { Logger } from '../log.js';
import type { SessionHost, SessionParts } from '../transports/session-host.js';
import { OwnerWatchers, type OwnerWatchersOptions } from './owner-watchers.js';

/** Brains kept open by default: each costs a writer thread and a read connection. */
export const DEFAULT_MAX_BRAINS = 16;

export interface OwnerBrainsOptions {
  home: string;
  /** @default DEFAULT_MAX_BRAINS */
  maxBrains?: number;
  /** Pool threads shared by every brain. @default DEFAULT_POOL_THREADS */
  maxThreads?: number;
  /** Quiet before an open brain's writer thread ends, in ms. @default WRITER_IDLE_MS */
  writerIdleMs?: number;
  vigil?: VigilOptions;
  /** The live watchers' options (tests inject a backend and shorter windows). */
  watch?: Partial<Omit<OwnerWatchersOptions, 'home' | 'brains' | 'vigils' | 'log'>>;
  log: Logger;
}

export class OwnerBrains implements SessionHost {
  readonly brains: Brains;
  readonly vigils: Vigils;
  readonly probe: FolderProbe;
  readonly armed: ArmedBrains;
  readonly watchers: OwnerWatchers;
  #sessions = new Set<Session>();
  #log: Logger;
  /** Removals run one at a time (the CLI and the page may ask at once). */
  #removing: Promise<unknown> = Promise.resolve();

  constructor(options: OwnerBrainsOptions) {
    this.#log = options.log;
    this.armed = new ArmedBrains();
    this.vigils = new Vigils({ log: (line) => this.#log.warn(line), ...options.vigil });
    this.brains = new Brains({
      home: options.home,
      maxOpen: options.maxBrains ?? DEFAULT_MAX_BRAINS,
      maxThreads: options.maxThreads,
      writerIdleMs: options.writerIdleMs,
      onWriterParked: (brain) => this.#log.debug('writer parked', { brain: brain.id }),
      onOpen: (brain) => this.#opened(brain),
      onEvict: async (brain) => {
        this.#log.info('brain evicted', { brain: brain.id });
        this.armed.unsubscribe(brain);
        await this.vigils.retire(brain);
      },
    });
    this.watchers = new OwnerWatchers({ ...options.watch, home: options.home, brains: this.brains, vigils: this.vigils, log: options.log });
    this.probe = new FolderProbe({
      resolveBrain: async (folder) => {
        const hit = this.brains.registry().resolve(folder);
        if (!hit) return null;
        const brain = this.brains.open(hit.brain.id, hit.brain.roots);
        return { brainId: brain.id, armed: readVigil(brain.reader).armed };
      },
    });
  }

  /** A new session for `folder`, sharing everything above; its `close` is `closeSession`'s. */
  openSession(folder: string, onToolsChanged: () => void = () => {}): SessionParts {
    // The owner's working directory means nothing to a client: a folder must be absolute.
    if (!isAbsolute(folder)) throw new InvalidArgumentError(`the session folder must be an absolute path, got "${folder}"`);
    const watch = {
      backendOf: (id: string) => this.watchers.backendOf(id),
      armedChanged: async (brain: Brain, armed: boolean) => {
        if (armed) this.armed.subscribe(brain);
        else this.armed.unsubscribe(brain);
        await this.watchers.armedChanged(brain, armed);
      },
    };
    const session = new Session({ folder: checkFolder(folder), brains: this.brains, vigils: this.vigils, probe: this.probe, tools: TOOLS, onToolsChanged, watch, log: (line) => this.#log.warn(line) });
    this.#sessions.add(session);
    return { session, close: () => this.closeSession(session) };
  }

  async closeSession(session: Session): Promise<void> {
    this.#sessions.delete(session);
    await session.close();
  }

  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** The open brains, most recently used first, for `GET /api/brains` and `--status`. */
  describe(): { id: string; roots: readonly string[]; armed: boolean; backlog: number | null; last_tick_at: string | null; ticking: boolean; watch_backend: string; sessions: number }[] {
    return this.brains
      .openBrains()
      .reverse()
      .map((brain) => {
        let armed = false;
        let backlog: number | null = null;
        let lastTick: number | null = null;
        try {
          const v = readVigil(brain.reader);
          armed = v.armed;
          lastTick = v.lastTickAt;
          backlog = countBacklog(brain.reader);
        } catch {
          // A brain whose store is not made yet: nothing to report.
        }
        return {
          id: brain.id,
          roots: brain.roots,
          armed,
          backlog,
          last_tick_at: lastTick === null ? null : new Date(lastTick).toISOString(),
          ticking: this.vigils.peek(brain.id)?.busy ?? false,
          watch_backend: this.watchers.backendOf(brain.id),
          sessions: [...this.#sessions].filter((s) => s.peekBrain() === brain).length,
        };
      });
  }

  /**
   * Removes brains from the home while serving (`gardener brains --prune/--remove` through the
   * socket, the page's button for a gone brain): each is unregistered first, so no session,
   * watcher or page read finds it again; then its watcher stops, its vigil and reconciler are
   * retired (a tick in flight ends between batches) and its writer and reader close; then its
   * folder goes. `goneOnly` refuses a brain whose folders are still there (the page).
   */
  removeBrains(choice: RemovalChoice, { goneOnly = false }: { goneOnly?: boolean } = {}): Promise<{ removed: string[]; orphans: string[]; freed_bytes: number }> {
    const run = this.#removing.then(async () => {
      const home = this.brains.home;
      const plan = planRemoval(home, choice);
      if (goneOnly) for (const id of plan.removed) if (!plan.gone.has(id)) throw new BrainNotGoneError(id, plan.roots.get(id) ?? '');
      const removed = unregisterBrains(home, plan.removed);
      for (const id of removed) {
        this.probe.forgetBrain(id);
        await this.watchers.unwatch(id);
        await this.brains.closeOne(id);
        this.#log.info('brain removed', { brain: id, roots: plan.roots.get(id) });
      }
      const orphans = removeBrainFolders(home, removed, plan.orphans);
      return { removed, orphans, freed_bytes: bytesFreed(plan, { removed, orphans }) };
    });
    this.#removing = run.catch(() => {});
    return run;
  }

  /** Ends every session, then stops ticks between batches and joins workers. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#sessions].map((s) => this.closeSession(s)));
    await this.probe.close();
    await this.watchers.close();
    this.armed.close();
    await this.vigils.close();
    await this.brains.close();
  }

  #opened(brain: Brain): void {
    try {
      if (readVigil(brain.reader).armed) this.armed.subscribe(brain);
    } catch {
      // A brain being created has no store yet; it is not armed.
    }
  }
}
