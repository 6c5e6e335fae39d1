/**
 * The large-repository case's JSON (what `--json` prints and scripts/update-bench-doc.mjs reads
 * with `--from-large`) and its text table, from the same numbers, with the targets judged once
 * here (issue 20: init ≤ 0.35 ms per file, peak RSS ≤ 250 MB, idle ≤ 1.2× git status, a
 * 1000-file burst ≤ 3× the same burst in the 5000-file repository).
 */
import {
  INIT_MS_PER_FILE_TARGET,
  LARGE_BURST_RATIO_TARGET,
  LARGE_IDLE_RATIO_TARGET,
  LARGE_PEAK_RSS_TARGET_MB,
  type LargeRepoResult,
  type RepoMeasures,
} from './large-repo.js';
import type { Machine } from './run-bench.js';
import type { BenchTarget } from './report/shape.js';

/** A target of the large-repository case, judged like the bench's own (report/shape.ts). */
export type LargeTarget = BenchTarget;

export interface RepoJson {
  files: number;
  repo_reused: boolean;
  make_ms: number;
  init_ms: number;
  init_ms_per_file: number;
  /** Reading every file once just before the init (a warm page cache, as after a clone), in ms. */
  warm_contents_ms: number;
  init_batches: number;
  init_detect_ms: number;
  init_drain_ms: number;
  init_git_ms: number;
  init_commit_ms: number;
  init_pool_work_ms: number;
  rss_before_init_mb: number;
  /** The init process's own peak RSS (bench/init-child.ts). */
  peak_rss_after_init_mb: number;
  rss_after_init_mb: number;
  store_mb: number;
  idle_tick_ms: number;
  git_status_ms: number;
  idle_ratio: number;
  /** Idle ticks in turns with the detector's own index copy (git's untracked cache) on and off, and bare statuses beside them. */
  idle_own_index_ms: number;
  idle_plain_index_ms: number;
  idle_lever_git_status_ms: number;
  burst_files: number;
  burst_ms: number;
  burst_detect_ms: number;
  burst_drain_ms: number;
  burst_commit_ms: number;
  burst_floor_ms: number;
}

export interface LargeRepoJson {
  kind: 'large-repo';
  date: string;
  machine: Machine;
  runs: number;
  large: RepoJson & {
    untracked_cache: { state: string; git_status_ms: number }[];
    watch_start_ms: number | null;
    watch_inotify_watches: number | null;
    watch_host_rss_mb: number | null;
    watch_not_measured: string | null;
  };
  small: RepoJson;
  /** The large repository's burst over the small one's, same size, same run. */
  burst_ratio: number;
  peak_rss_mb: number;
  targets: LargeTarget[];
}

const r1 = (x: number) => Math.round(x * 10) / 10;
const r3 = (x: number) => Math.round(x * 1000) / 1000;

function repoJson(m: RepoMeasures): RepoJson {
  return {
    files: m.files,
    repo_reused: m.reused,
    make_ms: r1(m.makeMs),
    init_ms: r1(m.init.ms),
    warm_contents_ms: r1(m.init.warmContentsMs),
    init_ms_per_file: r3(m.init.msPerFile),
    init_batches: m.init.batches,
    init_detect_ms: r1(m.init.detectMs),
    init_drain_ms: r1(m.init.drainMs),
    init_git_ms: r1(m.init.gitMs),
    init_commit_ms: r1(m.init.commitMs),
    init_pool_work_ms: r1(m.init.hashWorkMs),
    rss_before_init_mb: r1(m.init.rssBeforeMb),
    peak_rss_after_init_mb: r1(m.init.peakRssMb),
    rss_after_init_mb: r1(m.init.rssAfterMb),
    store_mb: r1(m.init.storeMb),
    idle_tick_ms: r1(m.idle.idleTickMs),
    git_status_ms: r1(m.idle.gitStatusMs),
    idle_ratio: r3(m.idle.idleTickMs / m.idle.gitStatusMs),
    idle_own_index_ms: r1(m.idleLever.onMs),
    idle_plain_index_ms: r1(m.idleLever.offMs),
    idle_lever_git_status_ms: r1(m.idleLever.gitStatusMs),
    burst_files: m.burst.size,
    burst_ms: r1(m.burst.median.totalMs),
    burst_detect_ms: r1(m.burst.median.detectMs),
    burst_drain_ms: r1(m.burst.median.drainMs),
    burst_commit_ms: r1(m.burst.median.commitMs),
    burst_floor_ms: r1(m.burst.median.floorMs),
  };
}

function judge(target: string, value: number | null, limit: number, unit: LargeTarget['unit']): LargeTarget {
  return { target, limit, value, unit, status: value === null ? 'not measured' : value <= limit ? 'met' : 'missed' };
}

