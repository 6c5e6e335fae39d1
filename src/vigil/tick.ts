/**
 * One tick: detect the changed set of every root, push it into the backlog once, then drain
 * the backlog batch after batch until it is empty.
 *
 * Batches are pipelined: while the writer commits, the pool hashes the next batches, and
 * commits happen in backlog order, several finished batches to a commit (group commit). The main thread
 * only schedules; every await is a yield, so a 1000-file burst never blocks the event loop.
 * The tick holds the brain's lease (vigil-state.ts): another process ticking the same brain
 * makes this one return `busy` rather than race it.
 *
 * After the drain, a git root whose HEAD moved past what its history was mined to has the new
 * commits mined (in the pool's detect worker) and stored (src/history/): history is never ahead
 * of the map's head. A failed mining is recorded and leaves the tick's work standing.
 */
import { dirname, join } from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { Brain } from '../brain/brain.js';
import type { BacklogItem, HashExtractDelivered, ResultSummary } from '../../workers/types.js';
import { moved } from '../pool/index.js';
import { AbortedError } from '../errors.js';
import { AUTO_RECONCILE_QUIET_WINDOW_MS } from '../skeleton/index.js';
import { DEFAULT_NOTES_DIR, GIT_COMMAND_TIMEOUT_MS } from '../detect/index.js';

/** Files per drain batch: small enough to commit in a few ms, large enough to amortise a call. */
export const DEFAULT_MAX_FILES = 32;
/** Files larger than this are hashed but not full-text indexed. */
export const DEFAULT_MAX_INDEX_BYTES = 1 << 20;

export interface TickOptions {
  /** Files per drain batch. @default DEFAULT_MAX_FILES */
  maxFiles?: number;
  /** Size cap for full-text indexing, in bytes. @default DEFAULT_MAX_INDEX_BYTES */
  maxIndexBytes?: number;
  /** List every file instead of asking what changed (first ingest, repair). @default false */
  inventory?: boolean;
  signal?: AbortSignal;
  /** Called after each committed batch with the files drained so far and the total known. */
  onProgress?: (done: number, total: number) => void;
  /** Extra root-relative paths to re-check, by absolute root path (`scan {paths}`). */
  recheck?: Record<string, string[]>;
  /** Collect the paths this tick changed in the map into `report.changed`. @default false */
  collectChanges?: boolean;
  /**
   * Bound on each git process detection runs, in ms: a git that is stopped, or hangs half-way
   * through its answer, is killed then and the tick fails (the vigil records an alert). The
   * detect task's own bound (DETECT_TASK_TIMEOUT_MS) caps the whole detection anyway.
   * @default GIT_COMMAND_TIMEOUT_MS
   */
  gitTimeoutMs?: number;
  /** Wall clock, injectable for tests. @default Date.now */
  now?: () => number;
  /** Extract references (false only for the bench's with/without comparison). @default true */
  references?: boolean;
  /** Mine git history for the history lists when HEAD moved. @default true */
  history?: boolean;
  /**
   * Run git status on the brain's own index copy, with git's untracked cache (false only for the
   * bench's on/off comparison, bench/large-repo.ts). @default true
   */
  statusIndex?: boolean;
}

export interface TickReport {
  /** Paths this tick's detection queued (after the stat cache). */
  detected: number;
  /** Backlog items this tick committed. */
  drained: number;
  batches: number;
  detectMs: number;
  drainMs: number;
  backlogLeft: number;
  backend: string | null;
  fallback: string | null;
  /** Set when another live process holds the brain's tick lease; nothing was done. */
  busyOwnerPid?: number;
  /** Commits the history lists gained this tick, and the time mining and storing them took. */
  historyCommits: number;
  historyMs: number;
  /** With `collectChanges`: what changed in the map, capped at MAX_COLLECTED_CHANGES. */
  changed?: { root: string; path: string; change: 'ingested' | 'deleted' | 'failed' }[];
}

/** Where the git backend keeps its copy of a root's index: the brain's own (0700) folder. */
export const statusIndexFileOf = (brain: Brain, rootId: number): string => join(dirname(brain.file), 'git', `root-${rootId}.index`);

