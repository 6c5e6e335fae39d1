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
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import { nodeEndpoint } from '../src/pool/node-endpoint.js';
import {
  openStore, ensureRoot, listRoots, pushChanges, peekBacklog, countBacklog, commitResults, recordAlert,
  readVigil, setArmed, acquireTickLease, releaseTickLease, addNote, removeNote, ackAlert, deferUpkeep, runUpkeep,
  type Database, type RootRow, type PushOutcome, type CommitOutcome, type AlertInput, type VigilState,
  type LeaseOutcome, type TickCounts, type NoteInput, type UpkeepOutcome,
} from '../src/store/index.js';
import type { BacklogItem, DetectResult, FileResult } from './types.js';
import {
  proposeCandidate, editCandidate, ratifyCandidate, candidateLease, readForReconcile, writeReconciled,
  setReconcileDeadline, clearReconcileDeadline, readSkeletonMeta, refusing, rootTextReader,
  type SkeletonEdit, type LeaseAction, type Derived,
} from '../src/skeleton/index.js';

export class StoreWriter {
  #db: Database | undefined;

  #open(): Database {
    if (!this.#db) throw new Error('store writer: open() was not called');
    return this.#db;
  }

  open(file: string): void {
    this.#db?.close();
    this.#db = openStore(file);
    deferUpkeep(this.#db);
  }

  /** Deferred store upkeep (checkpoint, index merge); the vigil calls it after each tick. */
  runUpkeep(options?: { budgetMs?: number }): UpkeepOutcome {
    return runUpkeep(this.#open(), options);
  }

  ensureRoot(path: string, now: number): number {
    return ensureRoot(this.#open(), path, now);
  }

  listRoots(): RootRow[] {
    return listRoots(this.#open());
  }

  pushChanges(rootId: number, detected: DetectResult, now: number): PushOutcome {
    const db = this.#open();
    return db.transaction(() => pushChanges(db, rootId, detected, now))();
  }

  peekBacklog(afterId: number, limit: number): BacklogItem[] {
    return peekBacklog(this.#open(), afterId, limit);
  }

  countBacklog(): number {
    return countBacklog(this.#open());
  }

  /** Commits results in one transaction; `backlog` is what waits afterwards. */
  commitResults(results: FileResult[], now: number): CommitOutcome & { backlog: number } {
    const db = this.#open();
    const outcome = db.transaction(() => commitResults(db, results, now))();
    return { ...outcome, backlog: countBacklog(db) };
  }

  recordAlert(alert: AlertInput, now: number): number {
    const db = this.#open();
    return db.transaction(() => recordAlert(db, alert, now))();
  }

  readVigil(): VigilState {
    return readVigil(this.#open());
  }

  setArmed(armed: boolean, now: number): VigilState {
    const db = this.#open();
    return db.transaction(() => setArmed(db, armed, now))();
  }

  /** The lease and the roots in one call: a tick's first round trip. */
  beginTick(pid: number, now: number): { lease: LeaseOutcome; roots: RootRow[]; backlog: number } {
    const db = this.#open();
    const lease = db.transaction(() => acquireTickLease(db, pid, now))();
    return { lease, roots: listRoots(db), backlog: countBacklog(db) };
  }

  acquireTickLease(pid: number, now: number): LeaseOutcome {
    const db = this.#open();
    return db.transaction(() => acquireTickLease(db, pid, now))();
  }

  releaseTickLease(pid: number, now: number, counts: TickCounts | null): void {
    const db = this.#open();
    db.transaction(() => releaseTickLease(db, pid, now, counts))();
  }

  addNote(note: NoteInput, now: number): number {
    const db = this.#open();
    return db.transaction(() => addNote(db, note, now))();
  }

  removeNote(id: number): boolean {
    const db = this.#open();
    return db.transaction(() => removeNote(db, id))();
  }

  ackAlert(id: number, now: number): boolean {
    const db = this.#open();
    return db.transaction(() => ackAlert(db, id, now))();
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

  close(): void {
    this.#db?.close();
    this.#db = undefined;
  }
}

if (parentPort) Comlink.expose(new StoreWriter(), nodeEndpoint(parentPort));
