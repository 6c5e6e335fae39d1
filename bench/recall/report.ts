/**
 * The recall run as text: a terminal table (`formatText`) and the body of docs/recall.md
 * (`formatMarkdown`), both from the JSON object main.ts prints, so the doc script can render
 * a saved run. Only aggregates and repository names appear: no commit text.
 */
import type { RecallSummary, Summary } from './summarize.js';
import { MRR_DEPTH } from './metrics.js';

export interface RecallJson extends RecallSummary {
  date: string;
  seed: number;
  commits_per_repo: number;
  seconds: number;
  runtime: string;
  repos: { name: string; commits: number; qualifying: number; tasks: number }[];
}

const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '—');
const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : '—');

function rows(summaries: readonly Summary[]): string[][] {
  return summaries.map((s) => {
    const { delegate: d, seek: k, bm25: b } = s.scores;
    return [
      s.group,
      String(s.tasks),
      `${f2(d.hit1)} / ${f2(k.hit1)} / ${f2(b.hit1)}`,
      `${f2(d.hit5)} / ${f2(k.hit5)} / ${f2(b.hit5)}`,
      `${f2(d.recall5)} / ${f2(k.recall5)} / ${f2(b.recall5)}`,
      `${f2(d.rr)} / ${f2(k.rr)} / ${f2(b.rr)}`,
      `${ms(s.delegate_p50_ms)} / ${ms(s.delegate_p99_ms)}`,
      `${Math.round(s.answer_tokens_p50)} / ${Math.round(s.answer_tokens_max)}`,
    ];
  });
}

const HEADER = ['group', 'tasks', 'hit@1 d/s/b', 'hit@5 d/s/b', 'recall@5 d/s/b', `MRR@${MRR_DEPTH} d/s/b`, 'delegate p50 / p99', 'answer tokens p50 / max'];

export function formatText(out: RecallJson): string[] {
  const lines = [`recall eval, seed ${out.seed}, ${out.overall.tasks} tasks (d = delegate, s = seek, b = BM25)`];
  const body = [HEADER, ...rows(out.by_repo), ...rows(out.by_language.map((l) => ({ ...l, group: `lang ${l.group}` }))), ...rows([out.overall])];
  const widths = HEADER.map((_, i) => Math.max(...body.map((r) => r[i]!.length)));
  for (const r of body) lines.push(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
  lines.push('');
  for (const t of out.targets) lines.push(`${t.met ? 'met   ' : 'MISSED'}  ${t.target}: ${t.measured}`);
  return lines;
}

const mdRow = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
const mdTable = (header: readonly string[], body: readonly (readonly string[])[]) =>
  [mdRow(header), mdRow(header.map((_, i) => (i === 0 ? ':--' : '--:'))), ...body.map(mdRow)].join('\n');

export function formatMarkdown(out: RecallJson): string {
  return [
    mdTable(HEADER, [...rows(out.by_repo), ...rows([{ ...out.overall, group: '**overall**' }])]),
    '',
    'By language (of the task\'s first answer file):',
    '',
    mdTable(HEADER, rows(out.by_language)),
    '',
    mdTable(['target', 'measured', ''], out.targets.map((t) => [t.target, t.measured, t.met ? '✅ met' : '❌ missed'])),
  ].join('\n');
}