/** A scan reports at most this many changed paths; the counts stay exact. */
export const MAX_COLLECTED_CHANGES = 1000;

export async function runTick(brain: Brain, options: TickOptions = {}): Promise<TickReport> {
  const now = options.now ?? Date.now;
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
  const writer = brain.writer;
  const { lease, roots, backlog, minedHeads } = await writer.beginTick(process.pid, now());
  const report: TickReport = { detected: 0, drained: 0, batches: 0, detectMs: 0, drainMs: 0, backlogLeft: 0, backend: null, fallback: null, historyCommits: 0, historyMs: 0 };
  const heads: { rootId: number; path: string; head: string }[] = [];
  if (!lease.acquired) {
    report.busyOwnerPid = lease.ownerPid;
    report.backlogLeft = backlog;
    return report;
  }
  let finished = false;
  try {
    const t0 = performance.now();
    let waiting = backlog;
    // Each root's notes folder as this tick's detection applied it, for the hash+extract batches.
    const notesDirs: Record<number, string> = Object.fromEntries(roots.map((r) => [r.id, r.notesDir ?? DEFAULT_NOTES_DIR]));
    for (const root of roots) {
      throwIfAborted(options.signal);
      const detected = await brain.pool.detect(
        {
          root: root.path,
          backend: 'auto',
          knownWorkTree: root.backend === 'git',
          sinceRef: root.sinceRef,
          recheck: [...root.dirty, ...(options.recheck?.[root.path] ?? [])],
          skip: brain.skipFor(root.path),
          inventory: options.inventory ?? false,
          ignoreFingerprint: root.ignoreFingerprint,
          ...(root.notesDir === null ? {} : { notesDir: root.notesDir }),
          gitTimeoutMs: options.gitTimeoutMs ?? GIT_COMMAND_TIMEOUT_MS,
          // git's untracked cache, kept in the brain's own copy of the index (detect/status-index.ts).
          statusIndexFile: options.statusIndex === false ? undefined : statusIndexFileOf(brain, root.id),
        },
        // The pool relays this signal to the detect worker, which kills its git (a Piscina
        // abort would end the thread and orphan the git instead): a closing owner stops here.
        options.signal,
      );
      if (detected.backend === 'git' && detected.head !== null && detected.head !== minedHeads[root.id]) heads.push({ rootId: root.id, path: root.path, head: detected.head });
      if (detected.notesDir !== undefined) notesDirs[root.id] = detected.notesDir;
      const pushed = await writer.pushChanges(root.id, detected, now());
      report.detected += pushed.queued;
      waiting = pushed.backlog;
      report.backend = detected.backend;
      report.fallback = detected.fallback;
    }
    const t1 = performance.now();
    report.detectMs = t1 - t0;
    report.backlogLeft = await drain(brain, roots, notesDirs, waiting, maxFiles, options, report, now);
    // A tick that changed the map pushes the skeleton's reconcile deadline, persisted so a
    // process restarted inside the quiet window still reconciles (src/skeleton/reconciler.ts).
    if (report.drained > 0) await writer.skeletonSetDeadline(now() + AUTO_RECONCILE_QUIET_WINDOW_MS);
    report.drainMs = performance.now() - t1;
    if (options.history ?? true) await mineHeads(brain, heads, minedHeads, options, report, now);
    finished = true;
    return report;
  } finally {
    // A failed tick still releases the lease; only a killed process leaves it, and that is
    // taken over by the next tick (vigil-state.ts).
    await writer.releaseTickLease(
      process.pid,
      now(),
      finished ? { detected: report.detected, drained: report.drained, backlogLeft: report.backlogLeft } : null,
    );
    // Deferred upkeep (checkpoint, index merge) after the work is committed, not awaited:
    // the caller has its answer; the writer runs it before whatever it is asked next.
    if (report.drained > 0) {
      writer.runUpkeep().catch((err: Error) => process.stderr.write(`gardener: store upkeep failed (retried after the next tick): ${err.message}\n`));
    }
  }
}

