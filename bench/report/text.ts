/**
 * The bench's table for people (`gardener bench` without `--json`), rendered from the JSON
 * (shape.ts) so both say the same numbers.
 */
import { REFERENCE, REFERENCE_BURSTS } from '../reference.js';
import { PLAIN } from './number-format.js';
import type { BenchJson, BenchTarget } from './shape.js';

const { fmt, fmtMs, valueText } = PLAIN;

/** Left-aligns the first column and right-aligns the others. */
export function formatTable(header: string[], rows: (string | number)[][]): string[] {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)];
}

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
          [(mcp.seek_drain_runs ?? 1) === 1 ? `during a ${mcp.seek_drain_burst_files}-file drain (tick ${fmt(mcp.seek_drain_tick_ms!)} ms)` : `during ${mcp.seek_drain_runs} ${mcp.seek_drain_burst_files}-file drains (median tick ${fmt(mcp.seek_drain_tick_ms!)} ms)`, mcp.seek_drain_queries!, fmtMs(mcp.seek_drain_p50_ms!), fmtMs(mcp.seek_drain_p99_ms!), fmtMs(mcp.seek_drain_max_ms!)],
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
        `PSS one session ${fmt(o.one_session_pss_mb)} MB, four ${fmt(o.four_sessions_pss_mb)} MB (${o.four_sessions_pss_ratio}x); ` +
        `idle owner ${fmt(o.idle_owner_rss_mb)} MB, ${o.idle_cpu_s_per_min} CPU s in its first idle minute`,
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
  lines.push('targets (ratios to this run\'s floors, and memory, decide; "info" is an absolute time, whose limit was set on another machine):');
  const mark = (t: BenchTarget) => (t.status === 'met' ? 'met   ' : t.status === 'missed' ? 'MISSED' : t.status === 'information' ? 'info  ' : 'n/a   ');
  for (const t of json.targets) lines.push(`  ${mark(t)}  ${t.target}: ${valueText(t)}`);
  const setOn = json.targets.find((t) => t.set_on)?.set_on;
  if (setOn) lines.push(`  (the "info" limits were set on ${setOn})`);
  if (json.mode === 'quick') lines.push('', 'This was the quick bench (`npm start`); `gardener bench --full` or `npm run bench:doc` measures the watcher, the owner, refs/impact and the references\' cost too.');
  return lines;
}
