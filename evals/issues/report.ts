/**
 * The issue eval's summary: metrics per group (overall, per language of the first gold file,
 * per repository), delegate against BM25 in the same run, the answer's size and time; and the
 * targets of issue 52 checked against them. Text tables in markdown, to paste or to read.
 */
import { ACC_KS, meanIssueScores, RECALL_KS, type IssueScores } from './metrics.js';
import type { IssueResult, System } from './run-issues.js';
import { percentile } from '../../bench/recall/metrics.js';

export interface Group {
  name: string;
  tasks: number;
  scores: Record<System, IssueScores>;
  delegateMsP50: number;
  answerCharsP50: number;
}

function group(name: string, results: readonly IssueResult[]): Group {
  return {
    name,
    tasks: results.length,
    scores: { delegate: meanIssueScores(results.map((r) => r.scores.delegate)), bm25: meanIssueScores(results.map((r) => r.scores.bm25)) },
    delegateMsP50: percentile(results.map((r) => r.delegateMs), 50),
    answerCharsP50: percentile(results.map((r) => r.answerChars), 50),
  };
}

function groupsBy(results: readonly IssueResult[], key: (r: IssueResult) => string): Group[] {
  const m = new Map<string, IssueResult[]>();
  for (const r of results) m.set(key(r), [...(m.get(key(r)) ?? []), r]);
  return [...m.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([k, v]) => group(k, v));
}

export interface Summary {
  overall: Group;
  byLanguage: Group[];
  byRepo: Group[];
  targets: { what: string; measured: string; met: boolean }[];
}

export function summarize(results: readonly IssueResult[]): Summary {
  const overall = group('overall', results);
  const byLanguage = groupsBy(results, (r) => r.language);
  const byRepo = groupsBy(results, (r) => r.repo);
  const d = overall.scores.delegate;
  const b = overall.scores.bm25;
  const f = (n: number) => n.toFixed(3);
  const targets = [
    { what: 'delegate Acc@5 ≥ 0.85 (overall)', measured: f(d.acc[5]), met: d.acc[5] >= 0.85 },
    { what: 'delegate Acc@5 ≥ 1.35× BM25 (overall)', measured: `${f(d.acc[5])} vs ${f(b.acc[5])} (${(d.acc[5] / (b.acc[5] || 1)).toFixed(2)}×)`, met: d.acc[5] >= 1.35 * b.acc[5] },
    { what: 'delegate Acc@1 ≥ 0.60 (overall)', measured: f(d.acc[1]), met: d.acc[1] >= 0.6 },
    { what: 'no repository below BM25 (Acc@5)', measured: byRepo.filter((g) => g.scores.delegate.acc[5] < g.scores.bm25.acc[5]).map((g) => g.name).join(', ') || 'none below', met: byRepo.every((g) => g.scores.delegate.acc[5] >= g.scores.bm25.acc[5]) },
  ];
  return { overall, byLanguage, byRepo, targets };
}

const n3 = (x: number) => x.toFixed(2);

export function groupTable(groups: readonly Group[]): string[] {
  const accs = ACC_KS.map((k) => `Acc@${k} d / b`).join(' | ');
  const recalls = RECALL_KS.map((k) => `R@${k} d / b`).join(' | ');
  const lines = [`| group | tasks | ${accs} | ${recalls} | MRR d / b | delegate p50 | answer chars p50 |`, `| :-- | --: |${' --: |'.repeat(ACC_KS.length + RECALL_KS.length + 3)}`];
  for (const g of groups) {
    const d = g.scores.delegate;
    const b = g.scores.bm25;
    const cells = [
      ...ACC_KS.map((k) => `${n3(d.acc[k])} / ${n3(b.acc[k])}`),
      ...RECALL_KS.map((k) => `${n3(d.recall[k])} / ${n3(b.recall[k])}`),
      `${n3(d.rr)} / ${n3(b.rr)}`,
      `${g.delegateMsP50.toFixed(0)} ms`,
      `${Math.round(g.answerCharsP50)}`,
    ];
    lines.push(`| ${g.name === 'overall' ? '**overall**' : g.name} | ${g.tasks} | ${cells.join(' | ')} |`);
  }
  return lines;
}

export function formatSummary(s: Summary, skipped: number): string[] {
  return [
    `*d / b*: delegate / BM25 over whole code files (tests included, docs and data not), in the same run. Acc@k: every gold file in the first k; R@k: the share of gold files in the first k; MRR: 1 / rank of the first gold file.`,
    '',
    ...groupTable([s.overall]),
    '',
    'By language (of the first gold file):',
    '',
    ...groupTable(s.byLanguage),
    '',
    'By repository:',
    '',
    ...groupTable(s.byRepo),
    '',
    '| target | measured | |',
    '| :-- | :-- | :-- |',
    ...s.targets.map((t) => `| ${t.what} | ${t.measured} | ${t.met ? '✅ met' : '❌ missed'} |`),
    '',
    `${skipped} tasks skipped (reasons in the JSON report).`,
  ];
}