/** Mines and stores each moved root's history; a failure is recorded for the root, not thrown. */
async function mineHeads(
  brain: Brain,
  heads: readonly { rootId: number; path: string; head: string }[],
  mined: Record<number, string>,
  options: TickOptions,
  report: TickReport,
  now: () => number,
): Promise<void> {
  const t0 = performance.now();
  for (const { rootId, path, head } of heads) {
    throwIfAborted(options.signal);
    try {
      const history = await brain.pool.mineHistory({ root: path, head, minedHead: mined[rootId] ?? null, gitTimeoutMs: options.gitTimeoutMs ?? GIT_COMMAND_TIMEOUT_MS }, options.signal);
      if (history.status === 'failed') {
        await brain.writer.recordHistoryFailure(rootId, history.note, now());
        continue;
      }
      const applied = await brain.writer.applyHistory(rootId, history, now());
      report.historyCommits += applied.added;
    } catch (err) {
      if (err instanceof AbortedError || options.signal?.aborted) throw err;
      await brain.writer.recordHistoryFailure(rootId, (err as Error).message, now());
    }
  }
  report.historyMs = performance.now() - t0;
}

/** Pool batches queued beyond one per pool thread and one commit's worth, so neither side idles. */
const EXTRA_BATCHES_IN_FLIGHT = 1;
/** Most pool batches in flight, whatever `maxFiles` is (a tiny `maxFiles` would queue hundreds). */
const MAX_BATCHES_IN_FLIGHT = 16;
/**
 * Fewest files a commit waits for while more batches are still being hashed (group commit).
 * Each commit flushes its own full-text segment, rewrites the pages it touched and costs two
 * thread hand-offs, so a 1000-file burst committed 32 files at a time cost the writer 141 ms of
 * CPU against 99 ms in groups of 96 or more (SQL alone, one thread, medians of 5), left recall
 * three times the segments to read, and on a loaded machine each hand-off waits for a core.
 * The writer waits while a group fills, but the pool, not the writer, is the drain's critical
 * path: the group ends when the hashing does.
 */
export const MIN_FILES_PER_COMMIT = 96;
/**
 * Most files committed in one writer transaction. Batches that finished while the writer was
 * busy are committed together (group commit): fewer transactions and index segments, while a
 * single transaction stays short.
 */
export const MAX_FILES_PER_COMMIT = 256;
/** Most text committed in one writer transaction, in bytes: keeps the writer's heap bounded. */
export const MAX_BYTES_PER_COMMIT = 24 * 1024 * 1024;
/** Backlog items read per writer round trip (a few commits' worth), handed to the pool `maxFiles` at a time. */
const PEEK_ITEMS = MAX_FILES_PER_COMMIT;

/** Each drain stages its batches in the writer under its own key (two drains may overlap). */
let lastStageKey = 0;

interface Slot {
  promise: Promise<HashExtractDelivered>;
  /** The writer's end of the channel the batch's results arrive on. */
  results: MessagePort;
  settled: boolean;
  out?: HashExtractDelivered;
  err?: unknown;
}

