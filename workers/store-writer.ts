/**
 * The one store writer (a long-lived worker reached through Comlink).
 *
 *   main thread ── Comlink call ──► [this worker] ── the brain's read-write SQLite connection
 *               ◄── result ───────┘    every write transaction of the brain happens here
 *
 * It owns exactly one brain.db. It imports the store and nothing from transports, the CLI or
 * the vigil. Each method is one short transaction, so the main thread never holds a write
 * lock and readers (WAL) are never blocked.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import { nodeEndpoint } from '../src/pool/node-endpoint.js';
import { keepPagesReturned } from '../src/page-return.js';
import { realTimers, type Timers } from '../src/timers.js';
import { yieldToMainThread } from '../src/pool/thread-priority.js';
import {
  openStore, ensureRoot, listRoots, pushChanges, peekBacklog, countBacklog, commitResults, recordAlert,
  setArmed, acquireTickLease, releaseTickLease, addNote, removeNote, ackAlert, deferUpkeep, runUpkeep,
  type Database, type RootRow, type PushOutcome, type CommitOutcome, type AlertInput, type VigilState,
  type LeaseOutcome, type TickCounts, type NoteInput, type UpkeepOutcome,
  writeTeamNote, unlinkTeamNote, teamNoteOf, draftOf,
} from '../src/store/index.js';
import { gitAuthor } from '../src/detect/index.js';
import { InvalidArgumentError } from '../src/errors.js';
import { openFailure as storeFailure } from '../src/store/open-failure.js';
import { applyHistory, minedHeads, recordHistoryFailure, type HistoryApplied, type MinedHistory } from '../src/history/index.js';
import { threadHeap, type BacklogItem, type DetectResult, type FileResult, type ThreadHeap } from './types.js';
import {
  proposeCandidate, editCandidate, ratifyCandidate, candidateLease, readForReconcile, writeReconciled,
  setReconcileDeadline, clearReconcileDeadline, readSkeletonMeta, refusing, rootTextReader,
  type SkeletonEdit, type LeaseAction, type Derived,
} from '../src/skeleton/index.js';

/**
 * A write refused because the connection is read-only. SQLite opens read-only, for good, a
 * store it cannot open for writing (a read-only mount, a folder without write permission):
 * after one such refusal the connection is reopened before the next call, so work resumes
 * once the store can be written again, without restarting a long-running server.
 */
function isReadonlyError(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return (typeof e?.code === 'string' && e.code.startsWith('SQLITE_READONLY')) || (typeof e?.message === 'string' && /readonly database/.test(e.message));
}

/**
 * How long the writer waits after an upkeep that left index merging to do before it does the
 * next slice, in ms, unless a tick takes the lease first. Recall reads every segment, and one
 * upkeep (UPKEEP_MERGE_BUDGET_MS) merges only part of what a 1000-file drain leaves: measured on
 * the bench's 5000-file brain (seek-tail, Node 24, CPU per query), 13 segments answered 1000
 * queries at p50 0.91 ms and p99 4.93 ms, the same index merged to 1 segment at 0.66 and 2.96
 * (14 slices, 85 merges). A slice is one budget long, so a tick or a note arriving meanwhile
 * waits that long at most; a writer with nothing left to merge sets no timer.
 */
export const UPKEEP_FOLLOW_UP_MS = 100;

export interface StoreWriterOptions {
  /** Timers for the idle merge slices (tests drive them). @default realTimers */
  timers?: Timers;
}

export class StoreWriter {
  #timers: Timers;
  #db: Database | undefined;
  #file: string | undefined;
  #reopen = false;
  /**
   * Results handed over batch by batch ahead of the commit that applies them (by drain key).
   * Held in memory only: nothing of them is in the store, nor out of the backlog, before that
   * commit, so a crash in between loses nothing.
   */
  #staged = new Map<number, FileResult[]>();
  /** The next idle merge slice, while an upkeep left merging to do and no tick holds the lease. */
  #followUp: unknown;
  #inTick = false;

