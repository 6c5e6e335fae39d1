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
  /** Said only when some returned files are pending: an instruction that earns its tokens. */
  note?: string;
}

const PENDING_NOTE = 'files in `pending` changed since they were mapped: read them directly';

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
  return withPending(
    { fresh_as_of: iso(v.lastAdvancedAt), last_tick_at: iso(v.lastTickAt), backlog, pending: [], armed: v.armed },
    [...pending],
  );
}

/** The same freshness, naming only those pending files that are among `paths` (what was sent). */
export function narrowFreshness(f: Freshness, paths: Iterable<string>): Freshness {
  const sent = new Set(paths);
  return withPending(f, f.pending.filter((p) => sent.has(p)));
}

function withPending(f: Freshness, pending: string[]): Freshness {
  const { note: _old, ...rest } = f;
  return pending.length > 0 ? { ...rest, pending, note: PENDING_NOTE } : { ...rest, pending };
}
