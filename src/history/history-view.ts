/**
 * `north`'s word on each root's history lists (src/history/): what ranking has to go on, so an
 * agent knows when recall runs without history (a shallow clone, a stat root, a failed mining).
 */
import type { Database } from '../store/index.js';
import { readHistoryStates } from './history-store.js';

export interface RootHistoryView {
  /** ready: mined up to `head`; shallow: a shallow clone, ranked without history; none: not a git root or nothing mined yet; failed: the last mining failed (`note`). */
  status: 'ready' | 'shallow' | 'none' | 'failed';
  commits: number;
  head?: string;
  /** Only the newest HISTORY_MAX_COMMITS are kept. */
  bounded?: true;
  note?: string;
}

export function historyOfRoots<R extends { id: number; path: string; backend: string | null }>(db: Database, roots: readonly R[]): (Omit<R, 'id'> & { history: RootHistoryView })[] {
  const states = new Map(readHistoryStates(db).map((s) => [s.rootId, s]));
  return roots.map(({ id, ...rest }) => {
    const s = states.get(id);
    let history: RootHistoryView;
    if (!s) history = { status: 'none', commits: 0 };
    else if (s.status === 'shallow') history = { status: 'shallow', commits: 0, note: 'a shallow clone: recall ranks without history (git fetch --unshallow to add it)' };
    else if (s.status === 'failed') history = { status: 'failed', commits: s.commits, note: s.note ?? 'mining failed' };
    else history = { status: 'ready', commits: s.commits, ...(s.head ? { head: s.head } : {}), ...(s.bounded ? { bounded: true as const } : {}) };
    return { ...rest, history };
  });
}
