/**
 * One agent session: its folder, the brain it is anchored to, the tools it lists, and the
 * background question about its folder.
 *
 * Building a session costs nothing: no store is opened, no git runs, no worker starts. The
 * folder probe is asked when the transport says the handshake is done (`start()`), in the
 * background. Tools that only make sense for a watched folder are appended at the tail of the
 * list when the probe says so, and `onToolsChanged` fires (MCP: notifications/tools/list_changed).
 * Tools never leave the list: a folder unwatched later keeps them and they answer with a refusal.
 */
import { resolve } from 'node:path';
import { BrainNotFoundError, InvalidArgumentError } from '../errors.js';
import type { Brain, Brains } from '../brain/index.js';
import type { FolderProbe, ProbeAnswer } from '../probe/index.js';
import { readVigil } from '../store/index.js';
import type { Vigils } from '../vigil/index.js';
import type { ToolDef } from '../dispatch/index.js';
import { confinePath } from '../paths/confine-path.js';

/** How long the first tools/list waits for a probe that is already running. */
export const FIRST_LIST_WAIT_MS = 200;

export interface SessionOptions {
  /** The session folder: where the host launched us (`--root`, else the working directory). */
  folder: string;
  brains: Brains;
  vigils: Vigils;
  probe: FolderProbe;
  /** Every tool this server knows, in list order; late ones are held back until armed. */
  tools: readonly ToolDef[];
  /** Called when the tool list grew. */
  onToolsChanged?: () => void;
  /** @default FIRST_LIST_WAIT_MS */
  firstListWaitMs?: number;
  /** Where background failures are logged. @default stderr */
  log?: (line: string) => void;
  /** The live watchers of this process's armed brains (the owner's); none in-process. */
  watch?: SessionWatch;
}

/** What a session may ask of the process's live watchers. */
export interface SessionWatch {
  /** `native`, `poll(5s)` while a watcher of this live process holds the brain; `none` otherwise. */
  backendOf(brainId: string): string;
  /** A tool armed or disarmed a brain: watch it, or stop (resolves once that holds). */
  armedChanged(brain: Brain, armed: boolean): Promise<void>;
}

/** An in-process session: nothing watches its brains, and nothing claims to. */
const NO_WATCH: SessionWatch = Object.freeze({ backendOf: () => 'none', armedChanged: async () => {} });

export class Session {
  readonly folder: string;
  readonly brains: Brains;
  readonly vigils: Vigils;
  readonly probe: FolderProbe;
  readonly toolsByName: ReadonlyMap<string, ToolDef>;
  readonly watch: SessionWatch;
  #tools: readonly ToolDef[];
  #armed = new Set<string>();
  #listed: ToolDef[];
  #anchor: string;
  #firstListDone = false;
  #firstListWaitMs: number;
  #onToolsChanged: () => void;
  #log: (line: string) => void;
  #closing = new AbortController();
  /** The brain found for the anchor: every tool call asks, and the answer rarely changes. */
  #resolved: Brain | undefined;
  #background = new Set<Promise<unknown>>();
  /** The question about the session folder, once asked. */
  #ready: Promise<void> | undefined;

  constructor(options: SessionOptions) {
    this.folder = resolve(options.folder);
    this.#anchor = this.folder;
    this.brains = options.brains;
    this.vigils = options.vigils;
    this.probe = options.probe;
    this.#tools = options.tools;
    this.toolsByName = new Map(options.tools.map((t) => [t.name, t]));
    this.#listed = options.tools.filter((t) => !t.late);
    this.#firstListWaitMs = options.firstListWaitMs ?? FIRST_LIST_WAIT_MS;
    this.#onToolsChanged = options.onToolsChanged ?? (() => {});
    this.#log = options.log ?? ((line) => process.stderr.write(`gardener: ${line}\n`));
    this.watch = options.watch ?? NO_WATCH;
  }

  /** The folder the session works in now (the session folder, or the last `ingest`). */
  get anchor(): string {
    return this.#anchor;
  }

  /** Starts the background question about the session folder (once). Returns at once. */
  start(): void {
    void this.ready();
  }

