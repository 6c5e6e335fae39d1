/**
 * The skeleton in the brain's store: the candidate and ratified rows, and the shared state row
 * (store_version, reconcile deadline, candidate lease). Every write of a room list or of
 * derived data bumps `store_version` in the same transaction; writes that say which version
 * they read are refused when it moved (SkeletonConflictError). The lease and the deadline
 * are bookkeeping about the skeleton, not the skeleton: they do not bump the version, so
 * taking a lease never invalidates the version an editor just read.
 *
 * Runs in the store writer (one transaction per call, opened by the caller) and on read-only
 * connections for recall.
 */
import { InvalidArgumentError, NoCandidateError, SkeletonConflictError } from '../errors.js';
import type { Database } from '../store/index.js';
import { proposeRooms, type CandidateOptions } from './candidate.js';
import { deriveSkeleton, driftBetween, type Derived, type Violation } from './derive.js';
import { applyEdits, type SkeletonEdit } from './edits.js';
import { checkRooms, type Room } from './rooms.js';

export type SkeletonStateName = 'candidate' | 'ratified';

export interface StoredSkeleton {
  state: SkeletonStateName;
  rooms: Room[];
  derived: Derived;
  writtenAt: number;
  derivedAt: number;
}

export interface SkeletonMeta {
  storeVersion: number;
  reconcileDueAt: number | null;
  reconciledAt: number | null;
  lease: { holder: string; until: number } | null;
}

/** Longest candidate lease, in seconds: long enough for an editing session, short enough that a lost holder frees it soon. */
export const MAX_LEASE_TTL_S = 3600;

export function readSkeleton(db: Database, state: SkeletonStateName): StoredSkeleton | null {
  const r = db.prepare('SELECT rooms, derived, written_at, derived_at FROM skeleton WHERE state = ?').get<{ rooms: string; derived: string; written_at: number; derived_at: number }>(state);
  if (!r) return null;
  return { state, rooms: JSON.parse(r.rooms) as Room[], derived: JSON.parse(r.derived) as Derived, writtenAt: r.written_at, derivedAt: r.derived_at };
}

export function readSkeletonMeta(db: Database): SkeletonMeta {
  const r = db.prepare('SELECT store_version, reconcile_due_at, reconciled_at, lease_holder, lease_until FROM skeleton_state WHERE id = 1')
    .get<{ store_version: number; reconcile_due_at: number | null; reconciled_at: number | null; lease_holder: string | null; lease_until: number | null }>()!;
  return {
    storeVersion: r.store_version,
    reconcileDueAt: r.reconcile_due_at,
    reconciledAt: r.reconciled_at,
    lease: r.lease_holder !== null && r.lease_until !== null ? { holder: r.lease_holder, until: r.lease_until } : null,
  };
}

function bump(db: Database): number {
  db.prepare('UPDATE skeleton_state SET store_version = store_version + 1 WHERE id = 1').run();
  return readSkeletonMeta(db).storeVersion;
}

function expectVersion(db: Database, given: number): void {
  const current = readSkeletonMeta(db).storeVersion;
  if (given !== current) throw new SkeletonConflictError(given, current);
}

function write(db: Database, state: SkeletonStateName, rooms: Room[], derived: Derived, now: number): void {
  db.prepare(
    `INSERT INTO skeleton (state, rooms, derived, written_at, derived_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (state) DO UPDATE SET rooms = excluded.rooms, derived = excluded.derived, written_at = excluded.written_at, derived_at = excluded.derived_at`,
  ).run(state, JSON.stringify(rooms), JSON.stringify(derived), now, now);
}

/** Proposes a candidate from the code map (or copies the ratified rooms) and stores it. */
export function proposeCandidate(db: Database, now: number, from: 'code' | 'ratified', options: CandidateOptions = {}): { storeVersion: number; skeleton: StoredSkeleton } {
  let rooms: Room[];
  if (from === 'ratified') {
    const ratified = readSkeleton(db, 'ratified');
    if (!ratified) throw new InvalidArgumentError('from: "ratified" needs a ratified skeleton and this brain has none; use from: "code"');
    rooms = ratified.rooms;
  } else {
    rooms = proposeRooms(db, options);
  }
  write(db, 'candidate', rooms, deriveSkeleton(db, rooms), now);
  return { storeVersion: bump(db), skeleton: readSkeleton(db, 'candidate')! };
}

export function editCandidate(db: Database, storeVersion: number, edits: SkeletonEdit[], now: number): { storeVersion: number; skeleton: StoredSkeleton } {
  const candidate = readSkeleton(db, 'candidate');
  if (!candidate) throw new NoCandidateError('skeleton_edit', readSkeleton(db, 'ratified') !== null);
  expectVersion(db, storeVersion);
  const rooms = applyEdits(candidate.rooms, edits);
  write(db, 'candidate', rooms, deriveSkeleton(db, rooms), now);
  return { storeVersion: bump(db), skeleton: readSkeleton(db, 'candidate')! };
}

