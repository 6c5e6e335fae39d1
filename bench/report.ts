/**
 * What the bench prints: one JSON object scripts can rely on (`--json`; the fields named in
 * BenchJson are a contract, new ones may be added, none removed), or a table for people.
 * Both come from the same numbers, with the targets judged once, here.
 */
import {
  BURST_TARGET_MS,
  FLOOR_RATIO_TARGET,
  IDLE_RATIO_TARGET,
  LOOP_DELAY_P99_TARGET_MS,
  LOOP_DELAY_TARGET_SIZE,
  PEAK_RSS_TARGET_MB,
  REFERENCE,
  REFERENCE_BURSTS,
} from './reference.js';
import type { BenchResult, Machine } from './run-bench.js';

export interface BenchJsonRun {
  size: number;
  detect_ms: number;
  drain_ms: number;
  batches: number;
  total_ms: number;
  per_file_ms: number;
  floor_ms: number;
  loop_delay_p99_ms: number;
  ratio: number;
  git_status_ms: number;
  read_hash_ms: number;
  detect_git_ms: number;
  commit_ms: number;
  hash_work_ms: number;
  detected: number;
  drained: number;
  samples: number;
  total_ms_min: number;
  total_ms_max: number;
}

export interface BenchTarget {
  target: string;
  limit: number;
  value: number | null;
  unit: 'ms' | 'x' | 'MB';
  status: 'met' | 'missed' | 'not measured';
}

export interface BenchJson {
  /** Medians over the runs of each size. */
  runs: BenchJsonRun[];
  peak_rss_mb: number;
  reference: typeof REFERENCE;
  idle_tick_ms: number;
  git_status_ms: number;
  idle_ratio: number;
  idle_tick_git_ms: number;
  idle_tick_writer_ms: number;
  rss_after_repo_mb: number;
  rss_after_ingest_mb: number;
  base_files: number;
  runs_per_size: number;
  ingest: { files: number; ms: number; batches: number };
  targets: BenchTarget[];
  machine: Machine;
  date: string;
}

const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;

export function toJson(result: BenchResult): BenchJson {
  const runs = result.bursts.map((b): BenchJsonRun => {
    const m = b.median;
    return {
      size: b.size,
      detect_ms: r2(m.detectMs),
      drain_ms: r2(m.drainMs),
      batches: m.batches,
      total_ms: r2(b.latency.p50),
      per_file_ms: r2(b.latency.p50 / b.size),
      floor_ms: r2(m.floorMs),
      loop_delay_p99_ms: r2(m.loopDelayP99Ms),
      ratio: r2(b.latency.p50 / m.floorMs),
      git_status_ms: r2(m.gitStatusMs),
      read_hash_ms: r2(m.readHashMs),
      detect_git_ms: r2(m.detectGitMs),
      commit_ms: r2(m.commitMs),
      hash_work_ms: r2(m.hashWorkMs),
      detected: m.detected,
      drained: m.drained,
      samples: b.samples.length,
      total_ms_min: r2(b.latency.min),
      total_ms_max: r2(b.latency.max),
    };
  });
  const json: Omit<BenchJson, 'targets'> = {
    runs,
    peak_rss_mb: r1(result.peakRssMb),
    reference: REFERENCE,
    idle_tick_ms: r2(result.idle.idleTickMs),
    git_status_ms: r2(result.idle.gitStatusMs),
    idle_ratio: r2(result.idle.idleTickMs / result.idle.gitStatusMs),
    idle_tick_git_ms: r2(result.idle.tickGitMs),
    idle_tick_writer_ms: r2(result.idle.tickWriterMs),
    rss_after_repo_mb: r1(result.rssAfterRepoMb),
    rss_after_ingest_mb: r1(result.rssAfterIngestMb),
    base_files: result.options.baseFiles,
    runs_per_size: result.options.runs,
    ingest: { files: result.ingest.files, ms: r1(result.ingest.ms), batches: result.ingest.batches },
    machine: result.machine,
    date: result.date,
  };
  return { ...json, targets: judgeTargets(json) };
}

function judge(target: string, value: number | null, limit: number, unit: BenchTarget['unit']): BenchTarget {
  return { target, limit, value, unit, status: value === null ? 'not measured' : value <= limit ? 'met' : 'missed' };
}

