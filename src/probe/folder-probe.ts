/**
 * The folder probe: "is this folder a git work tree, which brain covers it, is it armed?",
 * answered in the background so the MCP server's first frame never waits for it (DESIGN §7).
 *
 * Decisions, and why:
 * - One question per folder at a time, per probe. Concurrent askers share the question, but
 *   each waits on its own abort signal: a closing session leaves at once instead of waiting
 *   out another's git. The question is cancelled (git killed) only when every asker has left.
 * - What is cached. A cancelled question: nothing (it said nothing about the folder). An
 *   answer (work tree or not, "not a git repository" included): for the probe's life, because a
 *   folder seldom stops or starts being a work tree; whoever changes what the answer depends on
 *   (`daemon_start` arming a brain, `init` creating one) calls `forget(folder)`. A failure (git
 *   missing, exiting non-zero, timing out, or the brain resolver throwing): for
 *   `failureTtlMs`, so a hanging binary costs one launch per TTL however often it is asked.
 *   At most `maxCachedFolders` answers, the least recently asked going first: an owner that
 *   runs for a month is asked about every throwaway folder an agent ever opened. A removed
 *   brain's answers go with it (`forgetBrain`).
 * - `close()` aborts and joins only the git children this probe started, so give each session
 *   its own probe (two probes never share a git). A process that shares one probe between
 *   sessions instead passes each session's signal to `ask` and closes the probe at shutdown.
 * - The brain resolver is asked once git has answered, not beside it: a question cancelled
 *   during git never bothers it, and "the resolver was called" means "git has answered".
 * - Folders are keyed by `path.resolve`, not realpath: `peek` must stay memory only, and the
 *   answer's `gitTop` is git's own (resolved) top level anyway.
 */
import { resolve as resolvePath } from 'node:path';
import { AbortedError, InvalidArgumentError } from '../errors.js';
import { monotonicNow } from '../timers.js';
import { gitEnvFrom } from '../detect/index.js';
import { launchGitWorkTree, type GitWorkTreeOutcome } from './git-work-tree.js';

/**
 * Bound on the probe's one git launch, in ms: rev-parse answers in milliseconds, so 5 s is a
 * git that hangs (its failure is cached for the TTL). Shorter than GIT_COMMAND_TIMEOUT_MS
 * because a session's late verbs wait on this answer, not on a detection.
 */
export const PROBE_GIT_TIMEOUT_MS = 5_000;

/** How long a failing or hanging git is believed before it is launched again. */
export const DEFAULT_FAILURE_TTL_MS = 30_000;

/** Most folders whose answers a probe keeps (the owner's probe lives as long as it does). */
export const MAX_CACHED_FOLDERS = 1000;

/** Largest delay setTimeout honours; a longer bound would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

export interface ProbeAnswer {
  /** The folder asked about (absolute). */
  folder: string;
  /** `git rev-parse --is-inside-work-tree` said true. */
  gitWorkTree: boolean;
  /** `git rev-parse --show-toplevel`, when a work tree. */
  gitTop: string | null;
  /** The brain covering the folder, from `resolveBrain`. */
  brainId: string | null;
  /** Whether that brain is armed, from `resolveBrain`. */
  armed: boolean;
  /** Why the answer is not to be trusted: git failed or timed out (gitWorkTree is then false), or the resolver threw. */
  error: string | null;
}

export interface BrainResolution {
  brainId: string;
  armed: boolean;
}

export interface FolderProbeOptions {
  /** The git executable, looked up on `env.PATH` when not a path. @default 'git' */
  gitBinary?: string;
  /** Bound on one git launch, in milliseconds; past it git is killed and the answer is a failure. @default 5_000 */
  gitTimeoutMs?: number;
  /** How long a failure is cached, in milliseconds (0: not cached). @default 30_000 */
  failureTtlMs?: number;
  /** Clock for the failure TTL, in milliseconds. @default monotonicNow (src/timers.ts) */
  now?: () => number;
  /** Which brain covers a folder and whether it is armed; null when none does. Asked once git has answered. @default () => null */
  resolveBrain?: (folder: string) => Promise<BrainResolution | null>;
  /** Environment git runs with (its PATH finds `gitBinary`). @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Most answers kept, the least recently asked dropped first. @default MAX_CACHED_FOLDERS */
  maxCachedFolders?: number;
}

interface Settings {
  readonly gitBinary: string;
  readonly gitTimeoutMs: number;
  readonly failureTtlMs: number;
  readonly now: () => number;
  readonly resolveBrain: (folder: string) => Promise<BrainResolution | null>;
  readonly env: Readonly<NodeJS.ProcessEnv>;
  readonly maxCachedFolders: number;
}

interface Question {
  /** The answer; rejects with AbortedError only when the question was cancelled. */
  readonly answer: Promise<ProbeAnswer>;
  readonly controller: AbortController;
  /** Askers still waiting; when the last one leaves, the question is cancelled. */
  askers: number;
}