/** Drains the backlog; returns how many paths wait afterwards (0 unless others pushed meanwhile). */
async function drain(
  brain: Brain,
  roots: { id: number; path: string }[],
  notesDirs: Record<number, string>,
  total: number,
  maxFiles: number,
  options: TickOptions,
  report: TickReport,
  now: () => number,
): Promise<number> {
  const writer = brain.writer;
  const rootPaths: Record<number, string> = Object.fromEntries(roots.map((r) => [r.id, r.path]));
  const maxIndexBytes = options.maxIndexBytes ?? DEFAULT_MAX_INDEX_BYTES;
  const depth = Math.min(MAX_BATCHES_IN_FLIGHT, brain.pool.maxThreads + Math.ceil(MIN_FILES_PER_COMMIT / maxFiles) + EXTRA_BATCHES_IN_FLIGHT);
  if (total === 0) return 0;
  let left = total;
  const inflight: Slot[] = [];
  // Items read from the backlog, not yet handed to the pool, in backlog order.
  let queued: BacklogItem[] = [];
  let after = 0;
  let exhausted = false;
  const refill = async () => {
    while (inflight.length < depth) {
      if (queued.length === 0) {
        if (exhausted) break;
        queued = await writer.peekBacklog(after, Math.max(PEEK_ITEMS, maxFiles));
        if (queued.length === 0) {
          exhausted = true;
          break;
        }
        after = queued[queued.length - 1]!.id;
      }
      const items = queued.splice(0, maxFiles);
      // The batch's results go from its pool thread to the writer on a channel of their own.
      const { port1, port2 } = new MessageChannel();
      const task = { roots: rootPaths, notesDirs, items, maxIndexBytes, references: options.references };
      const slot: Slot = { promise: brain.pool.hashExtractTo(task, port1, options.signal), results: port2, settled: false };
      slot.promise.then(
        (out) => Object.assign(slot, { out, settled: true }),
        (err) => Object.assign(slot, { err, settled: true }),
      );
      inflight.push(slot);
    }
  };
  // Each finished batch is staged in the writer (nothing written) from the channel its pool
  // thread posted the results on, so the commit that applies a group carries no data and the
  // main thread never holds a file's text: it hands the writer one port per batch.
  const key = ++lastStageKey;
  let staged = 0;
  // The group's stagings not yet committed: a failed drain drops its stage only after they
  // landed, since nothing orders a port's message against the writer's other calls.
  let staging: Promise<number>[] = [];
  try {
    await refill();
    while (inflight.length > 0) {
      left = await commitGroup();
    }
  } finally {
    for (const slot of inflight) slot.results.close();
    if (staged > 0) {
      void Promise.allSettled(staging).then(() => writer.dropStaged(key)).catch(() => {});
    }
  }
  return left;

  /** Waits for the next group of finished batches, commits it, and returns the backlog left. */
  async function commitGroup(): Promise<number> {
    // Finished batches, in backlog order, go into one commit; while more are being hashed,
    // it waits for at least MIN_FILES_PER_COMMIT of them.
    const results: ResultSummary[] = [];
    staging = [];
    let bytes = 0;
    while (inflight.length > 0 && results.length < MAX_FILES_PER_COMMIT && bytes < MAX_BYTES_PER_COMMIT) {
      throwIfAborted(options.signal);
      if (!inflight[0]!.settled) {
        if (results.length >= MIN_FILES_PER_COMMIT) break;
        await inflight[0]!.promise.catch(() => {});
        continue;
      }
      const slot = inflight.shift()!;
      if (slot.err !== undefined) {
        slot.results.close();
        throw slot.err;
      }
      const batch = slot.out!.summaries;
      for (const r of batch) bytes += r.textBytes;
      const handed = writer.stageFrom(key, moved(slot.results, [slot.results]));
      handed.catch(() => {}); // surfaced by the Promise.all below, or moot if the group fails first
      staging.push(handed);
      staged += batch.length;
      results.push(...batch);
      report.batches++;
      await refill();
    }
    // The results came on channels of their own, which nothing orders against this call:
    // the commit goes once the writer has them all.
    const arrived = (await Promise.all(staging)).reduce((a, n) => a + n, 0);
    if (arrived !== results.length) throw new Error(`the store writer received ${arrived} of a group of ${results.length} results`);
    const committed = await writer.commitResults([], now(), key);
    staged = 0;
    const applied = committed.ingested + committed.unchanged + committed.deleted + committed.failed + committed.skipped;
    if (applied !== results.length) throw new Error(`the store writer committed ${applied} of a group of ${results.length} results`);
    report.drained += results.length - committed.skipped;
    if (options.collectChanges) {
      report.changed ??= [];
      for (const r of results) {
        if (r.status !== 'unchanged' && report.changed.length < MAX_COLLECTED_CHANGES) {
          report.changed.push({ root: rootPaths[r.rootId]!, path: r.path, change: r.status });
        }
      }
    }
    options.onProgress?.(report.drained, Math.max(total, report.drained));
    return committed.backlog;
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortedError('the tick', { cause: signal.reason });
}