  /**
   * Resolves once the question about the session folder has been answered (the late verbs it
   * arms are listed) or has failed; never rejects. Starts the question if the handshake has
   * not (`start`): the one wait of a transport with no handshake of its own (REST), before
   * its first call. MCP transports never wait on it: their first list has its own bound.
   */
  ready(): Promise<void> {
    return (this.#ready ??= this.#ask(this.folder));
  }

  /** Asks the probe about a folder in the background and arms the late verbs when it answers. */
  askAbout(folder: string): void {
    void this.#ask(folder);
  }

  #ask(folder: string): Promise<void> {
    if (this.#closing.signal.aborted) return Promise.resolve();
    const question = this.probe.ask(folder, this.#closing.signal).then(
      (answer) => this.#arm(answer),
      (err) => {
        if (!this.#closing.signal.aborted) this.#log(`folder probe of ${folder} failed: ${(err as Error).message}`);
      },
    );
    this.#background.add(question);
    void question.finally(() => this.#background.delete(question));
    return question;
  }

  /**
   * The tools to list. The first call (and only the first) waits up to FIRST_LIST_WAIT_MS for
   * a question about the session folder that is already running; past that it goes without.
   */
  async listTools(): Promise<readonly ToolDef[]> {
    if (!this.#firstListDone) {
      this.#firstListDone = true;
      const running = this.probe.running(this.folder);
      if (running) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          running.then((a) => this.#arm(a), () => {}),
          new Promise<void>((r) => (timer = setTimeout(r, this.#firstListWaitMs))),
        ]);
        clearTimeout(timer);
      }
    }
    return this.#listed;
  }

  /** Whether a late tool has been armed (listed) in this session. */
  isListed(name: string): boolean {
    return this.#listed.some((t) => t.name === name);
  }

  /** Anchors the session to a folder (after `ingest`) and asks the probe about it. */
  anchorTo(folder: string): void {
    this.#anchor = folder;
    this.#resolved = undefined;
    // The folder may have just become watched: an earlier answer about it is stale.
    this.probe.forget(folder);
    this.askAbout(folder);
  }

  /** What the probe last said about the anchor: true/false, or null while it has not answered. */
  watched(): boolean | null {
    const answer = this.probe.peek(this.#anchor);
    return answer ? answer.brainId !== null : null;
  }

  /**
   * The brain covering the anchor, or null when none does. A found brain is kept for the
   * session (no registry read or realpath per call); "none" is asked again each time, so a
   * brain made meanwhile by another process (`gardener init`) is seen.
   */
  brain(): Brain | null {
    if (this.#resolved && !this.#resolved.retired) return this.#resolved;
    try {
      this.#resolved = this.brains.resolve(this.#anchor);
      return this.#resolved;
    } catch (err) {
      if (err instanceof BrainNotFoundError) return null;
      throw err;
    }
  }

  /** The brain this session last resolved, if it is still open; never resolves (no side effect). */
  peekBrain(): Brain | null {
    return this.#resolved && !this.#resolved.retired ? this.#resolved : null;
  }

  /** The brain covering the anchor, or a refusal that says how to make one. */
  requireBrain(): Brain {
    const brain = this.brain();
    if (!brain) {
      throw new BrainNotFoundError(this.#anchor, this.brains.home);
    }
    return brain;
  }

  /**
   * Resolves a path argument against the brain's roots, from the session folder; anything
   * outside them is refused before it is read (src/paths/confine-path.ts).
   */
  resolvePath(brain: Brain, path: string): { root: string; rel: string } {
    return confinePath(this.#anchor, brain.roots, path, "this session's brain roots");
  }

  /** Schedules a tick of the anchored brain if it is armed; never waits, never throws. */
  trafficTick(): void {
    try {
      const brain = this.brain();
      if (!brain || !readVigil(brain.reader).armed) return;
      void this.vigils.get(brain).request();
    } catch (err) {
      this.#log(`traffic tick not scheduled: ${(err as Error).message}`);
    }
  }

  /** Closes the session: cancels its own questions and joins its own background work. */
  async close(): Promise<void> {
    this.#closing.abort(new Error('the session is closing'));
    await Promise.allSettled([...this.#background]);
  }

  get closingSignal(): AbortSignal {
    return this.#closing.signal;
  }

  #arm(answer: ProbeAnswer): void {
    if (!answer.brainId) return;
    let grew = false;
    for (const tool of this.#tools) {
      if (!tool.late || this.#armed.has(tool.name)) continue;
      if (tool.late === 'git' && !answer.gitWorkTree) continue;
      this.#armed.add(tool.name);
      this.#listed.push(tool);
      grew = true;
    }
    if (grew) this.#onToolsChanged();
  }
}
