/**
 * What the bench prints: one JSON object scripts can rely on (`--json`; the fields named in
 * BenchJson are a contract, new ones may be added, none removed), or a table for people.
 * Both come from the same numbers, with the targets judged once, here.
 */
import {
  BURST_TARGET_MS,
  FLOOR_RATIO_TARGET,
  IDLE_RATIO_TARGET,
  INITIALIZE_RATIO_TARGET,
  LOOP_DELAY_P99_TARGET_MS,
  LOOP_DELAY_TARGET_SIZE,
  PEAK_RSS_TARGET_MB,
  REFERENCE,
  REFERENCE_BURSTS,
  SEEK_P99_TARGET_MS,
  REFS_P50_TARGET_MS,
  IMPACT_P50_TARGET_MS,
  REFERENCES_BURST_RATIO_TARGET,
  REFERENCES_INGEST_RATIO_TARGET,
  REFERENCES_STORE_RATIO_TARGET,
  WRITE_FLOOR_RATIO_TARGET,
  WRITE_FLOOR_TARGET_SIZE,
  SIZE_FLOOR_RATIO_TARGET,
  SEEK_DRAIN_P99_RATIO_TARGET,
  SEEK_IDLE_TAIL_RATIO_TARGET,
} from './reference.js';
import type { BenchResult, Machine } from './run-bench.js';
import { RECONCILE_TARGET_MS, SKELETON_CANDIDATE_TARGET_MS } from './skeleton-reconcile.js';

/** A saved file may take the burst window plus this (event delivery and a one-file tick), in ms. */
export const WATCH_SAVE_SLACK_MS = 100;

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
  /** Of commit_ms, the transactions' own time in the store writer; the writer's other round trips (peek, push, lease). */
  commit_work_ms: number;
  writer_other_ms: number;
  /** One transaction writing the burst's rows into a scratch store of the schema (bench/write-floor.ts). */
  write_floor_ms: number;
  /** total_ms / (floor_ms + write_floor_ms), beside `ratio` (total_ms / floor_ms). */
  write_floor_ratio: number;
  detected: number;
  drained: number;
  samples: number;
  total_ms_min: number;
  total_ms_max: number;
}

/** The MCP part. A number is null when its half could not be measured (`not_measured` says why). */
export interface BenchJsonOwner {
  /** Medians of spawn → `initialize` result, in ms: `gardener mcp` proxying to the owner, and serving in-process. */
  proxy_initialize_ms: number;
  in_process_initialize_ms: number;
  proxy_initialize_ratio: number;
  /** REST `seek` round trips over HTTP keep-alive, idle, in ms. */
  rest_seek_p50_ms: number;
  rest_seek_p99_ms: number;
  rest_seek_max_ms: number;
  rest_seek_calls: number;
  /** RSS of the owner plus its proxies with one and with four sessions on the brain, and of four in-process sessions, in MB. */
  one_session_rss_mb: number;
  four_sessions_rss_mb: number;
  four_sessions_ratio: number;
  four_in_process_rss_mb: number;
  /** The owner process alone with one and with four sessions, in MB (each proxy adds a bare Node's RSS). */
  owner_one_session_rss_mb: number;
  owner_four_sessions_rss_mb: number;
  /** The owner idle after its sessions ended: RSS in MB, CPU seconds per idle minute. */
  idle_owner_rss_mb: number;
  idle_cpu_s_per_min: number;
}

