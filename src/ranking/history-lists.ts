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
 *             does not ride on every pair; commits of more than CO_CHANGE_MAX_FILES count not
 *   messages  files touched by the commits whose messages best match the task's words (the
 *             same full-text query as the code's), each commit counting by its rank and
 *             divided by the square root of its size
 *
 * A brain without history (non-git roots, a shallow clone, nothing mined yet) gets none of
 * them and ranks as before. Weights are in weights.ts with the eval runs that chose them.
 */
import type { Database } from '../store/index.js';
import { churnOf, commitsMatching, historyHeads, pathsOf, touchesOf } from '../history/index.js';
import * as W from './weights.js';

export interface HistoryCandidate {
  rootId: number;
  path: string;
}

export interface HistoryListsInput<C extends HistoryCandidate> {
  db: Database;
  /** The full-text query the code was asked (ftsMatchOf); '' for none. */
  match: string;
  /** Every candidate so far. */
  candidates: readonly C[];
  /** The best `n` candidates by the fused score so far. */
  headOf(n: number): C[];
  /** The candidate for a mapped file (made and added when new), or undefined when the path is not mapped. */
  candidateAt(rootId: number, path: string): C | undefined;
  /** Fuses a list; `ranks[i]` is entry i's rank (tied entries share one). */
  addList(list: C[], weight: number, ranks: readonly number[]): void;
}

export function addHistoryLists<C extends HistoryCandidate>(input: HistoryListsInput<C>): void {
  const heads = historyHeads(input.db);
  if (heads.size === 0) return;
  const { db } = input;
  const add = (scores: Map<C, number>, weight: number) => {
    const sorted = [...scores.entries()].sort((a, b) => b[1] - a[1] || a[0].path.localeCompare(b[0].path));
    // Competition ranks (1224): files a list scores the same get the same credit.
    const ranks: number[] = [];
    for (const [i, [, s]] of sorted.entries()) ranks.push(i > 0 && s === sorted[i - 1]![1] ? ranks[i - 1]! : i);
    input.addList(sorted.map(([c]) => c), weight, ranks);
  };

  if (W.RECENCY_LIST_WEIGHT > 0) {
    const scores = new Map<C, number>();
    for (const c of input.candidates) {
      const top = heads.get(c.rootId);
      if (top === undefined) continue;
      let s = 0;
      for (const t of touchesOf(db, c.rootId, c.path, W.RECENT_TOUCHES)) s += 0.5 ** ((top - t.commitId) / W.RECENCY_HALF_LIFE_COMMITS);
      if (s > 0) scores.set(c, s);
    }
    add(scores, W.RECENCY_LIST_WEIGHT);
  }

  if (W.CO_CHANGE_LIST_WEIGHT > 0) {
    const scores = new Map<C, number>();
    const churn = new Map<C, number>();
    for (const [rank, src] of input.headOf(W.CO_CHANGE_SOURCES).entries()) {
      if (!heads.has(src.rootId)) continue;
      for (const t of touchesOf(db, src.rootId, src.path, W.CO_CHANGE_COMMITS)) {
        if (t.files < 2 || t.files > W.CO_CHANGE_MAX_FILES) continue;
        for (const p of pathsOf(db, t.commitId)) {
          if (p === src.path) continue;
          const c = input.candidateAt(src.rootId, p);
          if (!c) continue;
          if (!churn.has(c)) churn.set(c, churnOf(db, c.rootId, c.path));
          scores.set(c, (scores.get(c) ?? 0) + 1 / ((t.files - 1) * (rank + 1)));
        }
      }
    }
    for (const [c, s] of scores) scores.set(c, s / Math.sqrt(Math.max(1, churn.get(c)!)));
    add(scores, W.CO_CHANGE_LIST_WEIGHT);
  }

  if (W.MESSAGE_LIST_WEIGHT > 0 && input.match !== '') {
    const scores = new Map<C, number>();
    for (const [rank, m] of commitsMatching(db, input.match, W.MESSAGE_COMMITS).entries()) {
      if (m.files > W.MESSAGE_MAX_FILES) continue;
      for (const p of pathsOf(db, m.commitId)) {
        const c = input.candidateAt(m.rootId, p);
        if (c) scores.set(c, (scores.get(c) ?? 0) + 1 / ((rank + 1) * Math.sqrt(m.files)));
      }
    }
    add(scores, W.MESSAGE_LIST_WEIGHT);
  }
}
