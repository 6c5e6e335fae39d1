/**
 * The bench's JSON: one object scripts can rely on (`gardener bench --json`; the fields named
 * here are a contract, new ones may be added, none removed), made from a run's numbers once.
 * The text table (text.ts) and docs/benchmarks.md (markdown.ts) are both rendered from it, and
 * its targets are judged in judge.ts.
 */
import { REFERENCE } from '../reference.js';
import type { BenchResult, Machine } from '../run-bench.js';
import type { MemoryBreakdown, ThreadMb } from '../memory-breakdown.js';
import { judgeTargets } from './judge.js';

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
  /** The same sums in PSS (shared pages counted once), and the four-to-one ratio the target judges. */
  one_session_pss_mb: number;
  four_sessions_pss_mb: number;
  four_sessions_pss_ratio: number;
  four_in_process_pss_mb: number;
  /** The owner process alone with one and with four sessions, in MB (each proxy adds a bare Node's RSS). */
  owner_one_session_rss_mb: number;
  owner_four_sessions_rss_mb: number;
  /** The owner idle after its sessions ended: RSS in MB at the end of its first idle minute, CPU seconds in that minute. */
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
  /** Queries that ran while the ticks drained the bursts. */
  seek_drain_queries: number | null;
  /** Bursts drained under seek traffic, one tick each (bench/seek-latency.ts, SEEK_DRAIN_RUNS). */
  seek_drain_runs: number | null;
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
  /** `information`: an absolute time, shown against a limit set on another machine (`set_on`), never met or missed (judge.ts). */
  status: 'met' | 'missed' | 'not measured' | 'information';
  /** For `information`: the machine the limit was set on. */
  set_on?: string;
}

/** Each thread's heap (physical, and used of it) and external memory (WebAssembly), in MB. */
export interface ThreadMemoryJson {
  heap_mb: number;
  used_mb: number;
  external_mb: number;
}
export interface MemoryJson {
  rss_mb: number;
  file_mb: number | null;
  main: ThreadMemoryJson;
  pool: ThreadMemoryJson;
  writer: ThreadMemoryJson;
  other_mb: number;
}

export interface BenchJson {
  /** `quick` (`gardener bench`, `npm start`) or `full` (`--full`, `npm run bench:doc`); absent in runs from before the quick bench. */
  mode?: 'quick' | 'full';
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
  /** Where the RSS lives after the bursts and the skeleton, in MB (bench/memory-breakdown.ts); null in runs from before Bun had per-thread figures. */
  memory: MemoryJson | null;
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

function memoryJson(m: MemoryBreakdown): MemoryJson {
  const thread = (t: ThreadMb): ThreadMemoryJson => ({ heap_mb: r1(t.heapMb), used_mb: r1(t.usedMb), external_mb: r1(t.externalMb) });
  return { rss_mb: r1(m.rssMb), file_mb: m.fileMb === null ? null : r1(m.fileMb), main: thread(m.main), pool: thread(m.pool), writer: thread(m.writer), other_mb: r1(m.otherMb) };
}
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
    seek_drain_runs: s ? s.drainRuns : null,
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
          one_session_pss_mb: r1(mcp.owner.oneSessionPssMb),
          four_sessions_pss_mb: r1(mcp.owner.fourSessionsPssMb),
          four_sessions_pss_ratio: r3(mcp.owner.fourSessionsPssMb / mcp.owner.oneSessionPssMb),
          four_in_process_pss_mb: r1(mcp.owner.fourInProcessPssMb),
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
    mode: result.options.full ? 'full' : 'quick',
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
    memory: result.memory ? memoryJson(result.memory) : null,
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