interface CacheEntry {
  readonly answer: ProbeAnswer;
  /** Clock time from which the entry is stale; Infinity for answers. */
  readonly staleAt: number;
}

function shown(value: unknown): string {
  return `\`${String(value)}\` (${value === null ? 'null' : typeof value})`;
}

function checkOptions(options: FolderProbeOptions): Settings {
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError(`FolderProbe options must be an object, got ${shown(options)}`);
  }
  const {
    gitBinary = 'git',
    gitTimeoutMs = PROBE_GIT_TIMEOUT_MS,
    failureTtlMs = DEFAULT_FAILURE_TTL_MS,
    now = monotonicNow,
    resolveBrain = async () => null,
    env = process.env,
    maxCachedFolders = MAX_CACHED_FOLDERS,
  } = options;
  if (typeof gitBinary !== 'string' || gitBinary === '') {
    throw new InvalidArgumentError(`options.gitBinary must be a non-empty string, got ${shown(gitBinary)}`);
  }
  if (!Number.isInteger(gitTimeoutMs) || gitTimeoutMs < 1 || gitTimeoutMs > MAX_TIMER_MS) {
    throw new InvalidArgumentError(
      `options.gitTimeoutMs must be an integer number of milliseconds from 1 to ${MAX_TIMER_MS}, got ${shown(gitTimeoutMs)}`,
    );
  }
  if (typeof failureTtlMs !== 'number' || !Number.isFinite(failureTtlMs) || failureTtlMs < 0) {
    throw new InvalidArgumentError(`options.failureTtlMs must be a finite number of milliseconds from 0 up, got ${shown(failureTtlMs)}`);
  }
  if (typeof now !== 'function') throw new InvalidArgumentError(`options.now must be a function, got ${shown(now)}`);
  if (typeof resolveBrain !== 'function') {
    throw new InvalidArgumentError(`options.resolveBrain must be a function, got ${shown(resolveBrain)}`);
  }
  if (env === null || typeof env !== 'object') throw new InvalidArgumentError(`options.env must be an object, got ${shown(env)}`);
  if (!Number.isInteger(maxCachedFolders) || maxCachedFolders < 1) {
    throw new InvalidArgumentError(`options.maxCachedFolders must be a positive integer, got ${shown(maxCachedFolders)}`);
  }
  return Object.freeze({ gitBinary, gitTimeoutMs, failureTtlMs, now, resolveBrain, env: Object.freeze(gitEnvFrom(env)), maxCachedFolders });
}

function folderKey(folder: string): string {
  if (typeof folder !== 'string' || folder === '') {
    throw new InvalidArgumentError(`folder must be a non-empty string, got ${shown(folder)}`);
  }
  return resolvePath(folder);
}

export class FolderProbe {
  readonly #settings: Settings;
  readonly #questions = new Map<string, Question>();
  readonly #cache = new Map<string, CacheEntry>();
  /** `exited` of every git child still alive; close() joins them. */
  readonly #children = new Set<Promise<void>>();
  #launches = 0;
  #closed = false;

  constructor(options: FolderProbeOptions = {}) {
    this.#settings = checkOptions(options);
  }

  /** How many git processes this probe has tried to start (a binary that cannot start counts). */
  get launches(): number {
    return this.#launches;
  }