export function toLargeRepoJson(result: LargeRepoResult, machine: Machine, runs: number): LargeRepoJson {
  const large = repoJson(result.large);
  const small = repoJson(result.small);
  const w = result.large.watch;
  const json: Omit<LargeRepoJson, 'targets'> = {
    kind: 'large-repo',
    date: result.date,
    machine,
    runs,
    large: {
      ...large,
      untracked_cache: result.large.untrackedCache.map((u) => ({ state: u.state, git_status_ms: r1(u.gitStatusMs) })),
      watch_start_ms: w ? r1(w.startMs) : null,
      watch_inotify_watches: w?.inotifyWatches ?? null,
      watch_host_rss_mb: w ? r1(w.hostRssMb) : null,
      watch_not_measured: result.large.watchNotMeasured,
    },
    small,
    burst_ratio: r3(result.large.burst.median.totalMs / result.small.burst.median.totalMs),
    peak_rss_mb: r1(result.peakRssMb),
  };
  const f = large.files.toLocaleString('en-US');
  const targets = [
    judge(`init ≤ ${INIT_MS_PER_FILE_TARGET} ms per file (${f} files)`, large.init_ms_per_file, INIT_MS_PER_FILE_TARGET, 'ms'),
    judge(`init peak RSS ≤ ${LARGE_PEAK_RSS_TARGET_MB} MB`, large.peak_rss_after_init_mb, LARGE_PEAK_RSS_TARGET_MB, 'MB'),
    judge(`idle tick ≤ ${LARGE_IDLE_RATIO_TARGET}× a bare git status`, large.idle_ratio, LARGE_IDLE_RATIO_TARGET, 'x'),
    judge(`a ${large.burst_files}-file burst ≤ ${LARGE_BURST_RATIO_TARGET}× the same burst in ${small.files.toLocaleString('en-US')} files`, json.burst_ratio, LARGE_BURST_RATIO_TARGET, 'x'),
  ];
  return { ...json, targets };
}

export function formatLargeRepoText(json: LargeRepoJson): string[] {
  const { large: l, small: s } = json;
  const row = (what: string, a: string, b: string) => `${what.padEnd(34)} ${a.padStart(14)} ${b.padStart(14)}`;
  const ms = (x: number) => `${x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toFixed(1)} ms`;
  const lines = [
    `gardener bench --large-repo (${json.machine.runtime}, ${json.machine.sqlite_driver}, ${json.machine.cpus} CPUs, ${json.runs} runs)`,
    row('', `${l.files.toLocaleString('en-US')} files`, `${s.files.toLocaleString('en-US')} files`),
    row('init', ms(l.init_ms), ms(s.init_ms)),
    row('  per file', `${l.init_ms_per_file.toFixed(3)} ms`, `${s.init_ms_per_file.toFixed(3)} ms`),
    row('  detect', `${ms(l.init_detect_ms)}`, `${ms(s.init_detect_ms)}`),
    row('  drain', `${ms(l.init_drain_ms)}`, `${ms(s.init_drain_ms)}`),
    row('  commits', ms(l.init_commit_ms), ms(s.init_commit_ms)),
    row('  pool work (summed)', ms(l.init_pool_work_ms), ms(s.init_pool_work_ms)),
    row('init process peak RSS', `${l.peak_rss_after_init_mb.toFixed(0)} MB`, `${s.peak_rss_after_init_mb.toFixed(0)} MB`),
    row('store', `${l.store_mb.toFixed(0)} MB`, `${s.store_mb.toFixed(0)} MB`),
    row('idle tick', ms(l.idle_tick_ms), ms(s.idle_tick_ms)),
    row('bare git status', ms(l.git_status_ms), ms(s.git_status_ms)),
    row('idle tick, own index on / off', `${ms(l.idle_own_index_ms)} / ${ms(l.idle_plain_index_ms)}`, `${ms(s.idle_own_index_ms)} / ${ms(s.idle_plain_index_ms)}`),
    row('  bare git status beside them', ms(l.idle_lever_git_status_ms), ms(s.idle_lever_git_status_ms)),
    row(`${l.burst_files}-file burst`, ms(l.burst_ms), ms(s.burst_ms)),
    row('  detect / drain', `${ms(l.burst_detect_ms)} / ${ms(l.burst_drain_ms)}`, `${ms(s.burst_detect_ms)} / ${ms(s.burst_drain_ms)}`),
    row('watcher ready / inotify watches', l.watch_start_ms === null ? 'not measured' : `${ms(l.watch_start_ms)} / ${l.watch_inotify_watches ?? '?'}`, ''),
    '',
    'bare git status by untracked-cache state (large repository):',
    ...l.untracked_cache.map((u) => `  ${ms(u.git_status_ms).padStart(10)}  ${u.state}`),
    '',
    'targets:',
    ...json.targets.map((t) => `  ${t.status === 'met' ? 'met   ' : t.status === 'missed' ? 'MISSED' : 'n/a   '} ${t.target}: ${t.value === null ? '—' : t.unit === 'x' ? `${t.value.toFixed(2)}×` : `${t.value} ${t.unit}`}`),
  ];
  return lines;
}
