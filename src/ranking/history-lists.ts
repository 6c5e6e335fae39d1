/**
 * The history lists (issue 18): ranked lists mined from the brain's own git history up to the
 * mapped commit (src/history/), fused with the others in rank-files.ts by reciprocal rank.
 *
 *   recency   candidates by how much and how lately they changed: each of a file's newest
 *             RECENT_TOUCHES commits counts 0.5^(age / RECENCY_HALF_LIFE_COMMITS), age in
 *             commits back from the head (churn and recency in one number)
 *   co-change files that changed together with the best few candidates: each shared commit
 *             counts 1 / (its other files), so a pair from a two-file commit outweighs one
 *             from a twenty-file sweep, and the sum is divided by the partner's own churn's
 *             square root, so a file that changes with everything (a changelog, an index)
 *             does not ride on every pair; commits of more than CO_CHANGE_MAX_FILES count not;
 *             the best CO_CHANGE_FILES are listed
 *   messages  files touched by the commits whose messages best match the task's words (the
 *             same full-text query as the code's), each commit counting by its rank and
 *             divided by the square root of its size
 *
 * A brain without history (non-git roots, a shallow clone, nothing mined yet) gets none of
 * them (rank-files.ts then gives a small brain's text list SMALL_BRAIN_TEXT_LIST_WEIGHT).
 * Weights are in weights.ts with the eval runs that chose them.
 */
import type { Database } from '../store/index.js';
import { churnOf, commitsMatching, historyHeads, pathsOf, recentCommitIds, touchesOf } from '../history/index.js';
import * as W from './weights.js';

export interface HistoryCandidate {
  rootId: number;
  path: string;
}

export interface HistoryListsInput<C extends HistoryCandidate> {
  db: Database;
  /** The full-text query the code was asked (ftsMatchOf); '' for none. */
  match: string;
  /** An issue's title as a full-text query (its rarest words): past commits whose messages match the title. */
  titleMatch?: string;
  /** Every candidate so far. */
  candidates: readonly C[];
  /** The best `n` candidates by the fused score so far. */
  headOf(n: number): C[];
  /** The candidate for a mapped file (made and added when new), or undefined when the path is not mapped. */
  candidateAt(rootId: number, path: string): C | undefined;
  /** Fuses a list; `ranks[i]` is entry i's rank (tied entries share one). */
  addList(list: C[], weight: number, ranks: readonly number[], name: string): void;
}

/** True when some root has history to rank by. */
export function hasHistory(db: Database): boolean {
  return historyHeads(db).size > 0;
}

export function addHistoryLists<C extends HistoryCandidate>(input: HistoryListsInput<C>): void {
  const heads = historyHeads(input.db);
  if (heads.size === 0) return;
  const { db } = input;
  const add = (scores: Map<C, number>, weight: number, name: string) => {
    const sorted = [...scores.entries()].sort((a, b) => b[1] - a[1] || a[0].path.localeCompare(b[0].path));
    // Competition ranks (1224): files a list scores the same get the same credit.
    const ranks: number[] = [];
    for (const [i, [, s]] of sorted.entries()) ranks.push(i > 0 && s === sorted[i - 1]![1] ? ranks[i - 1]! : i);
    input.addList(sorted.map(([c]) => c), weight, ranks, name);
  };

  if (W.RECENCY_LIST_WEIGHT > 0) {
    const scores = new Map<C, number>();
    for (const c of input.candidates) {
      const top = heads.get(c.rootId);
      if (top === undefined) continue;
      let s = 0;
      for (const id of recentCommitIds(db, c.rootId, c.path, W.RECENT_TOUCHES)) s += 0.5 ** ((top - id) / W.RECENCY_HALF_LIFE_COMMITS);
      if (s > 0) scores.set(c, s);
    }
    add(scores, W.RECENCY_LIST_WEIGHT, 'recency');
  }

  // Paths are scored first and only the best `limit` become candidates: each new candidate is
  // a file row read and its definitions parsed, and a list's tail earns next to nothing.
  const resolve = (scores: Map<string, { rootId: number; path: string; score: number }>, limit: number, adjust = (_c: C, s: number) => s) => {
    const out = new Map<C, number>();
    for (const e of [...scores.values()].sort((a, b) => b.score - a.score || a.path.localeCompare(b.path))) {
      if (out.size >= limit) break;
      const c = input.candidateAt(e.rootId, e.path);
      if (c) out.set(c, adjust(c, e.score));
    }
    return out;
  };
  const bump = (scores: Map<string, { rootId: number; path: string; score: number }>, rootId: number, path: string, by: number) => {
    const key = `${rootId}\0${path}`;
    const e = scores.get(key);
    if (e) e.score += by;
    else scores.set(key, { rootId, path, score: by });
  };

  if (W.CO_CHANGE_LIST_WEIGHT > 0) {
    const scores = new Map<string, { rootId: number; path: string; score: number }>();
    for (const [rank, src] of input.headOf(W.CO_CHANGE_SOURCES).entries()) {
      if (!heads.has(src.rootId)) continue;
      for (const t of touchesOf(db, src.rootId, src.path, W.CO_CHANGE_COMMITS)) {
        if (t.files < 2 || t.files > W.CO_CHANGE_MAX_FILES) continue;
        for (const p of pathsOf(db, t.commitId)) if (p !== src.path) bump(scores, src.rootId, p, 1 / ((t.files - 1) * (rank + 1)));
      }
    }
    // The partner's own churn divides its pairs: what changes with everything says little.
    // (Counted for the best few by pairs alone: a count per partner of fifty commits adds up.)
    const best = [...scores.entries()].sort((a, b) => b[1].score - a[1].score || a[1].path.localeCompare(b[1].path)).slice(0, W.CO_CHANGE_FILES * 3);
    const kept = new Map(best);
    for (const e of kept.values()) e.score /= Math.sqrt(Math.max(1, churnOf(db, e.rootId, e.path)));
    add(resolve(kept, W.CO_CHANGE_FILES), W.CO_CHANGE_LIST_WEIGHT, 'cochange');
  }

  const messages = (match: string, weight: number, name: string) => {
    if (weight <= 0 || match === '') return;
    const scores = new Map<string, { rootId: number; path: string; score: number }>();
    for (const [rank, m] of commitsMatching(db, match, W.MESSAGE_COMMITS).entries()) {
      if (m.files > W.MESSAGE_MAX_FILES) continue;
      for (const p of pathsOf(db, m.commitId)) bump(scores, m.rootId, p, 1 / ((rank + 1) * Math.sqrt(m.files)));
    }
    add(resolve(scores, W.MESSAGE_FILES), weight, name);
  };
  messages(input.match, W.MESSAGE_LIST_WEIGHT, 'messages');
  messages(input.titleMatch ?? '', W.TITLE_MESSAGE_LIST_WEIGHT, 'messages-title');
}