export interface BenchJsonMcp {
  /** Medians of spawn → `initialize` result, in ms: gardener mcp, the minimal SDK server, gardener with a parked git. */
  initialize_ms: number | null;
  baseline_initialize_ms: number | null;
  initialize_ratio: number | null;
  parked_git_initialize_ms: number | null;
  parked_git_ratio: number | null;
  /** Server-side seek latency (dispatchTool + the result's JSON text), in ms. */
  seek_idle_p50_ms: number | null;
  seek_idle_p99_ms: number | null;
  seek_drain_p50_ms: number | null;
  seek_drain_p99_ms: number | null;
  /** Queries that ran while the tick drained the burst. */
  seek_drain_queries: number | null;
  initialize_runs: number | null;
  initialize_method: string | null;
  /** Every sample, in run order, in ms. */
  initialize_samples_ms: { gardener: number[]; baseline: number[]; parked_git: number[] } | null;
  parked_git_launches: number | null;
  parked_git_left_behind: number | null;
  seek_queries: number | null;
  seek_idle_max_ms: number | null;
  seek_drain_max_ms: number | null;
  seek_drain_burst_files: number | null;
  seek_drain_tick_ms: number | null;
  /** Server-side `refs` and `impact` (depth 2) latency, idle, in ms (bench/refs-latency.ts). */
  refs_p50_ms: number | null;
  refs_p99_ms: number | null;
  refs_max_ms: number | null;
  refs_calls: number | null;
  impact_p50_ms: number | null;
  impact_p99_ms: number | null;
  impact_max_ms: number | null;
  impact_calls: number | null;
  /** The bench process's peak RSS at the end of the MCP part, in MB (`peak_rss_mb` is taken before it). */
  peak_rss_mb: number;
  /** The owner (`gardener serve`) measured from outside (bench/owner.ts); null when not measured. */
  owner: BenchJsonOwner | null;
  not_measured: string[];
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
  /** The tree-sitter burst (C, C#, Kotlin, Ruby new files; bench/tree-sitter-burst.ts), medians. */
  tree_sitter: {
    files: number;
    mb: number;
    total_ms: number;
    floor_ms: number;
    ratio: number;
    detect_git_ms: number;
    commit_ms: number;
    hash_work_ms: number;
    files_with_definitions: number;
    definitions: number;
  };
  /** The skeleton: candidate time and shape, and a reconcile after a burst (medians). */
  skeleton: {
    candidate_ms: number;
    rooms: number;
    files_per_room: { min: number; median: number; max: number };
    inside_share: number;
    reconcile_burst_files: number;
    reconcile_ms: number;
    reconcile_loop_delay_p99_ms: number;
  };
  /** The live watcher (bench/watch-latency.ts); null when not measured. */
  watch: {
    saves: number;
    save_p50_ms: number;
    save_p99_ms: number;
    save_max_ms: number;
    window_ms: number;
    checkout_files: number;
    checkout_ms: number;
    checkout_ticks: number;
    idle_repos: number;
    idle_files_per_repo: number;
    idle_host_cpu_s_per_min: number;
    idle_host_rss_mb: number;
    idle_inotify_watches: number | null;
    idle_window_ms: number;
  } | null;
  /** Null when skipped with `--no-mcp`. */
  mcp: BenchJsonMcp | null;
  /** The first ingest and a burst with references and without, in one run (bench/references-cost.ts); null when not measured. */
  references_cost: {
    base_files: number;
    burst_files: number;
    runs: number;
    ingest_with_ms: number;
    ingest_without_ms: number;
    ingest_ratio: number;
    burst_with_ms: number;
    burst_without_ms: number;
    burst_ratio: number;
    store_with_mb: number;
    store_without_mb: number;
    store_ratio: number;
    references_per_file: number;
  } | null;
  targets: BenchTarget[];
  machine: Machine;
  date: string;
}

const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;
const r3 = (x: number) => Math.round(x * 1000) / 1000;

