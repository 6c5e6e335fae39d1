/**
 * The stage table of docs/benchmarks.md ("where the tick's time goes"): one row per stage of
 * the largest burst's tick, from the bench's medians, and beside it the same burst of an
 * earlier run when one is given (`update-bench-doc.mjs --before before.json`): a before/after
 * profile in the page, both columns numbers the bench produced. Stages an older bench did not
 * time show as —.
 */
import { GROUPED } from './number-format.js';
import type { BenchJson, BenchJsonRun } from './shape.js';

const { fmt } = GROUPED;
const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
const has = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const ms = (x: number | undefined) => (has(x) ? `${fmt(x)} ms` : '—');
const times = (x: number | undefined) => (has(x) ? `${x.toFixed(2)}×` : '—');

/** A run row as an older bench may have written it: any field can be missing. */
type Run = Partial<BenchJsonRun>;

/** [label, value of a run row] for each stage, in the order a tick runs them. */
const STAGES: readonly [string, (r: Run) => string][] = [
  ['**tick**', (r) => ms(r.total_ms)],
  ['detect', (r) => ms(r.detect_ms)],
  ['&nbsp;&nbsp;waiting on git', (r) => ms(r.detect_git_ms)],
  ['&nbsp;&nbsp;the rest (spawn, parse, stat cache, push)', (r) => ms(has(r.detect_git_ms) && has(r.detect_ms) ? r.detect_ms - r.detect_git_ms : undefined)],
  ['drain', (r) => ms(r.drain_ms)],
  ["&nbsp;&nbsp;waiting on the writer's commits", (r) => ms(r.commit_ms)],
  ['&nbsp;&nbsp;&nbsp;&nbsp;in its transactions (writer thread)', (r) => ms(r.commit_work_ms)],
  ['&nbsp;&nbsp;&nbsp;&nbsp;crossing threads, queued behind staged batches and other calls', (r) => ms(has(r.commit_work_ms) && has(r.commit_ms) ? r.commit_ms - r.commit_work_ms : undefined)],
  ['&nbsp;&nbsp;other writer round trips (peek, lease, deadline)', (r) => ms(r.writer_other_ms)],
  ['&nbsp;&nbsp;waiting on the pool, scheduling', (r) => ms(has(r.writer_other_ms) && has(r.drain_ms) && has(r.commit_ms) ? r.drain_ms - r.commit_ms - r.writer_other_ms : undefined)],
  ['pool work (thread time, beside the drain)', (r) => ms(r.hash_work_ms)],
  ['batches', (r) => (has(r.batches) ? String(r.batches) : '—')],
  ['floor (git status + one-thread read and hash)', (r) => ms(r.floor_ms)],
  ['write floor (one transaction, scratch schema)', (r) => ms(r.write_floor_ms)],
  ['tick / floor', (r) => times(r.ratio ?? (has(r.total_ms) && has(r.floor_ms) ? r.total_ms / r.floor_ms : undefined))],
  ['tick / (floor + write floor)', (r) => times(r.write_floor_ratio)],
];

/** The markdown section, or '' when the run has no bursts. */
export function stageSection(bench: BenchJson, before: BenchJson | null): string {
  const runs = bench.runs ?? [];
  if (runs.length === 0) return '';
  const after = [...runs].sort((a, b) => b.size - a.size)[0]!;
  const earlier = before?.runs?.find((r) => r.size === after.size);
  const header = earlier ? ['stage', `before (${before?.date ?? '?'})`, `after (${bench.date ?? '?'})`] : ['stage', 'median'];
  const lines = [row(header), row(header.map((_, i) => (i === 0 ? ':--' : '--:')))];
  for (const [label, value] of STAGES) lines.push(row(earlier ? [label, value(earlier), value(after)] : [label, value(after)]));
  const intro =
    `The ${after.size}-file burst's tick, stage by stage (medians; the drain's stages are what its loop waited on, ` +
    "the pool works beside them, so they do not add up to the pool's time)" +
    (earlier ? `, beside the same burst of an earlier run of ${before?.machine?.runtime ?? '?'} on ${before?.machine?.cpus ?? '?'} CPUs (\`--before\`):` : ':');
  return [intro, '', ...lines].join('\n');
}
