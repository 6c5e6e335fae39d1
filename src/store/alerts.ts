/** Alerts: what the vigil wants a human or an agent to know (a failed tick, an unreadable file). */
import type { Database } from './sqlite-adapter.js';

export interface AlertInput {
  /** A stable snake_case code, e.g. `tick_failed`, `ingest_failed`. */
  code: string;
  message: string;
  path?: string | null;
}
export interface Alert extends AlertInput {
  id: number;
  createdAt: number;
  ackedAt: number | null;
}

/** Keeps the table bounded: a vigil failing every tick must not grow the store forever. */
export const MAX_ALERTS = 1000;

export function recordAlert(db: Database, alert: AlertInput, now: number): number {
  db.prepare('INSERT INTO alerts (code, message, path, created_at) VALUES (?, ?, ?, ?)').run(
    alert.code, alert.message, alert.path ?? null, now,
  );
  const id = db.prepare('SELECT last_insert_rowid() AS id').get<{ id: number }>()!.id;
  db.prepare('DELETE FROM alerts WHERE id <= ?').run(id - MAX_ALERTS);
  return id;
}

export function listAlerts(db: Database, options: { includeAcked?: boolean } = {}): Alert[] {
  const where = options.includeAcked ? '' : 'WHERE acked_at IS NULL';
  return db
    .prepare(`SELECT id, code, message, path, created_at, acked_at FROM alerts ${where} ORDER BY id`)
    .all<{ id: number; code: string; message: string; path: string | null; created_at: number; acked_at: number | null }>()
    .map((a) => ({ id: a.id, code: a.code, message: a.message, path: a.path, createdAt: a.created_at, ackedAt: a.acked_at }));
}

/** Marks an alert seen; false when there is no such alert. */
export function ackAlert(db: Database, id: number, now: number): boolean {
  return db.prepare('UPDATE alerts SET acked_at = ? WHERE id = ? AND acked_at IS NULL').run(now, id).changes > 0
    || db.prepare('SELECT 1 AS x FROM alerts WHERE id = ?').get(id) !== undefined;
}