function mcpJson(result: BenchResult): BenchJsonMcp | null {
  const mcp = result.mcp;
  if (!mcp) return null;
  const i = mcp.initialize;
  const s = mcp.seek;
  return {
    initialize_ms: i ? r2(i.gardenerMs) : null,
    baseline_initialize_ms: i ? r2(i.baselineMs) : null,
    initialize_ratio: i ? r3(i.gardenerMs / i.baselineMs) : null,
    parked_git_initialize_ms: i ? r2(i.parkedGitMs) : null,
    parked_git_ratio: i ? r3(i.parkedGitMs / i.baselineMs) : null,
    seek_idle_p50_ms: s ? r3(s.idle.p50) : null,
    seek_idle_p99_ms: s ? r3(s.idle.p99) : null,
    seek_drain_p50_ms: s ? r3(s.drain.p50) : null,
    seek_drain_p99_ms: s ? r3(s.drain.p99) : null,
    seek_drain_queries: s ? s.drain.samples : null,
    initialize_runs: i ? i.runs : null,
    initialize_method: i ? i.method : null,
    initialize_samples_ms: i ? { gardener: i.samples.gardener.map(r2), baseline: i.samples.baseline.map(r2), parked_git: i.samples.parkedGit.map(r2) } : null,
    parked_git_launches: i ? i.parkedGitLaunches : null,
    parked_git_left_behind: i ? i.parkedGitLeftBehind : null,
    seek_queries: s ? s.queries : null,
    seek_idle_max_ms: s ? r3(s.idle.max) : null,
    seek_drain_max_ms: s ? r3(s.drain.max) : null,
    seek_drain_burst_files: s ? s.drainBurstFiles : null,
    seek_drain_tick_ms: s ? r1(s.drainTickMs) : null,
    refs_p50_ms: mcp.refs ? r3(mcp.refs.refs.p50) : null,
    refs_p99_ms: mcp.refs ? r3(mcp.refs.refs.p99) : null,
    refs_max_ms: mcp.refs ? r3(mcp.refs.refs.max) : null,
    refs_calls: mcp.refs ? mcp.refs.refs.samples : null,
    impact_p50_ms: mcp.refs ? r3(mcp.refs.impact.p50) : null,
    impact_p99_ms: mcp.refs ? r3(mcp.refs.impact.p99) : null,
    impact_max_ms: mcp.refs ? r3(mcp.refs.impact.max) : null,
    impact_calls: mcp.refs ? mcp.refs.impact.samples : null,
    peak_rss_mb: r1(result.peakRssAfterMcpMb ?? result.peakRssMb),
    owner: mcp.owner
      ? {
          proxy_initialize_ms: r2(mcp.owner.proxyInitializeMs),
          in_process_initialize_ms: r2(mcp.owner.inProcessInitializeMs),
          proxy_initialize_ratio: r3(mcp.owner.proxyInitializeMs / mcp.owner.inProcessInitializeMs),
          rest_seek_p50_ms: r3(mcp.owner.restSeek.p50),
          rest_seek_p99_ms: r3(mcp.owner.restSeek.p99),
          rest_seek_max_ms: r3(mcp.owner.restSeek.max),
          rest_seek_calls: mcp.owner.restSeek.calls,
          one_session_rss_mb: r1(mcp.owner.oneSessionRssMb),
          four_sessions_rss_mb: r1(mcp.owner.fourSessionsRssMb),
          four_sessions_ratio: r3(mcp.owner.fourSessionsRssMb / mcp.owner.oneSessionRssMb),
          four_in_process_rss_mb: r1(mcp.owner.fourInProcessRssMb),
          owner_one_session_rss_mb: r1(mcp.owner.ownerOneSessionRssMb),
          owner_four_sessions_rss_mb: r1(mcp.owner.ownerFourSessionsRssMb),
          idle_owner_rss_mb: r1(mcp.owner.idleOwnerRssMb),
          idle_cpu_s_per_min: r3(mcp.owner.idleCpuSPerMin),
        }
      : null,
    not_measured: mcp.notMeasured,
  };
}

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
      commit_work_ms: r2(m.commitWorkMs),
      writer_other_ms: r2(m.writerOtherMs),
      write_floor_ms: r2(m.writeFloorMs),
      write_floor_ratio: r2(b.latency.p50 / (m.floorMs + m.writeFloorMs)),
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
    tree_sitter: {
      files: result.treeSitter.files,
      mb: r2(result.treeSitter.bytes / (1 << 20)),
      total_ms: r2(result.treeSitter.totalMs),
      floor_ms: r2(result.treeSitter.floorMs),
      ratio: r2(result.treeSitter.totalMs / result.treeSitter.floorMs),
      detect_git_ms: r2(result.treeSitter.detectGitMs),
      commit_ms: r2(result.treeSitter.commitMs),
      hash_work_ms: r2(result.treeSitter.hashWorkMs),
      files_with_definitions: result.treeSitter.filesWithDefinitions,
      definitions: result.treeSitter.definitions,
    },
    watch: result.watch
      ? {
          saves: result.watch.saves,
          save_p50_ms: r1(result.watch.save.p50),
          save_p99_ms: r1(result.watch.save.p99),
          save_max_ms: r1(result.watch.save.max),
          window_ms: result.watch.windowMs,
          checkout_files: result.watch.checkoutFiles,
          checkout_ms: r1(result.watch.checkoutMs),
          checkout_ticks: result.watch.checkoutTicks,
          idle_repos: result.watch.idle.repos,
          idle_files_per_repo: result.watch.idle.filesPerRepo,
          idle_host_cpu_s_per_min: r3(result.watch.idle.hostCpuSPerMin),
          idle_host_rss_mb: r1(result.watch.idle.hostRssMb),
          idle_inotify_watches: result.watch.idle.inotifyWatches,
          idle_window_ms: result.watch.idle.windowMs,
        }
      : null,
    skeleton: {
      candidate_ms: r1(result.skeleton.candidateMs),
      rooms: result.skeleton.rooms,
      files_per_room: result.skeleton.filesPerRoom,
      inside_share: result.skeleton.insideShare,
      reconcile_burst_files: result.skeleton.burstFiles,
      reconcile_ms: r1(result.skeleton.reconcileMs),
      reconcile_loop_delay_p99_ms: r2(result.skeleton.reconcileLoopDelayP99Ms),
    },
    mcp: mcpJson(result),
    references_cost: result.referencesCost
      ? (() => {
          const c = result.referencesCost!;
          return {
            base_files: c.baseFiles,
            burst_files: c.burstFiles,
            runs: c.runs,
            ingest_with_ms: r1(c.ingestWithMs),
            ingest_without_ms: r1(c.ingestWithoutMs),
            ingest_ratio: r3(c.ingestWithMs / c.ingestWithoutMs),
            burst_with_ms: r1(c.burstWithMs),
            burst_without_ms: r1(c.burstWithoutMs),
            burst_ratio: r3(c.burstWithMs / c.burstWithoutMs),
            store_with_mb: r1(c.storeWithBytes / 1048576),
            store_without_mb: r1(c.storeWithoutBytes / 1048576),
            store_ratio: r3(c.storeWithBytes / c.storeWithoutBytes),
            references_per_file: r1(c.referencesPerFile),
          };
        })()
      : null,
    machine: result.machine,
    date: result.date,
  };
  return { ...json, targets: judgeTargets(json) };
}

