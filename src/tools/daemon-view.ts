/**
 * What `daemon_start`, `daemon_stop` and `daemon_status` answer, and what `gardener daemon`
 * prints: one view of a brain's opt-in and how fresh it honestly is. It imports no tool
 * machinery (no zod), so the CLI takes it without loading the tools.
 */
import type { Brain } from '../brain/index.js';
import { countBacklog, type VigilState } from '../store/index.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function daemonView(brain: Brain, v: VigilState, watchBackend: string) {
  const watched = watchBackend !== 'none';
  return {
    brain: brain.id,
    armed: v.armed,
    armed_at: iso(v.armedAt),
    last_tick_at: iso(v.lastTickAt),
    fresh_as_of: iso(v.lastAdvancedAt),
    backlog: countBacklog(brain.reader),
    tick_in_flight: v.tickInFlight,
    watch_backend: watchBackend,
    freshness: watched
      ? `advances on file events (${watchBackend}) and on tool traffic, each a tick of the owner that watches this brain`
      : 'advances when seen: each tool call on an armed brain schedules a tick (recall verbs do not); ' +
        'no live watcher holds this brain, so nothing claims continuous monitoring',
  };
}