  constructor(options: StoreWriterOptions = {}) {
    this.#timers = options.timers ?? realTimers;
  }

  #open(): Database {
    if (!this.#db || !this.#file) throw new Error('store writer: open() was not called');
    if (this.#reopen) {
      this.#reopen = false;
      this.open(this.#file);
    }
    return this.#db;
  }

  open(file: string): void {
    this.#db?.close();
    this.#db = undefined;
    this.#file = file;
    const db = openStore(file);
    try {
      deferUpkeep(db);
    } catch (err) {
      db.close();
      throw err;
    }
    this.#db = db;
  }

  /** Runs `fn` in one write transaction (a failure is named by `honestFailures`). */
  #write<T>(fn: (db: Database) => T): T {
    const db = this.#open();
    return db.transaction(() => fn(db))();
  }

  get file(): string | undefined {
    return this.#file;
  }

  reopenBeforeNextCall(): void {
    this.#reopen = true;
  }

  /**
   * Deferred store upkeep (checkpoint, index merge); the vigil calls it after each tick. When
   * the budget stopped the merging, the writer does another slice UPKEEP_FOLLOW_UP_MS later,
   * and so on until nothing is left, unless a tick begins (beginTick drops the slice).
   */
  runUpkeep(options?: { budgetMs?: number }): UpkeepOutcome {
    this.#timers.clearTimeout(this.#followUp);
    this.#followUp = undefined;
    const outcome = runUpkeep(this.#open(), options);
    if (outcome.mergeLeft && !this.#inTick) {
      this.#followUp = this.#timers.setTimeout(() => {
        this.#followUp = undefined;
        try {
          this.runUpkeep(options);
        } catch (err) {
          // The next tick's upkeep tries again; nothing is lost by an unmerged index.
          process.stderr.write(`gardener: store upkeep failed (retried after the next tick): ${(err as Error).message}\n`);
        }
      }, UPKEEP_FOLLOW_UP_MS);
    }
    return outcome;
  }

  ensureRoot(path: string, now: number): number {
    return ensureRoot(this.#open(), path, now);
  }

  listRoots(): RootRow[] {
    return listRoots(this.#open());
  }

  pushChanges(rootId: number, detected: DetectResult, now: number): PushOutcome {
    return this.#write((db) => pushChanges(db, rootId, detected, now));
  }

  peekBacklog(afterId: number, limit: number): BacklogItem[] {
    return peekBacklog(this.#open(), afterId, limit);
  }

  countBacklog(): number {
    return countBacklog(this.#open());
  }

  /**
   * Hands over results for a later commitResults with the same `key`, so a group commit's
   * results cross the threads as their batches finish, not all at once behind the commit.
   */
  stageResults(key: number, results: FileResult[]): void {
    const staged = this.#staged.get(key);
    if (staged) staged.push(...results);
    else this.#staged.set(key, results);
  }

  /**
   * Stages, under `key`, the results a pool batch posts on `port` (src/pool/worker-pool.ts
   * hashExtractTo), straight from the pool thread: the batch has answered before this is
   * called, so its one message is already waiting. Resolves with how many results were staged;
   * rejects if the port closes without them (the pool thread died), so nothing waits forever.
   */
  stageFrom(key: number, port: MessagePort): Promise<number> {
    return new Promise((resolve, reject) => {
      port.once('message', (results: FileResult[]) => {
        this.stageResults(key, results);
        port.close();
        resolve(results.length);
      });
      port.once('close', () => reject(new Error('a hash+extract batch closed its channel to the store writer without results')));
    });
  }

  /** Forgets what was staged under `key` (a drain that failed before its commit). */
  dropStaged(key: number): void {
    this.#staged.delete(key);
  }

  /**
   * Commits results in one transaction: those staged under `key` first, then `results`.
   * `backlog` is what waits afterwards, `writeMs` the transaction's own time in this thread
   * (BEGIN to COMMIT, for the bench's stage clock).
   */
  commitResults(results: FileResult[], now: number, key?: number): CommitOutcome & { backlog: number; writeMs: number } {
    const staged = key === undefined ? undefined : this.#staged.get(key);
    if (key !== undefined) this.#staged.delete(key);
    const all = staged ? staged.concat(results) : results;
    const t0 = performance.now();
    const outcome = this.#write((db) => commitResults(db, all, now));
    const writeMs = performance.now() - t0;
    return { ...outcome, backlog: countBacklog(this.#open()), writeMs };
  }

  recordAlert(alert: AlertInput, now: number): number {
    return this.#write((db) => recordAlert(db, alert, now));
  }

  setArmed(armed: boolean, now: number): VigilState {
    return this.#write((db) => setArmed(db, armed, now));
  }

  /** The lease, the roots and the heads history was mined to, in one call: a tick's first round trip. */
  beginTick(pid: number, now: number): { lease: LeaseOutcome; roots: RootRow[]; backlog: number; minedHeads: Record<number, string> } {
    const lease = this.#write((db) => acquireTickLease(db, pid, now));
    if (lease.acquired) {
      // No merge slice between a drain's commits: the tick's own upkeep picks the work up after.
      this.#inTick = true;
      this.#timers.clearTimeout(this.#followUp);
      this.#followUp = undefined;
    }
    const db = this.#open();
    return { lease, roots: listRoots(db), backlog: countBacklog(db), minedHeads: minedHeads(db) };
  }

  /** Stores a root's mined history (src/history/history-store.ts) in one transaction. */
  applyHistory(rootId: number, mined: MinedHistory, now: number): HistoryApplied {
    return this.#write((db) => applyHistory(db, rootId, mined, now));
  }

  recordHistoryFailure(rootId: number, note: string, now: number): void {
    this.#write((db) => recordHistoryFailure(db, rootId, note, now));
  }

  releaseTickLease(pid: number, now: number, counts: TickCounts | null): void {
    this.#inTick = false;
    this.#write((db) => releaseTickLease(db, pid, now, counts));
  }

  addNote(note: NoteInput, now: number): number {
    return this.#write((db) => addNote(db, note, now));
  }

  removeNote(id: number): boolean {
    return this.#write((db) => removeNote(db, id));
  }

  /**
   * A team note (src/store/team-notes.ts): refused with GDN_NOTE_SECRET when its text holds a
   * secret (nothing written); else its file is written under the root's notes folder and the
   * note added. The author is the root's git config, asked before the transaction.
   */
  async addTeamNote(note: NoteInput, rootId: number, now: number): Promise<{ id: number; file: string }> {
    const root = this.#rootPath(rootId);
    const author = await gitAuthor(root);
    const draft = { text: note.text, tags: note.tags ?? [], pinned: note.pinned ?? false, ties: note.ties ?? [], created: now, author, behind: note.behind };
    const { id, file } = this.#write((db) => writeTeamNote(db, root, rootId, draft, now));
    return { id, file };
  }

  /** Writes a private note out as a team note (same id); its root is its ties' root, else `rootId`. */
  async shareNote(id: number, rootId: number, now: number): Promise<{ id: number; file: string }> {
    const db = this.#open();
    if (teamNoteOf(db, id)) throw new InvalidArgumentError(`note ${id} is already a team note`);
    const draft = draftOf(db, id);
    if (!draft) throw new InvalidArgumentError(`no note with id ${id}: \`gardener notes\` lists the ids`);
    const at = draft.ties[0]?.rootId ?? rootId;
    const root = this.#rootPath(at);
    const author = await gitAuthor(root);
    const { file } = this.#write((d) => writeTeamNote(d, root, at, { ...draft, author }, now, id));
    return { id, file };
  }

  /** Takes a team note back: its file is removed, the note stays in this brain as a private one. */
  unshareNote(id: number): { id: number; file: string } {
    return this.#write((db) => {
      const row = teamNoteOf(db, id);
      if (!row) throw new InvalidArgumentError(`note ${id} is not a team note`);
      unlinkTeamNote(db, this.#rootPath(row.rootId), row);
      return { id, file: row.path };
    });
  }

  /** `forget`: removes a note, and a team note's file with it. */
  forgetNote(id: number): { removed: boolean; file?: string } {
    return this.#write((db) => {
      const row = teamNoteOf(db, id);
      if (row) unlinkTeamNote(db, this.#rootPath(row.rootId), row);
      const removed = removeNote(db, id);
      return row ? { removed, file: row.path } : { removed };
    });
  }

  #rootPath(rootId: number): string {
    const root = listRoots(this.#open()).find((r) => r.id === rootId);
    if (!root) throw new InvalidArgumentError(`no root with id ${rootId} in this brain`);
    return root.path;
  }

  ackAlert(id: number, now: number): boolean {
    return this.#write((db) => ackAlert(db, id, now));
  }

  // The skeleton (src/skeleton/): each write one transaction; refusals come back as data
  // (refusal.ts) because Comlink does not carry an error's code.

  skeletonPropose(now: number, from: 'code' | 'ratified') {
    const db = this.#open();
    const readText = rootTextReader(listRoots(db).map((r) => r.path));
    return refusing(() => db.transaction(() => proposeCandidate(db, now, from, { readText }))());
  }

  skeletonEdit(storeVersion: number, edits: SkeletonEdit[], now: number) {
    const db = this.#open();
    return refusing(() => db.transaction(() => editCandidate(db, storeVersion, edits, now))());
  }

  skeletonRatify(storeVersion: number, now: number) {
    const db = this.#open();
    return refusing(() => db.transaction(() => ratifyCandidate(db, storeVersion, now))());
  }

  skeletonLease(action: LeaseAction, holder: string, ttlS: number, now: number) {
    const db = this.#open();
    return refusing(() => db.transaction(() => candidateLease(db, action, holder, ttlS, now))());
  }

  /** The reconciler's read; the derive runs here, off the main thread. */
  skeletonReadForReconcile(now: number) {
    return readForReconcile(this.#open(), now);
  }

  skeletonWriteReconciled(storeVersion: number, derived: Derived, now: number) {
    const db = this.#open();
    return db.transaction(() => writeReconciled(db, storeVersion, derived, now))();
  }

  skeletonSetDeadline(at: number): void {
    setReconcileDeadline(this.#open(), at);
  }

  skeletonClearDeadline(atMost: number): void {
    clearReconcileDeadline(this.#open(), atMost);
  }

  skeletonMeta() {
    return readSkeletonMeta(this.#open());
  }

  /** This thread's heap, for the bench's memory breakdown (bench/memory-breakdown.ts). */
  heapStats(): ThreadHeap {
    return threadHeap();
  }

  close(): void {
    this.#timers.clearTimeout(this.#followUp);
    this.#followUp = undefined;
    this.#db?.close();
    this.#db = undefined;
  }
}

/**
 * Every call, as the main thread sees it: a failure the store can name (a full disk, a folder
 * turned read-only, a lock) names the file and the errno instead of SQLite's bare words, and a
 * read-only refusal from any call reopens the connection before the next one.
 */
function honestFailures(writer: StoreWriter): StoreWriter {
  return new Proxy(writer, {
    get(target, key) {
      // The target as receiver: its #private fields are not reachable through the proxy.
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        try {
          return value.apply(target, args);
        } catch (err) {
          if (isReadonlyError(err)) target.reopenBeforeNextCall();
          throw target.file ? storeFailure(target.file, err) : err;
        }
      };
    },
  });
}

// In a thread it answers on the port it was started with (by workers/store-writer-thread.ts,
// which set the heap flags first).
if (parentPort) {
  // The writer works below the main thread's priority (src/pool/thread-priority.ts).
  yieldToMainThread();
  // It gives its heap's garbage pages back once the heap grew (src/page-return.ts).
  keepPagesReturned();
  Comlink.expose(honestFailures(new StoreWriter()), nodeEndpoint(parentPort));
}
