/**
 * Localisation metrics over a ranked file list, as the field reports them for issues whose fix
 * changes one or more files:
 *
 *   Acc@k     1 when every gold file is among the first k (a task fixed in two files needs both)
 *   Recall@k  the share of gold files among the first k
 *   RR        1 / the rank of the first gold file anywhere in the list, else 0 (MRR is its mean)
 */

export const ACC_KS = [1, 3, 5, 10] as const;
export const RECALL_KS = [5, 10] as const;

export interface IssueScores {
  acc: Record<(typeof ACC_KS)[number], number>;
  recall: Record<(typeof RECALL_KS)[number], number>;
  rr: number;
}

export function scoreIssue(ranked: readonly string[], gold: readonly string[]): IssueScores {
  const top = [...new Set(ranked)];
  const want = new Set(gold);
  const rankOf = (p: string) => top.indexOf(p);
  const ranks = [...want].map(rankOf);
  const within = (k: number) => ranks.filter((r) => r >= 0 && r < k).length;
  const acc = {} as IssueScores['acc'];
  for (const k of ACC_KS) acc[k] = want.size > 0 && within(k) === want.size ? 1 : 0;
  const recall = {} as IssueScores['recall'];
  for (const k of RECALL_KS) recall[k] = want.size === 0 ? 0 : within(k) / want.size;
  const first = Math.min(...ranks.map((r) => (r < 0 ? Infinity : r)));
  return { acc, recall, rr: Number.isFinite(first) ? 1 / (first + 1) : 0 };
}

export function meanIssueScores(all: readonly IssueScores[]): IssueScores {
  const n = all.length || 1;
  const mean = (f: (s: IssueScores) => number) => all.reduce((t, s) => t + f(s), 0) / n;
  const acc = {} as IssueScores['acc'];
  for (const k of ACC_KS) acc[k] = mean((s) => s.acc[k]);
  const recall = {} as IssueScores['recall'];
  for (const k of RECALL_KS) recall[k] = mean((s) => s.recall[k]);
  return { acc, recall, rr: mean((s) => s.rr) };
}