function judge(target: string, value: number | null, limit: number, unit: BenchTarget['unit']): BenchTarget {
  return { target, limit, value, unit, status: value === null ? 'not measured' : value <= limit ? 'met' : 'missed' };
}

/** The targets, each judged on the medians. */
export function judgeTargets(json: Omit<BenchJson, 'targets'>): BenchTarget[] {
  const bySize = new Map(json.runs.map((r) => [r.size, r]));
  const targets: BenchTarget[] = [];
  for (const size of Object.keys(BURST_TARGET_MS).map(Number).sort((a, b) => b - a)) {
    targets.push(judge(`${size}-file burst ≤ ${BURST_TARGET_MS[size]} ms`, bySize.get(size)?.total_ms ?? null, BURST_TARGET_MS[size]!, 'ms'));
  }
  const worst = json.runs.length ? Math.max(...json.runs.map((r) => r.ratio)) : null;
  targets.push(judge(`total within ${FLOOR_RATIO_TARGET}× floor (worst size)`, worst, FLOOR_RATIO_TARGET, 'x'));
  for (const size of Object.keys(SIZE_FLOOR_RATIO_TARGET).map(Number).sort((a, b) => b - a)) {
    targets.push(judge(`${size}-file burst within ${SIZE_FLOOR_RATIO_TARGET[size]}× floor`, bySize.get(size)?.ratio ?? null, SIZE_FLOOR_RATIO_TARGET[size]!, 'x'));
  }
  targets.push(judge(`${WRITE_FLOOR_TARGET_SIZE}-file burst within ${WRITE_FLOOR_RATIO_TARGET}× floor + write floor`, bySize.get(WRITE_FLOOR_TARGET_SIZE)?.write_floor_ratio ?? null, WRITE_FLOOR_RATIO_TARGET, 'x'));
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
  targets.push(judge(`skeleton candidate ≤ ${SKELETON_CANDIDATE_TARGET_MS} ms`, json.skeleton.candidate_ms, SKELETON_CANDIDATE_TARGET_MS, 'ms'));
  targets.push(judge(`reconcile after a ${json.skeleton.reconcile_burst_files}-file burst ≤ ${RECONCILE_TARGET_MS} ms`, json.skeleton.reconcile_ms, RECONCILE_TARGET_MS, 'ms'));
  targets.push(judge(`loop-delay p99 ≤ ${LOOP_DELAY_P99_TARGET_MS} ms during the reconcile`, json.skeleton.reconcile_loop_delay_p99_ms, LOOP_DELAY_P99_TARGET_MS, 'ms'));
  const w = json.watch;
  const saveLimit = (w?.window_ms ?? 500) + WATCH_SAVE_SLACK_MS;
  targets.push(judge(`a saved file in the map ≤ window + ${WATCH_SAVE_SLACK_MS} ms (p50)`, w?.save_p50_ms ?? null, saveLimit, 'ms'));
  targets.push(judge(`a saved file in the map ≤ window + ${WATCH_SAVE_SLACK_MS} ms (p99)`, w?.save_p99_ms ?? null, saveLimit, 'ms'));
  const checkoutTick = w ? bySize.get(w.checkout_files)?.total_ms ?? null : null;
  targets.push(judge(`a ${w?.checkout_files ?? 1000}-file checkout in the map ≤ window + that burst's tick`, checkoutTick === null ? null : w!.checkout_ms, (w?.window_ms ?? 500) + (checkoutTick ?? 0), 'ms'));
  targets.push(judge('idle watch host CPU ≤ 100 ms per minute', w ? Math.round(w.idle_host_cpu_s_per_min * 1000) : null, 100, 'ms'));
  const mcp = json.mcp;
  targets.push(judge(`MCP cold initialize ≤ ${INITIALIZE_RATIO_TARGET}× a minimal SDK server`, mcp?.initialize_ratio ?? null, INITIALIZE_RATIO_TARGET, 'x'));
  targets.push(judge(`MCP initialize with a parked git ≤ ${INITIALIZE_RATIO_TARGET}× the same baseline`, mcp?.parked_git_ratio ?? null, INITIALIZE_RATIO_TARGET, 'x'));
  targets.push(judge(`seek p99 ≤ ${SEEK_P99_TARGET_MS} ms idle`, mcp?.seek_idle_p99_ms ?? null, SEEK_P99_TARGET_MS, 'ms'));
  targets.push(judge(`seek p99 ≤ ${SEEK_P99_TARGET_MS} ms during a drain`, mcp?.seek_drain_p99_ms ?? null, SEEK_P99_TARGET_MS, 'ms'));
  const ratioOf = (a: number | null | undefined, b: number | null | undefined) => (a == null || b == null || b === 0 ? null : r2(a / b));
  targets.push(judge(`seek p99 during a drain ≤ ${SEEK_DRAIN_P99_RATIO_TARGET}× idle p99`, ratioOf(mcp?.seek_drain_p99_ms, mcp?.seek_idle_p99_ms), SEEK_DRAIN_P99_RATIO_TARGET, 'x'));
  targets.push(judge(`seek idle p99 ≤ ${SEEK_IDLE_TAIL_RATIO_TARGET}× idle p50`, ratioOf(mcp?.seek_idle_p99_ms, mcp?.seek_idle_p50_ms), SEEK_IDLE_TAIL_RATIO_TARGET, 'x'));
  targets.push(judge(`refs p50 ≤ ${REFS_P50_TARGET_MS} ms`, mcp?.refs_p50_ms ?? null, REFS_P50_TARGET_MS, 'ms'));
  targets.push(judge(`impact (depth 2) p50 ≤ ${IMPACT_P50_TARGET_MS} ms`, mcp?.impact_p50_ms ?? null, IMPACT_P50_TARGET_MS, 'ms'));
  const rc = json.references_cost;
  targets.push(judge(`a ${rc?.burst_files ?? 1000}-file burst with references ≤ ${REFERENCES_BURST_RATIO_TARGET}× without`, rc?.burst_ratio ?? null, REFERENCES_BURST_RATIO_TARGET, 'x'));
  targets.push(judge(`the first ingest with references ≤ ${REFERENCES_INGEST_RATIO_TARGET}× without`, rc?.ingest_ratio ?? null, REFERENCES_INGEST_RATIO_TARGET, 'x'));
  targets.push(judge(`the store with references ≤ ${REFERENCES_STORE_RATIO_TARGET}× without`, rc?.store_ratio ?? null, REFERENCES_STORE_RATIO_TARGET, 'x'));
  const o = mcp?.owner ?? null;
  targets.push(judge('proxy cold initialize ≤ 0.75× in-process', o?.proxy_initialize_ratio ?? null, 0.75, 'x'));
  targets.push(judge('REST seek p50 ≤ 2 ms idle', o?.rest_seek_p50_ms ?? null, 2, 'ms'));
  targets.push(judge('REST seek p99 ≤ 10 ms idle', o?.rest_seek_p99_ms ?? null, 10, 'ms'));
  targets.push(judge('four sessions through the owner ≤ 1.3× one (RSS)', o?.four_sessions_ratio ?? null, 1.3, 'x'));
  targets.push(judge('idle owner RSS ≤ 120 MB', o?.idle_owner_rss_mb ?? null, 120, 'MB'));
  targets.push(judge('idle owner CPU ≤ 200 ms per minute', o ? Math.round(o.idle_cpu_s_per_min * 1000) : null, 200, 'ms'));
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
/** Small latencies (seek) keep two decimals; ratios two as well, their targets sit close to 1. */
const fmtMs = (x: number) => (x >= 10 ? fmt(x) : x.toFixed(2));
const valueText = (t: BenchTarget) => (t.value === null ? '—' : t.unit === 'x' ? `${t.value.toFixed(2)}×` : `${t.unit === 'ms' ? fmtMs(t.value) : fmt(t.value)} ${t.unit}`);

function mcpLines(json: BenchJson): string[] {
  const mcp = json.mcp;
  if (!mcp) return ['MCP: skipped (--no-mcp)'];
  const lines: string[] = [];
  if (mcp.initialize_ms !== null) {
    lines.push(`MCP cold initialize (${json.machine.runtime}; medians of ${mcp.initialize_runs} interleaved runs each; ${mcp.initialize_method}):`);
    const samples = mcp.initialize_samples_ms!;
    const row = (name: string, ms: number, of: number[], ratio: number | null) => [
      name,
      fmt(ms),
      fmt(Math.min(...of)),
      fmt(Math.max(...of)),
      ratio === null ? '—' : `${ratio.toFixed(2)}×`,
    ];
    lines.push(
      ...formatTable(
        ['server', 'initialize ms', 'min ms', 'max ms', 'vs baseline'],
        [
          row('minimal SDK stdio server (baseline)', mcp.baseline_initialize_ms!, samples.baseline, null),
          row('gardener mcp', mcp.initialize_ms, samples.gardener, mcp.initialize_ratio),
          row('gardener mcp, git parked', mcp.parked_git_initialize_ms!, samples.parked_git, mcp.parked_git_ratio),
        ],
      ),
    );
    lines.push(`parked gits: ${mcp.parked_git_launches} launched after initialize, ${mcp.parked_git_left_behind} left behind after their server exited`);
  }
  if (mcp.seek_idle_p50_ms !== null) {
    lines.push(`seek, server side (dispatchTool + JSON result, ${mcp.seek_queries} queries from the sources' names and words, ${json.base_files} files):`);
    lines.push(
      ...formatTable(
        ['when', 'queries', 'p50 ms', 'p99 ms', 'max ms'],
        [
          ['idle', mcp.seek_queries!, fmtMs(mcp.seek_idle_p50_ms), fmtMs(mcp.seek_idle_p99_ms!), fmtMs(mcp.seek_idle_max_ms!)],
          [`during a ${mcp.seek_drain_burst_files}-file drain (tick ${fmt(mcp.seek_drain_tick_ms!)} ms)`, mcp.seek_drain_queries!, fmtMs(mcp.seek_drain_p50_ms!), fmtMs(mcp.seek_drain_p99_ms!), fmtMs(mcp.seek_drain_max_ms!)],
        ],
      ),
    );
  }
  if (mcp.refs_p50_ms !== null) {
    lines.push(`refs and impact, server side (dispatchTool + JSON result, idle, ${json.base_files} files):`);
    lines.push(
      ...formatTable(
        ['verb', 'calls', 'p50 ms', 'p99 ms', 'max ms'],
        [
          ['refs (declared names)', mcp.refs_calls!, fmtMs(mcp.refs_p50_ms), fmtMs(mcp.refs_p99_ms!), fmtMs(mcp.refs_max_ms!)],
          ['impact, depth 2 (files)', mcp.impact_calls!, fmtMs(mcp.impact_p50_ms!), fmtMs(mcp.impact_p99_ms!), fmtMs(mcp.impact_max_ms!)],
        ],
      ),
    );
  }
  lines.push(`bench process peak RSS at the end of the MCP part: ${fmt(mcp.peak_rss_mb)} MB (the peak RSS above is taken before it)`);
  const o = mcp.owner;
  if (o) {
    lines.push(
      `owner: gardener mcp cold initialize as a proxy ${fmt(o.proxy_initialize_ms)} ms vs in-process ${fmt(o.in_process_initialize_ms)} ms (${o.proxy_initialize_ratio}x); ` +
        `REST seek p50 ${fmtMs(o.rest_seek_p50_ms)} ms, p99 ${fmtMs(o.rest_seek_p99_ms)} ms over ${o.rest_seek_calls} calls; ` +
        `RSS one session ${fmt(o.one_session_rss_mb)} MB, four ${fmt(o.four_sessions_rss_mb)} MB (${o.four_sessions_ratio}x), four in-process ${fmt(o.four_in_process_rss_mb)} MB; owner alone ${fmt(o.owner_one_session_rss_mb)} → ${fmt(o.owner_four_sessions_rss_mb)} MB; ` +
        `idle owner ${fmt(o.idle_owner_rss_mb)} MB, ${o.idle_cpu_s_per_min} CPU s per idle minute`,
    );
  }
  for (const why of mcp.not_measured) lines.push(`not measured: ${why}`);
  return lines;
}

export function formatText(json: BenchJson): string[] {
  const lines: string[] = [];
  lines.push(`gardener bench: ${json.base_files} base files, ${json.runs_per_size} runs per size (medians), ${json.machine.runtime} with ${json.machine.sqlite_driver} (SQLite ${json.machine.sqlite_version}), ${json.machine.cpus} CPUs, ${json.machine.pool_threads} pool threads`);
  lines.push('');
  lines.push(
    ...formatTable(
      ['burst', 'detect ms', 'drain ms', 'batches', 'total ms', 'ms/file', 'floor ms', 'ratio', 'write floor ms', 'ratio to both', 'loop p99 ms'],
      json.runs.map((r) => [r.size, fmt(r.detect_ms), fmt(r.drain_ms), r.batches, fmt(r.total_ms), r.per_file_ms.toFixed(2), fmt(r.floor_ms), `${r.ratio.toFixed(1)}×`, fmt(r.write_floor_ms), `${r.write_floor_ratio.toFixed(2)}×`, r.loop_delay_p99_ms.toFixed(1)]),
    ),
  );
  lines.push('');
  lines.push(
    ...formatTable(
      ['burst', 'detect: git ms', 'drain: commits ms', 'of which in the writer ms', 'other writer calls ms', 'pool work ms', 'floor: git status ms', 'floor: read+hash ms'],
      json.runs.map((r) => [r.size, fmt(r.detect_git_ms), fmt(r.commit_ms), fmt(r.commit_work_ms), fmt(r.writer_other_ms), fmt(r.hash_work_ms), fmt(r.git_status_ms), fmt(r.read_hash_ms)]),
    ),
  );
  lines.push('');
  const ts = json.tree_sitter;
  lines.push(
    `tree-sitter burst (C, C#, Kotlin, Ruby): ${ts.files} new files (${fmt(ts.mb)} MB) in ${fmt(ts.total_ms)} ms, floor ${fmt(ts.floor_ms)} ms (${ts.ratio.toFixed(2)}×); ` +
      `detect git ${fmt(ts.detect_git_ms)} ms, pool work ${fmt(ts.hash_work_ms)} ms, ` +
      `commits ${fmt(ts.commit_ms)} ms; ${ts.files_with_definitions} files with ${ts.definitions} definitions in the map`,
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
  const rc = json.references_cost;
  if (rc) {
    lines.push(
      `references: first ingest of ${rc.base_files} files ${fmt(rc.ingest_with_ms)} ms with, ${fmt(rc.ingest_without_ms)} ms without (${rc.ingest_ratio.toFixed(2)}×); ` +
        `${rc.burst_files}-file burst ${fmt(rc.burst_with_ms)} ms with, ${fmt(rc.burst_without_ms)} ms without (${rc.burst_ratio.toFixed(2)}×, medians of ${rc.runs}); ` +
        `store ${fmt(rc.store_with_mb)} MB with, ${fmt(rc.store_without_mb)} MB without (${rc.store_ratio.toFixed(2)}×); ${fmt(rc.references_per_file)} references per file`,
    );
    lines.push('');
  }
  const sk = json.skeleton;
  lines.push(
    `skeleton: candidate ${fmt(sk.candidate_ms)} ms, ${sk.rooms} rooms (files per room ${sk.files_per_room.min}/${sk.files_per_room.median}/${sk.files_per_room.max} min/median/max, ` +
      `${Math.round(sk.inside_share * 100)}% of resolved imports inside a room); reconcile after a ${sk.reconcile_burst_files}-file burst ${fmt(sk.reconcile_ms)} ms (loop p99 ${sk.reconcile_loop_delay_p99_ms.toFixed(1)} ms)`,
  );
  lines.push('');
  const w = json.watch;
  if (w) {
    lines.push(
      `watch: a saved file in the map ${fmt(w.save_p50_ms)} ms p50, ${fmt(w.save_p99_ms)} ms p99 after the write (window ${w.window_ms} ms, ${w.saves} saves); ` +
        `a ${w.checkout_files}-file checkout in ${fmt(w.checkout_ms)} ms (${w.checkout_ticks} tick${w.checkout_ticks === 1 ? '' : 's'}); ` +
        `idle watch host over ${w.idle_repos} × ${w.idle_files_per_repo} files: ${w.idle_host_cpu_s_per_min} CPU s per minute, ${fmt(w.idle_host_rss_mb)} MB, ${w.idle_inotify_watches ?? '?'} inotify watches`,
    );
    lines.push('');
  }
  lines.push(...mcpLines(json));
  lines.push('');
  lines.push('targets:');
  for (const t of json.targets) lines.push(`  ${t.status === 'met' ? 'met   ' : t.status === 'missed' ? 'MISSED' : 'n/a   '}  ${t.target}: ${valueText(t)}`);
  return lines;
}