/** The issue's targets, each judged on the medians. */
export function judgeTargets(json: Omit<BenchJson, 'targets'>): BenchTarget[] {
  const bySize = new Map(json.runs.map((r) => [r.size, r]));
  const targets: BenchTarget[] = [];
  for (const size of Object.keys(BURST_TARGET_MS).map(Number).sort((a, b) => b - a)) {
    targets.push(judge(`${size}-file burst ≤ ${BURST_TARGET_MS[size]} ms`, bySize.get(size)?.total_ms ?? null, BURST_TARGET_MS[size]!, 'ms'));
  }
  const worst = json.runs.length ? Math.max(...json.runs.map((r) => r.ratio)) : null;
  targets.push(judge(`total within ${FLOOR_RATIO_TARGET}× floor (worst size)`, worst, FLOOR_RATIO_TARGET, 'x'));
  targets.push(
    judge(
      `loop-delay p99 ≤ ${LOOP_DELAY_P99_TARGET_MS} ms during the ${LOOP_DELAY_TARGET_SIZE}-file tick`,
      bySize.get(LOOP_DELAY_TARGET_SIZE)?.loop_delay_p99_ms ?? null,
      LOOP_DELAY_P99_TARGET_MS,
      'ms',
    ),
  );
  targets.push(judge(`peak RSS ≤ ${PEAK_RSS_TARGET_MB} MB`, json.peak_rss_mb, PEAK_RSS_TARGET_MB, 'MB'));
  targets.push(judge(`idle tick ≤ ${IDLE_RATIO_TARGET}× git status`, json.idle_ratio, IDLE_RATIO_TARGET, 'x'));
  return targets;
}

/** Left-aligns the first column and right-aligns the others. */
export function formatTable(header: string[], rows: (string | number)[][]): string[] {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)];
}

const fmt = (x: number) => (x >= 100 ? String(Math.round(x)) : x.toFixed(1));
const valueText = (t: BenchTarget) => (t.value === null ? '—' : `${fmt(t.value)}${t.unit === 'x' ? '×' : ` ${t.unit}`}`);

export function formatText(json: BenchJson): string[] {
  const lines: string[] = [];
  lines.push(`gardener bench: ${json.base_files} base files, ${json.runs_per_size} runs per size (medians), ${json.machine.runtime}, ${json.machine.cpus} CPUs, ${json.machine.pool_threads} pool threads`);
  lines.push('');
  lines.push(
    ...formatTable(
      ['burst', 'detect ms', 'drain ms', 'batches', 'total ms', 'ms/file', 'floor ms', 'ratio', 'loop p99 ms'],
      json.runs.map((r) => [r.size, fmt(r.detect_ms), fmt(r.drain_ms), r.batches, fmt(r.total_ms), r.per_file_ms.toFixed(2), fmt(r.floor_ms), `${r.ratio.toFixed(1)}×`, r.loop_delay_p99_ms.toFixed(1)]),
    ),
  );
  lines.push('');
  lines.push(
    ...formatTable(
      ['burst', 'detect: git ms', 'drain: commits ms', 'pool work ms', 'floor: git status ms', 'floor: read+hash ms'],
      json.runs.map((r) => [r.size, fmt(r.detect_git_ms), fmt(r.commit_ms), fmt(r.hash_work_ms), fmt(r.git_status_ms), fmt(r.read_hash_ms)]),
    ),
  );
  lines.push('');
  lines.push(
    `idle tick ${fmt(json.idle_tick_ms)} ms (git ${fmt(json.idle_tick_git_ms)} ms, store writer ${fmt(json.idle_tick_writer_ms)} ms) ` +
      `vs bare git status ${fmt(json.git_status_ms)} ms (${json.idle_ratio.toFixed(2)}×)`,
  );
  lines.push(
    `peak RSS ${fmt(json.peak_rss_mb)} MB (${fmt(json.rss_after_repo_mb)} MB after making the repository, ` +
      `${fmt(json.rss_after_ingest_mb)} MB after its first ingest: ${json.ingest.files} files in ${fmt(json.ingest.ms)} ms)`,
  );
  lines.push('');
  lines.push('reference (DESIGN.md §9, the system we replace):');
  const ours = new Map(json.runs.map((r) => [r.size, r]));
  lines.push(
    ...formatTable(
      ['burst', 'ref total ms', 'ref ms/file', 'ours total ms', 'ours ms/file', 'speed-up'],
      REFERENCE_BURSTS.map((ref) => {
        const o = ours.get(ref.size);
        return [ref.size, ref.total_ms, ref.per_file_ms.toFixed(1), o ? fmt(o.total_ms) : '—', o ? o.per_file_ms.toFixed(2) : '—', o ? `${Math.round(ref.total_ms / o.total_ms)}×` : '—'];
      }),
    ),
  );
  lines.push(`peak RSS: reference ~${(REFERENCE.peak_rss_mb / 1000).toFixed(1)} GB, ours ${fmt(json.peak_rss_mb)} MB`);
  lines.push('');
  lines.push('targets:');
  for (const t of json.targets) lines.push(`  ${t.status === 'met' ? 'met   ' : t.status === 'missed' ? 'MISSED' : 'n/a   '}  ${t.target}: ${valueText(t)}`);
  return lines;
}