  /**
   * The answer for `folder`: cached, or from the question in flight, or from a new one.
   * Rejects with AbortedError when `signal` aborts (at once, whatever git is doing) or when
   * the probe closes first; with InvalidArgumentError for a folder that is not a string.
   */
  ask(folder: string, signal?: AbortSignal): Promise<ProbeAnswer> {
    let key: string;
    try {
      key = folderKey(folder);
    } catch (err) {
      return Promise.reject(err);
    }
    if (signal?.aborted) return Promise.reject(new AbortedError(`probing ${key}`, { cause: signal.reason }));
    const cached = this.#fresh(key);
    if (cached) return Promise.resolve(cached);
    if (this.#closed) return Promise.reject(new AbortedError(`probing ${key} (the folder probe is closed)`));
    const question = this.#questions.get(key) ?? this.#start(key);
    return this.#wait(key, question, signal);
  }

  /** The cached answer for `folder`, if any and still fresh. Memory only, never a subprocess. */
  peek(folder: string): ProbeAnswer | undefined {
    return this.#fresh(folderKey(folder));
  }

  /**
   * The question in flight for `folder`, if any, for a caller that will wait a bounded time
   * for it. Waiting on it does not keep it alive: it rejects with AbortedError if all its
   * askers leave or the probe closes.
   */
  running(folder: string): Promise<ProbeAnswer> | undefined {
    return this.#questions.get(folderKey(folder))?.answer;
  }

  /** Drops the cached answer for `folder` (a question in flight is not affected). True if there was one. */
  forget(folder: string): boolean {
    return this.#cache.delete(folderKey(folder));
  }

  /** Drops every cached answer naming `brainId` (a brain removed); how many. */
  forgetBrain(brainId: string): number {
    let n = 0;
    for (const [key, entry] of this.#cache) if (entry.answer.brainId === brainId && this.#cache.delete(key)) n++;
    return n;
  }

  /** How many answers are cached. */
  get cachedFolders(): number {
    return this.#cache.size;
  }

  /**
   * Cancels this probe's questions, kills their git children (SIGTERM, SIGKILL after a short
   * grace) and resolves when every child it started has exited. Idempotent; cached answers
   * stay readable afterwards, but no new git is started.
   */
  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      for (const [key, question] of this.#questions) {
        this.#questions.delete(key);
        question.controller.abort(new AbortedError(`probing ${key} (the folder probe closed)`));
      }
    }
    await Promise.all(this.#children);
  }

  #fresh(key: string): ProbeAnswer | undefined {
    const entry = this.#cache.get(key);
    if (entry === undefined) return undefined;
    this.#cache.delete(key);
    if (this.#settings.now() >= entry.staleAt) return undefined;
    // Most recently asked goes last: the bound drops from the front.
    this.#cache.set(key, entry);
    return entry.answer;
  }

  #start(key: string): Question {
    const { gitBinary, gitTimeoutMs, env, resolveBrain } = this.#settings;
    const controller = new AbortController();
    const { signal } = controller;

    this.#launches++;
    const launch = launchGitWorkTree(key, { gitBinary, gitTimeoutMs, env, signal });
    this.#children.add(launch.exited);
    void launch.exited.then(() => this.#children.delete(launch.exited));

    // After git, not beside it: a question cancelled during git never bothers the resolver.
    // A throw is reported in the answer (fail-open), never as a rejection.
    const askResolver = (): Promise<{ found: BrainResolution | null; error: string | null }> =>
      Promise.resolve()
        .then(() => resolveBrain(key))
        .then(
          (found) => ({ found, error: null }),
          (err: unknown) => ({ found: null, error: `resolveBrain failed for ${key}: ${(err as Error)?.message ?? String(err)}` }),
        );
    const cancelled = new Promise<never>((_, reject) => {
      const onAbort = (): void =>
        reject(signal.reason instanceof AbortedError ? signal.reason : new AbortedError(`probing ${key}`, { cause: signal.reason }));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    const work = launch.outcome.then(async (git) => {
      const resolved = signal.aborted ? { found: null, error: null } : await askResolver();
      const answer = Object.freeze(this.#compose(key, git, resolved.found, resolved.error));
      this.#settle(key, question, answer, git.kind === 'failure' || resolved.error !== null);
      return answer;
    });
    const question: Question = { answer: Promise.race([work, cancelled]), controller, askers: 0 };
    // Nobody may be listening when a question is cancelled: that is not an unhandled rejection.
    question.answer.catch(() => {});
    work.catch(() => {});
    this.#questions.set(key, question);
    return question;
  }

  #compose(key: string, git: GitWorkTreeOutcome, found: BrainResolution | null, resolverError: string | null): ProbeAnswer {
    const gitError = git.kind === 'failure' ? git.error : null;
    return {
      folder: key,
      gitWorkTree: git.kind === 'answer' && git.gitWorkTree,
      gitTop: git.kind === 'answer' ? git.gitTop : null,
      brainId: found?.brainId ?? null,
      armed: found?.armed === true,
      error: gitError !== null && resolverError !== null ? `${gitError}; ${resolverError}` : (gitError ?? resolverError),
    };
  }

  /** Records the answer of a question that was not cancelled. */
  #settle(key: string, question: Question, answer: ProbeAnswer, failed: boolean): void {
    if (question.controller.signal.aborted) return; // cut by cancellation: not cached
    if (this.#questions.get(key) === question) this.#questions.delete(key);
    const staleAt = failed ? this.#settings.now() + this.#settings.failureTtlMs : Number.POSITIVE_INFINITY;
    this.#cache.delete(key);
    this.#cache.set(key, { answer, staleAt });
    while (this.#cache.size > this.#settings.maxCachedFolders) this.#cache.delete(this.#cache.keys().next().value!);
  }

  /** One asker's wait on a shared question, bounded by the asker's own signal. */
  #wait(key: string, question: Question, signal: AbortSignal | undefined): Promise<ProbeAnswer> {
    question.askers++;
    return new Promise<ProbeAnswer>((resolve, reject) => {
      let waiting = true;
      const leave = (): boolean => {
        if (!waiting) return false;
        waiting = false;
        question.askers--;
        signal?.removeEventListener('abort', onAbort);
        return true;
      };
      const onAbort = (): void => {
        if (!leave()) return;
        reject(new AbortedError(`probing ${key}`, { cause: signal?.reason }));
        if (question.askers === 0) this.#cancel(key, question, signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      question.answer.then(
        (answer) => leave() && resolve(answer),
        (err: unknown) => leave() && reject(err),
      );
    });
  }

  /** The last asker left: kill git, and let the next ask start afresh. */
  #cancel(key: string, question: Question, reason: unknown): void {
    if (this.#questions.get(key) === question) this.#questions.delete(key);
    question.controller.abort(reason);
  }
}