/** The candidate becomes the ratified skeleton; the candidate row is gone after. */
export function ratifyCandidate(db: Database, storeVersion: number, now: number): { storeVersion: number; skeleton: StoredSkeleton } {
  const candidate = readSkeleton(db, 'candidate');
  if (!candidate) throw new NoCandidateError('skeleton_ratify', readSkeleton(db, 'ratified') !== null);
  expectVersion(db, storeVersion);
  checkRooms(candidate.rooms);
  write(db, 'ratified', candidate.rooms, deriveSkeleton(db, candidate.rooms), now);
  db.prepare("DELETE FROM skeleton WHERE state = 'candidate'").run();
  db.prepare('UPDATE skeleton_state SET reconciled_at = ? WHERE id = 1').run(now);
  return { storeVersion: bump(db), skeleton: readSkeleton(db, 'ratified')! };
}

export type LeaseAction = 'take' | 'renew' | 'release';
export type LeaseAnswer =
  | { held: true; holder: string; until: number }
  | { held: false; released?: boolean; holder: string | null; until: number | null };

/** The advisory candidate lease: it never blocks anyone; a second taker is told who holds it. */
export function candidateLease(db: Database, action: LeaseAction, holder: string, ttlS: number, now: number): LeaseAnswer {
  if (!Number.isInteger(ttlS) || ttlS < 1 || ttlS > MAX_LEASE_TTL_S) {
    throw new InvalidArgumentError(`ttl_s must be a whole number of seconds from 1 to ${MAX_LEASE_TTL_S}, got ${String(ttlS)}`);
  }
  const { lease } = readSkeletonMeta(db);
  const live = lease !== null && lease.until > now;
  const mine = lease !== null && lease.holder === holder;
  if (action === 'release') {
    if (!mine) return { held: false, released: false, holder: live ? lease!.holder : null, until: live ? lease!.until : null };
    db.prepare('UPDATE skeleton_state SET lease_holder = NULL, lease_until = NULL WHERE id = 1').run();
    return { held: false, released: true, holder: null, until: null };
  }
  if (live && !mine) return { held: false, holder: lease!.holder, until: lease!.until };
  const until = now + ttlS * 1000;
  db.prepare('UPDATE skeleton_state SET lease_holder = ?, lease_until = ? WHERE id = 1').run(holder, until);
  return { held: true, holder, until };
}

export type ReconcileRead =
  | { kind: 'skip'; reason: 'no_skeleton' | 'candidate_only' }
  | { kind: 'yield'; holder: string; until: number }
  | { kind: 'derived'; storeVersion: number; derived: Derived; drift: { violations: Violation[]; unroomed: string[] } };

/**
 * The reconciler's read: skip (no ratified skeleton: a candidate's freshness is a re-scan, not a
 * reconcile), yield (a live candidate lease), or the
 * ratified skeleton's derived data recomputed now, with the version it was read at and what
 * drifted since the last derive. Reads only: the write is `writeReconciled`, keyed on the version.
 */
export function readForReconcile(db: Database, now: number): ReconcileRead {
  const meta = readSkeletonMeta(db);
  const ratified = readSkeleton(db, 'ratified');
  if (!ratified) return { kind: 'skip', reason: readSkeleton(db, 'candidate') ? 'candidate_only' : 'no_skeleton' };
  if (meta.lease && meta.lease.until > now) return { kind: 'yield', holder: meta.lease.holder, until: meta.lease.until };
  const derived = deriveSkeleton(db, ratified.rooms);
  return { kind: 'derived', storeVersion: meta.storeVersion, derived, drift: driftBetween(ratified.derived, derived) };
}

/** Writes a reconcile's derived data if the version did not move; the rooms are never touched. */
export function writeReconciled(db: Database, storeVersion: number, derived: Derived, now: number): { ok: true; storeVersion: number } | { ok: false; current: number } {
  const current = readSkeletonMeta(db).storeVersion;
  if (current !== storeVersion || !readSkeleton(db, 'ratified')) return { ok: false, current };
  db.prepare("UPDATE skeleton SET derived = ?, derived_at = ? WHERE state = 'ratified'").run(JSON.stringify(derived), now);
  db.prepare('UPDATE skeleton_state SET reconciled_at = ? WHERE id = 1').run(now);
  return { ok: true, storeVersion: bump(db) };
}

/** Sets the persisted reconcile deadline (a tick that changed the map pushes it). */
export function setReconcileDeadline(db: Database, at: number): void {
  db.prepare('UPDATE skeleton_state SET reconcile_due_at = ? WHERE id = 1').run(at);
}

/** Clears the deadline unless a later tick pushed it past `atMost` meanwhile. */
export function clearReconcileDeadline(db: Database, atMost: number): void {
  db.prepare('UPDATE skeleton_state SET reconcile_due_at = NULL WHERE id = 1 AND reconcile_due_at <= ?').run(atMost);
}
