/**
 * The vigil's persisted state: the arming opt-in (off by default, kept in the brain's own
 * store so it survives restarts) and the tick lease.
 *
 * The lease is `tick_in_flight` plus the owner's pid. A process killed mid-tick leaves it set;
 * the next tick takes it over when the owner is dead or the lease is older than
 * TICK_LEASE_STALE_MS, so a crash never wedges a resume. A live owner makes other processes
 * skip their tick instead of racing it.
 */
import type { Database } from './sqlite-adapter.js';

/** A tick holding the lease longer than this is presumed lost (pid reuse, a hung process). */
export const TICK_LEASE_STALE_MS = 10 * 60_000;

export interface VigilState {
  armed: boolean;
  armedAt: number | null;
  lastTickAt: number | null;
  /** When a tick last left the map caught up with the folder (backlog empty): the freshness mark. */
  lastAdvancedAt: number | null;
  ticks: number;
  filesIngested: number;
  lastDetected: number;
  lastDrained: number;
  tickInFlight: boolean;
  tickOwnerPid: number | null;
  tickStartedAt: number | null;
}

export function readVigil(db: Database): VigilState {
  const r = db.prepare('SELECT * FROM vigil WHERE id = 1').get<Record<string, number | null>>()!;
  return {
    armed: r.armed === 1,
    armedAt: r.armed_at ?? null,
    lastTickAt: r.last_tick_at ?? null,
    lastAdvancedAt: r.last_advanced_at ?? null,
    ticks: r.ticks ?? 0,
    filesIngested: r.files_ingested ?? 0,
    lastDetected: r.last_detected ?? 0,
    lastDrained: r.last_drained ?? 0,
    tickInFlight: r.tick_in_flight === 1,
    tickOwnerPid: r.tick_owner_pid ?? null,
    tickStartedAt: r.tick_started_at ?? null,
  };
}

export function setArmed(db: Database, armed: boolean, now: number): VigilState {
  db.prepare('UPDATE vigil SET armed = ?, armed_at = ? WHERE id = 1').run(armed ? 1 : 0, armed ? now : null);
  return readVigil(db);
}

export type LeaseOutcome = { acquired: true; tookOverFrom: number | null } | { acquired: false; ownerPid: number };

/** Takes the tick lease for `pid`, unless another live process holds a fresh one. */
export function acquireTickLease(
  db: Database,
  pid: number,
  now: number,
  isAlive: (pid: number) => boolean = isProcessAlive,
): LeaseOutcome {
  const v = readVigil(db);
  let tookOverFrom: number | null = null;
  if (v.tickInFlight && v.tickOwnerPid !== null && v.tickOwnerPid !== pid) {
    const fresh = v.tickStartedAt !== null && now - v.tickStartedAt < TICK_LEASE_STALE_MS;
    if (fresh && isAlive(v.tickOwnerPid)) return { acquired: false, ownerPid: v.tickOwnerPid };
    tookOverFrom = v.tickOwnerPid;
  }
  db.prepare('UPDATE vigil SET tick_in_flight = 1, tick_owner_pid = ?, tick_started_at = ? WHERE id = 1').run(pid, now);
  return { acquired: true, tookOverFrom };
}

export interface TickCounts {
  detected: number;
  drained: number;
  /** Paths still waiting when the tick ended; the map counts as advanced only at zero. */
  backlogLeft: number;
}

/** Releases the lease (only if `pid` still holds it) and records the tick. */
export function releaseTickLease(db: Database, pid: number, now: number, counts: TickCounts | null): void {
  db.prepare('UPDATE vigil SET tick_in_flight = 0, tick_owner_pid = NULL, tick_started_at = NULL WHERE id = 1 AND tick_owner_pid = ?').run(pid);
  if (!counts) return;
  db.prepare(
    `UPDATE vigil SET last_tick_at = ?, ticks = ticks + 1, files_ingested = files_ingested + ?,
            last_detected = ?, last_drained = ?,
            last_advanced_at = CASE WHEN ? = 0 THEN ? ELSE last_advanced_at END
      WHERE id = 1`,
  ).run(now, counts.drained, counts.detected, counts.drained, counts.backlogLeft, now);
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
