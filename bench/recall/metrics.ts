/**
 * Recall metrics over ranked file lists. A task's answer is the set of source files its commit
 * changed; a ranking is a list of paths, best first.
 *
 *   hit@k     1 when any answer file is among the first k
 *   recall@k  the share of answer files among the first k
 *   MRR       1 / the rank of the first answer file within the first MRR_DEPTH, else 0
 */

/** How deep the reciprocal rank looks: past ten files an agent no longer reads the list. */
export const MRR_DEPTH = 10;

export interface TaskScores {
  hit1: number;
  hit5: number;
  recall5: number;
  rr: number;
}

export function scoreRanking(ranked: readonly string[], answer: ReadonlySet<string>): TaskScores {
  const top = dedupe(ranked);
  const found = (k: number) => top.slice(0, k).filter((p) => answer.has(p)).length;
  const first = top.findIndex((p) => answer.has(p));
  return {
    hit1: found(1) > 0 ? 1 : 0,
    hit5: found(5) > 0 ? 1 : 0,
    recall5: answer.size === 0 ? 0 : found(5) / answer.size,
    rr: first >= 0 && first < MRR_DEPTH ? 1 / (first + 1) : 0,
  };
}

/** Paths in first-seen order (seek lists a file once per hit). */
export function dedupe(paths: readonly string[]): string[] {
  return [...new Set(paths)];
}

export function meanScores(all: readonly TaskScores[]): TaskScores {
  const n = all.length || 1;
  const sum = (f: (s: TaskScores) => number) => all.reduce((t, s) => t + f(s), 0) / n;
  return { hit1: sum((s) => s.hit1), hit5: sum((s) => s.hit5), recall5: sum((s) => s.recall5), rr: sum((s) => s.rr) };
}

/** Nearest-rank percentile (p in 0..100); NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}
