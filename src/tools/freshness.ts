/**
 * Freshness, attached to every recall result: when the map last caught up with the folder,
 * how many paths wait in the backlog, and which of the returned files are pending re-ingest
 * (read those directly: their lines in the map may be stale). Honest wording: the map
 * advances when seen (traffic, ticks, a live watcher's burst), never by a claim of monitoring.
 */
import type { Brain } from '../brain/index.js';
import { countBacklog, pendingAmong, listRoots, readVigil } from '../store/index.js';

export interface Freshness {
  fresh_as_of: string | null;
  last_tick_at: string | null;
  backlog: number;
  pending: string[];
  armed: boolean;
  note: string;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** `paths` are root-relative paths of the results (any root of the brain). */
export function freshnessOf(brain: Brain, paths: Iterable<string> = []): Freshness {
  const db = brain.reader;
  const v = readVigil(db);
  const wanted = [...new Set(paths)];
  const pending = new Set<string>();
  if (wanted.length > 0) {
    for (const root of listRoots(db)) for (const p of pendingAmong(db, root.id, wanted)) pending.add(p);
  }
  const backlog = countBacklog(db);
  return {
    fresh_as_of: iso(v.lastAdvancedAt),
    last_tick_at: iso(v.lastTickAt),
    backlog,
    pending: [...pending],
    armed: v.armed,
    note:
      pending.size > 0
        ? 'files in `pending` changed since they were mapped: read them directly'
        : 'the map advances when seen (traffic on an armed brain, ticks, scans), not continuously',
  };
}
