/** Counts that `status` and recall freshness report. */
import type { Database } from './sqlite-adapter.js';
import { countBacklog } from './backlog.js';

export interface BrainStats {
  files: number;
  symbols: number;
  imports: number;
  backlog: number;
  alerts: number;
}

export function readStatus(db: Database): BrainStats {
  const n = (sql: string) => db.prepare(sql).get<{ n: number }>()!.n;
  return {
    files: n('SELECT count(*) AS n FROM files'),
    symbols: n('SELECT coalesce(sum(symbol_count), 0) AS n FROM files'),
    imports: n('SELECT coalesce(sum(json_array_length(imports)), 0) AS n FROM files'),
    backlog: countBacklog(db),
    alerts: n('SELECT count(*) AS n FROM alerts WHERE acked_at IS NULL'),
  };
}
