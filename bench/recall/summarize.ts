/**
 * Per-repository, per-language and overall summaries of a recall run, and the targets
 * checked against them (issue 18: delegate hit@5 ≥ 1.2× BM25's and recall@5 and MRR ≥ 1.1×
 * overall; delegate and seek hit@5 at least BM25's in every repository; delegate answers within
 * budget).
 */
import { meanScores, percentile, type TaskScores } from './metrics.js';
import { SYSTEMS, type RepoRun, type System, type TaskResult } from './run-recall.js';
import type { DelegateLatency } from './delegate-latency.js';

/** delegate's median latency on the bench's 5000-file brain must stay under this (issue 7). */
export const DELEGATE_P50_TARGET_MS = 50;

/** delegate's overall hit@5 must beat the baseline's by this factor, recall@5 and MRR by the next (issue 18). */
export const DELEGATE_HIT5_FACTOR = 1.2;
export const DELEGATE_RECALL_MRR_FACTOR = 1.1;

export interface Summary {
  group: string;
  tasks: number;
  scores: Record<System, TaskScores>;
  delegate_p50_ms: number;
  delegate_p99_ms: number;
  seek_p50_ms: number;
  seek_p99_ms: number;
  answer_tokens_p50: number;
  answer_tokens_max: number;
  over_budget: number;
  files_p50: number;
}

export interface Target {
  target: string;
  measured: string;
  met: boolean;
}

export function summarize(group: string, tasks: readonly TaskResult[]): Summary {
  const scores = {} as Record<System, TaskScores>;
  for (const s of SYSTEMS) scores[s] = meanScores(tasks.map((t) => t.scores[s]));
  const ms = tasks.map((t) => t.delegateMs);
  const seekMs = tasks.map((t) => t.seekMs);
  const tokens = tasks.map((t) => t.answerTokens);
  return {
    group,
    tasks: tasks.length,
    scores,
    delegate_p50_ms: percentile(ms, 50),
    delegate_p99_ms: percentile(ms, 99),
    seek_p50_ms: percentile(seekMs, 50),
    seek_p99_ms: percentile(seekMs, 99),
    answer_tokens_p50: percentile(tokens, 50),
    answer_tokens_max: Math.max(0, ...tokens),
    over_budget: tasks.filter((t) => t.answerTokens > t.budgetTokens).length,
    files_p50: percentile(tasks.map((t) => t.files), 50),
  };
}

function groupBy(tasks: readonly TaskResult[], key: (t: TaskResult) => string): Summary[] {
  const groups = new Map<string, TaskResult[]>();
  for (const t of tasks) groups.set(key(t), [...(groups.get(key(t)) ?? []), t]);
  return [...groups.entries()].map(([g, ts]) => summarize(g, ts));
}

export interface RecallSummary {
  overall: Summary;
  by_repo: Summary[];
  by_language: Summary[];
  targets: Target[];
}

const f3 = (x: number) => x.toFixed(3);

export function summarizeRuns(runs: readonly RepoRun[], latency: DelegateLatency | null = null): RecallSummary {
  const tasks = runs.flatMap((r) => r.tasks);
  const overall = summarize('overall', tasks);
  const by_repo = runs.filter((r) => r.tasks.length > 0).map((r) => summarize(r.name, r.tasks));
  const by_language = groupBy(tasks, (t) => t.language).sort((a, b) => b.tasks - a.tasks);
  const targets: Target[] = [];
  {
    const d = overall.scores.delegate;
    const b = overall.scores.bm25;
    const k = DELEGATE_RECALL_MRR_FACTOR;
    targets.push(
      { target: `delegate hit@5 ≥ ${DELEGATE_HIT5_FACTOR}× BM25 (overall)`, measured: `${f3(d.hit5)} vs ${f3(DELEGATE_HIT5_FACTOR * b.hit5)}`, met: d.hit5 >= DELEGATE_HIT5_FACTOR * b.hit5 },
      { target: `delegate recall@5 ≥ ${k}× BM25 (overall)`, measured: `${f3(d.recall5)} vs ${f3(k * b.recall5)}`, met: d.recall5 >= k * b.recall5 },
      { target: `delegate MRR ≥ ${k}× BM25 (overall)`, measured: `${f3(d.rr)} vs ${f3(k * b.rr)}`, met: d.rr >= k * b.rr },
    );
  }
  for (const s of by_repo) {
    targets.push({ target: `delegate hit@5 ≥ BM25 (${s.group})`, measured: `${f3(s.scores.delegate.hit5)} vs ${f3(s.scores.bm25.hit5)}`, met: s.scores.delegate.hit5 >= s.scores.bm25.hit5 });
  }
  for (const s of [overall, ...by_repo]) {
    targets.push({ target: `seek hit@5 ≥ BM25 (${s.group})`, measured: `${f3(s.scores.seek.hit5)} vs ${f3(s.scores.bm25.hit5)}`, met: s.scores.seek.hit5 >= s.scores.bm25.hit5 });
  }
  targets.push({ target: 'delegate answers within budget', measured: `${overall.over_budget} of ${overall.tasks} over`, met: overall.over_budget === 0 });
  if (latency) {
    targets.push({ target: `delegate p50 ≤ ${DELEGATE_P50_TARGET_MS} ms on a ${latency.files}-file brain`, measured: `${latency.p50_ms.toFixed(1)} ms`, met: latency.p50_ms <= DELEGATE_P50_TARGET_MS });
  }
  return { overall, by_repo, by_language, targets };
}
