/**
 * docs/benchmarks.md, rendered from the bench's JSON (shape.ts) by scripts/update-bench-doc.mjs,
 * which imports this file from dist: the page's words and tables live here, the script only
 * runs the bench and writes the file. Numbers use the page's format (number-format.ts).
 */
import type { Machine } from '../run-bench.js';
import { GROUPED } from './number-format.js';
import { stageSection } from './stages.js';
import { TARGETS_SET_ON } from './judge.js';
import type { BenchJson, BenchJsonMcp, BenchJsonRun, BenchTarget, MemoryJson } from './shape.js';

/** The command the page is made from (`npm run bench:doc`): sizes, base files and runs of a full run. */
export const BENCH_DOC_ARGS: readonly string[] = Object.freeze(['bench', '--full', '--json', '--sizes', '10,100,1000', '--base-files', '5000', '--runs', '3']);

const { fmt, fmtMs, valueText: value } = GROUPED;

/**
 * The MCP part as read once a half of it is known to be measured: shape.ts fills each half
 * (initialize, seek, refs) whole or leaves it null, so the page checks a half's first field.
 */
type MeasuredMcp = { [K in keyof BenchJsonMcp]: NonNullable<BenchJsonMcp[K]> };
const pct = (part: number, whole: number) => `${Math.round((100 * part) / whole)}%`;
const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
const table = (header: readonly string[], rows: readonly (readonly string[])[], align: readonly string[]) => [row(header), row(align), ...rows.map(row)].join('\n');
const status = (t: BenchTarget) => (t.status === 'met' ? '✅ met' : t.status === 'missed' ? '❌ missed' : t.status === 'information' ? 'information' : 'not measured');

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 'es'}`;
/** The seek table's drain row; a JSON from before seek_drain_runs drained one burst. */
const drainsLabel = (runs: number | null | undefined, files: number | null, tickMs: string) =>
  (runs ?? 1) === 1 ? `during a ${files}-file drain (tick ${tickMs} ms)` : `during ${runs} ${files}-file drains (median tick ${tickMs} ms)`;
const dominant = (r: BenchJsonRun) => (r.drain_ms >= r.detect_ms ? 'drain' : 'detection');

/** "Where the time goes", computed from the numbers only. */
function whereTheTimeGoes(bench: BenchJson): string {
  const m: Partial<Machine> = bench.machine ?? {};
  const bySize = new Map(bench.runs.map((r) => [r.size, r]));
  const lines: string[] = [];
  for (const r of bench.runs) {
    const stages = r.detect_ms + r.drain_ms;
    let line =
      `- **${r.size} files** (${fmt(r.total_ms)} ms): detection ${fmt(r.detect_ms)} ms (${pct(r.detect_ms, stages)}), ` +
      `drain ${fmt(r.drain_ms)} ms (${pct(r.drain_ms, stages)}, ${plural(r.batches, 'batch')}); ${dominant(r)} dominates.`;
    if (r.detect_git_ms !== undefined) {
      line +=
        ` Detection waited ${fmt(r.detect_git_ms)} ms on git processes, where a bare \`git status\` takes ${fmt(r.git_status_ms)} ms.` +
        ` The drain waited ${fmt(r.commit_ms)} ms (${pct(r.commit_ms, r.drain_ms)}) on the store writer's commits;` +
        ` the pool's read+hash+extract work was ${fmt(r.hash_work_ms)} ms summed over ${m.pool_threads ?? '?'} threads, running beside the commits` +
        ` (the floor's one-thread read+hash alone: ${fmt(r.read_hash_ms)} ms).`;
    }
    lines.push(line);
  }
  if (bench.idle_tick_ms !== undefined) {
    const rest = bench.idle_tick_ms - (bench.idle_tick_git_ms ?? 0) - (bench.idle_tick_writer_ms ?? 0);
    lines.push(
      `- **Idle** (${fmt(bench.idle_tick_ms)} ms, ${bench.idle_ratio.toFixed(2)}× a bare \`git status\` of ${fmt(bench.git_status_ms)} ms):` +
        (bench.idle_tick_git_ms !== undefined
          ? ` ${fmt(bench.idle_tick_git_ms)} ms waiting on git processes, ${fmt(bench.idle_tick_writer_ms)} ms of store writer round trips,` +
            ` ${fmt(rest)} ms elsewhere (pool dispatch, spawning, scheduling).`
          : ` ${fmt(bench.idle_tick_ms - bench.git_status_ms)} ms more than the bare \`git status\`.`),
    );
  }
  const missed = (bench.targets ?? []).filter((t) => t.status === 'missed');
  if (missed.length > 0) {
    lines.push('', 'Missed targets, and where their time is:');
    for (const t of missed) {
      const size = Number(/^(\d+)-file burst/.exec(t.target)?.[1]);
      const r = bySize.get(size) ?? (t.target.includes('floor') ? [...bench.runs].sort((a, b) => b.ratio - a.ratio)[0] : undefined);
      if (r) {
        const stage = dominant(r);
        const detail = stage === 'drain' && r.commit_ms !== undefined ? `, ${pct(r.commit_ms, r.drain_ms)} of it waiting on store writer commits` : '';
        lines.push(`- ${t.target} (${value(t)}): the ${size ? '' : `${r.size}-file burst's `}time is in the ${stage} (${pct(stage === 'drain' ? r.drain_ms : r.detect_ms, r.detect_ms + r.drain_ms)}${detail}).`);
      } else if (t.target.startsWith('peak RSS') && bench.rss_after_ingest_mb !== undefined) {
        lines.push(`- ${t.target} (${value(t)}): ${fmt(bench.rss_after_repo_mb ?? 0)} MB was reached making the repository, ${fmt(bench.rss_after_ingest_mb)} MB by the end of the first ${bench.ingest.files}-file ingest.`);
      } else if (t.target.startsWith('MCP') && bench.mcp?.initialize_ms != null) {
        const mcp = bench.mcp as MeasuredMcp;
        const ms = t.target.includes('parked') ? mcp.parked_git_initialize_ms : mcp.initialize_ms;
        lines.push(`- ${t.target} (${value(t)}): ${fmt(ms)} ms against ${fmt(mcp.baseline_initialize_ms)} ms, ${fmt(ms - mcp.baseline_initialize_ms)} ms spent before the answer that the minimal SDK server does not spend.`);
      } else if (t.target.startsWith('seek') && bench.mcp?.seek_idle_p99_ms != null) {
        const mcp = bench.mcp as MeasuredMcp;
        const drain = t.target.includes('drain');
        lines.push(`- ${t.target} (${value(t)}): p50 ${fmtMs(drain ? mcp.seek_drain_p50_ms : mcp.seek_idle_p50_ms)} ms, slowest ${fmtMs(drain ? mcp.seek_drain_max_ms : mcp.seek_idle_max_ms)} ms over ${drain ? mcp.seek_drain_queries : mcp.seek_queries} queries.`);
      } else if (t.target.startsWith('idle tick') && bench.idle_tick_git_ms !== undefined) {
        lines.push(`- ${t.target} (${value(t)}): git processes ${fmt(bench.idle_tick_git_ms)} ms against one bare \`git status\` of ${fmt(bench.git_status_ms)} ms.`);
      } else {
        lines.push(`- ${t.target} (${value(t)}).`);
      }
    }
  }
  return lines.join('\n');
}

/** The tree-sitter burst (bench/tree-sitter-burst.ts); empty for a run from before it existed. */
function treeSitterSection(bench: BenchJson): string {
  const t = bench.tree_sitter;
  if (!t) return '';
  return `## The tree-sitter burst

${t.files} new files in C, C#, Kotlin and Ruby (${fmt(t.mb)} MB, about 8 KB each), ingested by one tick: **${fmt(t.total_ms)} ms**
against a floor of ${fmt(t.floor_ms)} ms (${t.ratio.toFixed(1)}×). Of the tick, detection's git took ${fmt(t.detect_git_ms)} ms,
the pool's read + hash + tree-sitter extraction ${fmt(t.hash_work_ms)} ms of thread time (the grammars are loaded by the
first files of each language in each pool thread), and the store writer's commits ${fmt(t.commit_ms)} ms; every file is in the map
with its definitions (${t.definitions} of them). Parsing is the cost: tree-sitter extracts 2–5 MB/s per thread where the line
scanners do 40–150 (docs/dependencies.md).

`;
}

/** The MCP part: cold initialize beside a minimal SDK server, and server-side seek latency. */
function mcpSection(bench: BenchJson): string {
  const m: Partial<Machine> = bench.machine ?? {};
  if (bench.mcp === undefined) return 'Not in this run (the bench predates the MCP part).';
  if (bench.mcp === null) return 'Skipped in this run (`--no-mcp`).';
  const mcp = bench.mcp as MeasuredMcp;
  const parts: string[] = [];
  if (mcp.initialize_ms !== null) {
    const s = mcp.initialize_samples_ms;
    const ratio = (r: number | null) => (r === null ? '—' : `${r.toFixed(2)}×`);
    parts.push(
      `Wall time from spawning the server to its \`initialize\` result, on the bench's own runtime (${m.runtime ?? '?'}), ` +
        `${mcp.initialize_runs} runs of each server interleaved in rotating order (one unmeasured round first), medians. ` +
        `How: ${mcp.initialize_method}. The baseline is the smallest server the SDK allows (\`Server\` + \`StdioServerTransport\`, ` +
        `one trivial tool), written by the bench at run time and loading the same SDK files. ` +
        `\`gardener mcp\` runs with \`--root\` on the bench repository and the bench's private home.`,
      '',
      table(
        ['server', 'initialize (median)', 'min', 'max', 'vs baseline'],
        [
          ['minimal SDK stdio server', `${fmt(mcp.baseline_initialize_ms)} ms`, `${fmt(Math.min(...s.baseline))} ms`, `${fmt(Math.max(...s.baseline))} ms`, '—'],
          ['`gardener mcp`', `**${fmt(mcp.initialize_ms)} ms**`, `${fmt(Math.min(...s.gardener))} ms`, `${fmt(Math.max(...s.gardener))} ms`, `**${ratio(mcp.initialize_ratio)}**`],
          ['`gardener mcp`, git parked', `**${fmt(mcp.parked_git_initialize_ms)} ms**`, `${fmt(Math.min(...s.parked_git))} ms`, `${fmt(Math.max(...s.parked_git))} ms`, `**${ratio(mcp.parked_git_ratio)}**`],
        ],
        [':--', '--:', '--:', '--:', '--:'],
      ),
      '',
      `*git parked*: a fake \`git\` first on \`PATH\` whose \`rev-parse\` blocks on a named pipe, so the folder probe is stuck. ` +
        `After the answer the bench sends \`notifications/initialized\`, waits until the probe's git is launched and parked, then closes stdin: ` +
        `${mcp.parked_git_launches} parked gits were launched in the measured runs, ${mcp.parked_git_left_behind} outlived their server.`,
    );
  }
  if (mcp.seek_idle_p50_ms !== null) {
    if (parts.length) parts.push('');
    parts.push(
      `\`seek\` as the server runs it (\`dispatchTool\` with a session over the bench's brain, plus the result's JSON text; ` +
        `the SDK's framing and the pipe left out), each of ${mcp.seek_queries} queries timed alone: symbol names declared in the generated sources ` +
        `and words from their comments, on the ${bench.base_files ?? '?'}-file brain. *During a drain*: one tick in the same process detects and drains ` +
        `a ${mcp.seek_drain_burst_files}-file burst while queries run back to back until it ends${(mcp.seek_drain_runs ?? 1) > 1 ? `, ${mcp.seek_drain_runs} such bursts in a row` : ''}. ` +
        'While a query runs, the pool thread waits between files (src/pool/request-gate.ts), so queries back to back, about one a millisecond, stretch the drain\'s tick ' +
        'well past the same burst\'s tick alone (the burst table): the query keeps a core, the drain takes the gaps.',
      '',
      table(
        ['when', 'queries', 'p50', 'p99', 'slowest'],
        [
          ['idle', String(mcp.seek_queries), `${fmtMs(mcp.seek_idle_p50_ms)} ms`, `**${fmtMs(mcp.seek_idle_p99_ms)} ms**`, `${fmtMs(mcp.seek_idle_max_ms)} ms`],
          [
            drainsLabel(mcp.seek_drain_runs, mcp.seek_drain_burst_files, fmt(mcp.seek_drain_tick_ms)),
            String(mcp.seek_drain_queries),
            `${fmtMs(mcp.seek_drain_p50_ms)} ms`,
            `**${fmtMs(mcp.seek_drain_p99_ms)} ms**`,
            `${fmtMs(mcp.seek_drain_max_ms)} ms`,
          ],
        ],
        [':--', '--:', '--:', '--:', '--:'],
      ),
    );
  }
  const o = mcp.owner;
  if (o) {
    if (parts.length) parts.push('');
    parts.push(
      `**The owner** (\`gardener serve\` on the bench's home, measured from outside as a host sees it): cold \`initialize\` of \`gardener mcp\` ` +
        `proxying to the running owner beside the same command serving in-process, interleaved, medians; REST \`seek\` round trips over ` +
        `HTTP keep-alive on the ${bench.base_files ?? '?'}-file brain, idle; RSS of the owner plus its proxies with one and four sessions on the brain ` +
        `(each proxy is a bare Node process), beside four in-process sessions, and the same sums in PSS (a page the processes share, such as the runtime's binary, counted once: the sum that says what the sessions cost the machine); the owner idle for the first minute after its sessions ended (its CPU over that whole minute, its RSS at the end of it).`,
      '',
      table(
        ['measure', 'value'],
        [
          ['proxy cold initialize / in-process', `**${fmt(o.proxy_initialize_ms)} ms** / ${fmt(o.in_process_initialize_ms)} ms (**${o.proxy_initialize_ratio.toFixed(2)}×**)`],
          [`REST seek, ${o.rest_seek_calls} calls`, `p50 **${fmtMs(o.rest_seek_p50_ms)} ms**, p99 **${fmtMs(o.rest_seek_p99_ms)} ms**, slowest ${fmtMs(o.rest_seek_max_ms)} ms`],
          ['RSS, one session / four (owner + proxies)', `${fmt(o.one_session_rss_mb)} MB / ${fmt(o.four_sessions_rss_mb)} MB (${o.four_sessions_ratio.toFixed(2)}×)`],
          ['RSS of the owner alone, one session / four', `${fmt(o.owner_one_session_rss_mb)} MB / ${fmt(o.owner_four_sessions_rss_mb)} MB`],
          ['RSS, four in-process sessions', `${fmt(o.four_in_process_rss_mb)} MB`],
          ...(o.four_sessions_pss_ratio === undefined ? [] : [
            ['PSS, one session / four (owner + proxies)', `${fmt(o.one_session_pss_mb)} MB / ${fmt(o.four_sessions_pss_mb)} MB (**${o.four_sessions_pss_ratio.toFixed(2)}×**)`],
            ['PSS, four in-process sessions', `${fmt(o.four_in_process_pss_mb)} MB`],
          ]),
          ['idle owner', `${fmt(o.idle_owner_rss_mb)} MB, ${o.idle_cpu_s_per_min} CPU s in its first idle minute`],
        ],
        [':--', ':--'],
      ),
    );
  }
  for (const why of mcp.not_measured ?? []) parts.push('', `Not measured: ${why}`);
  return parts.join('\n');
}

/** The owner's watch path (bench/watch-latency.ts), on real timers and the real watch host. */
function watchSection(bench: BenchJson): string {
  const w = bench.watch;
  if (!w) return 'Not measured in this run (the bench log says why).';
  return [
    `A file saved in the ${bench.base_files ?? '?'}-file repository, from the write to the end of the tick that maps it (burst window ${w.window_ms} ms), ` +
      `and a \`git checkout\` that rewrites ${w.checkout_files} files, from the end of git's own work to the end of its tick; then the watch host idle with ` +
      `${w.idle_repos} repositories of ${w.idle_files_per_repo} files subscribed (CPU over a ${w.idle_window_ms / 1000} s window, scaled to a minute).`,
    '',
    table(
      ['measure', 'value'],
      [
        [`a saved file in the map, ${w.saves} saves`, `p50 **${fmt(w.save_p50_ms)} ms**, p99 **${fmt(w.save_p99_ms)} ms**, slowest ${fmt(w.save_max_ms)} ms`],
        [`a ${w.checkout_files}-file checkout in the map`, `**${fmt(w.checkout_ms)} ms**, ${w.checkout_ticks} tick${w.checkout_ticks === 1 ? '' : 's'}`],
        ['idle watch host', `${w.idle_host_cpu_s_per_min} CPU s per minute, ${fmt(w.idle_host_rss_mb)} MB RSS, ${w.idle_inotify_watches ?? '?'} inotify watches`],
      ],
      [':--', ':--'],
    ),
    '',
    'For comparison, DESIGN.md §9 has no idle figure for the system Gardener replaces: it had no watcher (freshness advanced on traffic only).',
  ].join('\n');
}

/** References: refs and impact latency (MCP part), and what references cost the ingest (bench/references-cost.ts). */
function referencesSection(bench: BenchJson): string {
  const parts: string[] = [];
  const mcp = bench.mcp as MeasuredMcp | null;
  if (mcp && mcp.refs_p50_ms != null) {
    parts.push(
      `\`refs\` and \`impact\` as the server runs them (\`dispatchTool\` plus the result's JSON text), idle, on the ${bench.base_files ?? '?'}-file brain: ` +
        `\`refs\` for names declared in the generated sources, \`impact\` (depth 2) for files of the repository, each call timed alone.`,
      '',
      table(
        ['verb', 'calls', 'p50', 'p99', 'slowest'],
        [
          ['`refs`', String(mcp.refs_calls), `**${fmtMs(mcp.refs_p50_ms)} ms**`, `${fmtMs(mcp.refs_p99_ms)} ms`, `${fmtMs(mcp.refs_max_ms)} ms`],
          ['`impact`, depth 2', String(mcp.impact_calls), `**${fmtMs(mcp.impact_p50_ms)} ms**`, `${fmtMs(mcp.impact_p99_ms)} ms`, `${fmtMs(mcp.impact_max_ms)} ms`],
        ],
        [':--', '--:', '--:', '--:', '--:'],
      ),
    );
  }
  const rc = bench.references_cost;
  if (rc) {
    if (parts.length) parts.push('');
    parts.push(
      `What references cost the ingest, in one run: the same repository ingested into fresh brains with references and without ` +
        `(the faster of two first ingests each, alternating which goes first), then the same ${rc.burst_files}-file bursts ticked into both ` +
        `(medians of ${rc.runs}, alternating order). Store sizes are SQLite's page count, WAL included. ${fmt(rc.references_per_file)} references per file.`,
      '',
      table(
        ['measure', 'with references', 'without', 'ratio'],
        [
          [`first ingest of ${rc.base_files} files`, `${fmt(rc.ingest_with_ms)} ms`, `${fmt(rc.ingest_without_ms)} ms`, `**${rc.ingest_ratio.toFixed(2)}×**`],
          [`${rc.burst_files}-file burst`, `${fmt(rc.burst_with_ms)} ms`, `${fmt(rc.burst_without_ms)} ms`, `**${rc.burst_ratio.toFixed(2)}×**`],
          ['store', `${fmt(rc.store_with_mb)} MB`, `${fmt(rc.store_without_mb)} MB`, `**${rc.store_ratio.toFixed(2)}×**`],
        ],
        [':--', '--:', '--:', '--:'],
      ),
    );
  }
  return parts.length ? parts.join('\n') : 'Not in this run (the bench predates references).';
}

/** The skeleton's candidate and reconcile (bench/skeleton-reconcile.ts). */
function skeletonSection(bench: BenchJson): string {
  const k = bench.skeleton;
  if (!k) return 'Not measured in this run.';
  return table(
    ['measure', 'value'],
    [
      ['candidate (Louvain over the import graph)', `**${fmt(k.candidate_ms)} ms**: ${k.rooms} rooms, ${k.files_per_room.min}/${k.files_per_room.median}/${k.files_per_room.max} files per room (min/median/max), ${Math.round(k.inside_share * 100)}% of resolved imports inside a room`],
      [`reconcile after a ${k.reconcile_burst_files}-file burst`, `**${fmt(k.reconcile_ms)} ms**, event-loop p99 ${k.reconcile_loop_delay_p99_ms.toFixed(1)} ms meanwhile`],
    ],
    [':--', ':--'],
  );
}

/** Peak RSS on every runtime in one table, and where the RSS lives (bench/memory-breakdown.ts). */
function memorySection(bench: BenchJson, other: BenchJson | null, bun: BenchJson | BenchFailed | null): string {
  const runs = [bench, other, bun].filter((b): b is BenchJson => b !== null && !('failed' in b));
  const name = (b: BenchJson) => `${b.machine?.runtime ?? '?'} + ${b.machine?.sqlite_driver ?? '?'}`;
  const mb = (x: number | null | undefined) => (x === undefined || x === null ? '—' : `${fmt(x)} MB`);
  const parts = [
    `The bench process's RSS (main thread, pool and store writer threads) on each runtime, the same command one after the other: ` +
      `its peak once the repository was made (a child process writes it, so the generator's memory is not the bench's; the bench process then recomputes its layout), after the first ${bench.ingest?.files ?? '?'}-file ingest, after the bursts, the tree-sitter burst and the skeleton ` +
      `(the *peak RSS* target), and at the end of the MCP part.`,
    '',
    table(
      ['runtime', 'repository made', 'first ingest', '**peak** (bursts, skeleton)', 'end of the MCP part'],
      runs.map((b) => [name(b), mb(b.rss_after_repo_mb), mb(b.rss_after_ingest_mb), `**${mb(b.peak_rss_mb)}**`, mb(b.mcp?.peak_rss_mb)]),
      [':--', '--:', '--:', '--:', '--:'],
    ),
  ];
  if (bun && 'failed' in bun) parts.push('', `Bun: not measured (${bun.failed}).`);
  else if (!bun) parts.push('', 'Bun: not in this run (not installed, or re-rendered without `--from-bun`).');
  const broken = runs.filter((b) => b.memory);
  if (broken.length) {
    const cell = (f: (m: MemoryJson) => string) => broken.map((b) => f(b.memory!));
    const thread = (t: 'main' | 'pool' | 'writer') => (m: MemoryJson) => `${fmt(m[t].heap_mb)} MB (${fmt(m[t].used_mb)} used)`;
    parts.push(
      '',
      `Where the RSS lives right after the skeleton, where the peak is reached: each thread's V8 heap (physical; *used* is what was live or not yet collected), ` +
        `the pool thread's WebAssembly memory (the tree-sitter runtime and the grammars it loaded: C, C#, Kotlin, Ruby), the pages mapped from files ` +
        `(the runtime's binary and libraries), and the rest, which is malloc (SQLite's page cache per connection and FTS5's pending terms, file buffers), ` +
        `thread stacks and compiled WebAssembly.`,
      '',
      table(
        ['', ...broken.map(name)],
        [
          ['RSS at that moment', ...cell((m) => `**${fmt(m.rss_mb)} MB**`)],
          ['main thread heap', ...cell(thread('main'))],
          ['pool thread heap', ...cell(thread('pool'))],
          ['pool thread WebAssembly (grammars)', ...cell((m) => `${fmt(m.pool.external_mb)} MB`)],
          ['store writer heap', ...cell(thread('writer'))],
          ['main and writer external (buffers in flight)', ...cell((m) => `${fmt(m.main.external_mb + m.writer.external_mb)} MB`)],
          ['mapped from files', ...cell((m) => mb(m.file_mb))],
          ['the rest (malloc, stacks, code)', ...cell((m) => `${fmt(m.other_mb)} MB`)],
        ],
        [':--', ...broken.map(() => '--:')],
      ),
      '',
      `What bounds it: every thread of the process keeps its young generation at V8's starting size and lets its old generation grow 20% ` +
        `past what its last collection kept (src/heap-growth.ts; set again by each worker as it starts, because starting a worker puts V8's ` +
        `flags back on Node 20). Before, on Node 24, the main thread's heap alone reached 121–156 MB with 27–40 MB in use (bench peak 342–350 MB), ` +
        `and on Node 20 32 MB of the main heap was a young generation with 2–13 MB in use. The worker threads are capped by their \`resourceLimits\` ` +
        `(src/pool/worker-pool.ts). Grammars load once per thread, only for languages the brain holds, run on V8's baseline compiler ` +
        `(src/ingest/tree-sitter/grammar-loader.ts), and are given back by ending the pool's threads a minute after the pool went idle ` +
        `(\`GRAMMAR_RELEASE_IDLE_MS\`): WebAssembly memory never shrinks. The mapped files are the runtime itself (a bare \`node\` maps about 33 MB; the bench adds SQLite's native module and the libraries it loads).`,
      '',
      `Node 24 over Node 20, as measured: its binary maps about 9 MB more, its heaps hold a few MB more, and the rest is about 25 MB more: ` +
        `glibc keeps freed memory in one arena per thread that allocated, and Node 24's V8 compiles on background threads more. Only settings read ` +
        `when the process starts move it, and none meets 200 MB alone (one sitting, \`--no-mcp\`, single runs against 235–244 MB unset): ` +
        `\`GLIBC_TUNABLES=glibc.malloc.arena_max=1\` 214 MB, \`arena_max=2\` 222 MB, fixed mmap and trim thresholds 230–235 MB, ` +
        `\`node --no-concurrent-recompilation\` 223 MB (set at run time, after the main thread started: no change). The owner, \`gardener serve\`, starts ` +
        `again once with \`arena_max=2\` and a fixed mmap threshold, for the weeks it runs (docs/owner.md); \`gardener mcp\` and the in-process pipeline measured here do not, since that would cost a ` +
        `second runtime start before the first frame.`,
    );
  }
  if (runs.some((b) => b.machine?.runtime?.startsWith('bun'))) {
    parts.push(
      '',
      "On Bun the heaps are JavaScriptCore's, each thread's own (`bun:jsc`'s heapStats; `getHeapStatistics()` answers there with the whole process on every thread), " +
        'and *external* is what JSC counts beside its cells: the WebAssembly memories, the storage of large strings and buffers. JSC counts a WebAssembly ' +
        'memory twice once its buffer has been read (a bare 32 MB memory shows as 64 MB), so the pool thread counts web-tree-sitter\'s memory once, as on Node ' +
        '(workers/hash-extract.ts): it is 32 MB on both runtimes, at its full size, about 12 MB of it resident. JSC lets a heap grow in proportion before it collects, so a Bun pool thread collects at the end of a task once ' +
        'its heap grew `BUN_COLLECT_GROWTH_BYTES` past what its last collection kept, and a thread holding grammars also once the process grew ' +
        '`BUN_COLLECT_RSS_GROWTH_BYTES` (src/bun-heap.ts): the machine code JSC compiles for the grammars\' lexers, and the code it retires, are given back only ' +
        'at a collection. Loading the runtime and four grammars raises RSS about 62 MB on Bun against 36 MB on Node. JSC has no runtime switch for its ' +
        'WebAssembly tiers: `BUN_JSC_useOMGJIT=0` at start takes a one-thread parse\'s peak from 172 to 134 MB but parses 1.35× slower.',
    );
  }
  return parts.join('\n');
}

/** A runtime's bench that did not finish (the doc script's optional Bun run). */
export interface BenchFailed {
  failed: string;
}

/** The bench on each SQLite driver: the same command, one run after the other on this machine. */
function driversSection(bench: BenchJson, other: BenchJson | null): string {
  if (!other) return 'Only one driver in this run (Node 24 was not installed, or the bench already ran on node:sqlite).';
  const runs = [bench, other];
  const head = runs.map((b) => `${b.machine?.runtime ?? '?'} + ${b.machine?.sqlite_driver ?? '?'} (SQLite ${b.machine?.sqlite_version ?? '?'})`);
  const cell = (b: BenchJson, f: (b: BenchJson) => string | undefined) => { const v = f(b); return v === undefined || v === null ? '—' : v; };
  const burst = (size: number, key: 'total_ms' | 'drain_ms') => (b: BenchJson) => { const r = b.runs.find((x) => x.size === size); return r ? `${fmt(r[key])} ms` : undefined; };
  const rows: string[][] = [];
  for (const r of bench.runs) {
    rows.push([`${r.size}-file burst, total`, ...runs.map((b) => cell(b, burst(r.size, 'total_ms')))]);
    rows.push([`${r.size}-file burst, drain`, ...runs.map((b) => cell(b, burst(r.size, 'drain_ms')))]);
  }
  rows.push(['idle tick', ...runs.map((b) => cell(b, (x) => (x.idle_tick_ms === undefined ? undefined : `${fmt(x.idle_tick_ms)} ms`)))]);
  rows.push(['peak RSS (bursts)', ...runs.map((b) => `${fmt(b.peak_rss_mb)} MB`)]);
  rows.push(['seek p99, idle', ...runs.map((b) => cell(b, (x) => (x.mcp?.seek_idle_p99_ms == null ? undefined : `${fmtMs(x.mcp.seek_idle_p99_ms)} ms`)))]);
  rows.push(['seek p99, during a drain', ...runs.map((b) => cell(b, (x) => (x.mcp?.seek_drain_p99_ms == null ? undefined : `${fmtMs(x.mcp.seek_drain_p99_ms)} ms`)))]);
  rows.push(['targets met', ...runs.map((b) => `${(b.targets ?? []).filter((t) => t.status === 'met').length} of ${(b.targets ?? []).filter((t) => t.status !== 'information').length}`)]);
  const missed = other.targets?.filter((t) => t.status === 'missed') ?? [];
  return [
    `The same command on both Node drivers, one after the other on the same machine (absolute times drift between runs; compare within a row).`,
    '',
    table(['', ...head], rows, [':--', ...head.map(() => '--:')]),
    '',
    missed.length ? `Missed on ${other.machine?.sqlite_driver}: ${missed.map((t) => `${t.target} (${value(t)})`).join('; ')}.` : `Every target is met on ${other.machine?.sqlite_driver} too.`,
  ].join('\n');
}

/**
 * docs/benchmarks.md from a run's JSON (`gardener bench --json`), beside the same run on the
 * other SQLite driver when there is one. A saved run from before a part existed still renders:
 * the part says it was not in that run.
 */
export interface MarkdownParts {
  /** The same bench on the other Node driver (Node 24, node:sqlite). */
  other?: BenchJson | null;
  /** The same bench on Bun, or why it did not finish. */
  bun?: BenchJson | BenchFailed | null;
  /** The "Large repositories" section (large-repo-markdown.ts), markers included, or ''. */
  largeSection?: string;
  /** An earlier run, whose largest burst's stages stand beside this run's. */
  before?: BenchJson | null;
}

export function formatMarkdown(bench: BenchJson, parts: MarkdownParts = {}): string {
const { other = null, bun = null, largeSection = '', before = null } = parts;
const m: Partial<Machine> = bench.machine ?? {};
const bySize = new Map(bench.runs.map((r) => [r.size, r]));
const targetRows = (bench.targets ?? []).map((t) => [t.target, value(t), status(t)]);
const refRows = bench.reference.bursts.map((ref) => {
  const o = bySize.get(ref.size);
  return [
    String(ref.size),
    `${fmt(ref.detect_ms)} ms`,
    ref.drain_ticks ? `${ref.drain_ticks} (${fmt(ref.drain_ms)} ms)` : '0',
    `${fmt(ref.total_ms)} ms`,
    `${ref.per_file_ms.toFixed(1)} ms`,
    o ? `${fmt(o.total_ms)} ms` : '—',
    o ? `${o.per_file_ms.toFixed(2)} ms` : '—',
    o ? `${Math.round(ref.total_ms / o.total_ms)}×` : '—',
  ];
});

const doc = `# Benchmarks

<!-- Written by scripts/update-bench-doc.mjs from a real run of \`gardener bench --json\`. Do not edit by hand: run \`npm run bench:doc\`. -->

What a burst of changed files costs Gardener, from the moment a tick starts until every path of
the burst is in the code map (detected, hashed, extracted, written, removed from the backlog).
Each burst is made in a temporary git repository of ${bench.base_files ?? '?'} generated source files (~8 KB
each; TypeScript, Python, Go, Rust, Java): about 60% edits, 30% new untracked files, 10%
deletions. Numbers are medians of ${bench.runs_per_size ?? '?'} runs per size.

This page is the full bench (\`gardener bench --full\`, what \`npm run bench:doc\` runs). \`npm start\`
runs the quick bench (\`gardener bench\`): the same bursts, idle tick, skeleton, memory, MCP
\`initialize\` and \`seek\`, judged the same way, with the slow parts once and without the
watcher, the owner, refs/impact and the references' cost, so it ends within two minutes on a
slow 2-core machine. Ratios to floors measured in the same run, and memory, decide which targets
are met; absolute times are shown as information (see [Targets](#targets)).

- **Date**: ${bench.date ?? 'unknown'}
- **Machine**: ${m.cpus ?? '?'} CPUs (${m.cpu_model ?? '?'}), ${m.total_mem_mb ? `${Math.round(m.total_mem_mb / 1024)} GB RAM` : '? RAM'}, ${m.platform ?? '?'} ${m.arch ?? ''} ${m.os_release ?? ''}
- **Runtime**: ${m.runtime ?? '?'} with ${m.sqlite_driver ?? '?'} (SQLite ${m.sqlite_version ?? '?'}), git ${m.git_version ?? '?'}, ${m.pool_threads ?? '?'} pool threads, drain batches of 32 files
- **Command**: \`gardener ${BENCH_DOC_ARGS.join(' ')}\`

## Burst ticks

${table(
  ['burst', 'detect', 'drain', 'batches', 'total', 'per file', 'floor', 'total / floor', 'write floor', 'total / (floor + write floor)', 'loop delay p99'],
  bench.runs.map((r) => [
    String(r.size),
    `${fmt(r.detect_ms)} ms`,
    `${fmt(r.drain_ms)} ms`,
    String(r.batches),
    `**${fmt(r.total_ms)} ms**`,
    `${r.per_file_ms.toFixed(2)} ms`,
    `${fmt(r.floor_ms)} ms`,
    r.ratio !== undefined ? `${r.ratio.toFixed(1)}×` : `${(r.total_ms / r.floor_ms).toFixed(1)}×`,
    r.write_floor_ms !== undefined ? `${fmt(r.write_floor_ms)} ms` : '—',
    r.write_floor_ratio !== undefined ? `${r.write_floor_ratio.toFixed(2)}×` : '—',
    `${r.loop_delay_p99_ms.toFixed(1)} ms`,
  ]),
  ['--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:'],
)}

- *total*: wall time of the one tick that ingests the whole burst; *detect* and *drain* are its stages.
- *floor*: the same burst's unavoidable work, measured right after the tick: a bare
  \`git status --porcelain -uall\` plus reading and xxh64-hashing the burst's present files on one thread.
- *write floor*: one transaction inserting the burst's own rows (code map and full-text index) into a
  scratch store of the same schema, measured right after the floor (\`bench/write-floor.ts\`).
- *loop delay p99*: the main thread's event-loop delay during the tick (\`monitorEventLoopDelay\`, 1 ms resolution).

${bench.idle_tick_ms !== undefined ? `An idle tick (nothing changed) takes **${fmt(bench.idle_tick_ms)} ms**, against ${fmt(bench.git_status_ms)} ms for a bare \`git status\` (${bench.idle_ratio.toFixed(2)}×).` : ''}
The whole bench process (main thread, pool and store writer threads, the first ingest of
${bench.ingest?.files ?? '?'} files included${bench.mcp ? ', before the MCP part' : ''}) peaked at **${fmt(bench.peak_rss_mb)} MB** RSS${bench.rss_after_ingest_mb !== undefined ? ` (${fmt(bench.rss_after_ingest_mb)} MB of it reached during that first ingest)` : ''}${bench.mcp ? `; ${fmt(bench.mcp.peak_rss_mb)} MB by the end of the MCP part` : ''}.

${treeSitterSection(bench)}## Memory

${memorySection(bench, other, bun)}

## MCP: cold \`initialize\` and \`seek\`

${mcpSection(bench)}

## The live watcher

${watchSection(bench)}

## References

${referencesSection(bench)}

## The skeleton

${skeletonSection(bench)}

## Targets

Ratios to floors measured in the same run, and memory, decide what is met. A target that is an
absolute time is shown as *information*: its limit was set on another machine
(${TARGETS_SET_ON}), and absolute times differ 3–4× between 2-core machines.

${table(['target', 'measured', ''], targetRows, [':--', '--:', ':--'])}

## Drivers side by side

${driversSection(bench, other)}

## Beside the reference

The system Gardener replaces (DESIGN.md §9: measured on a laptop, git backend, budget 32; its
bench process peaked at ~${(bench.reference.peak_rss_mb / 1000).toFixed(1)} GB RSS). It needed extra ticks to drain a burst;
Gardener drains a burst in the tick that detects it.

${table(
  ['burst', 'ref detection tick', 'ref drain ticks', 'ref total', 'ref per file', 'Gardener total', 'Gardener per file', 'speed-up'],
  refRows,
  ['--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:'],
)}

## Where the time goes

${stageSection(bench, before)}

${whereTheTimeGoes(bench)}

${largeSection}## Reproduce

\`\`\`sh
npm run build
node dist/src/cli/main.js bench                  # the quick bench (what npm start runs): table on stdout, progress on stderr
node dist/src/cli/main.js bench --full           # everything this page shows
node dist/src/cli/main.js bench --json           # one JSON object
node dist/src/cli/main.js bench --no-mcp         # bursts only: no MCP initialize or seek latency
node_modules/node/bin/node dist/src/cli/main.js bench   # the same on Node 24 (node:sqlite)
node_modules/.bin/bun dist/src/cli/main.js bench        # the same on Bun (bun:sqlite)
npm run bench:doc                                # re-run on Node 20, Node 24 and Bun and rewrite this page
node dist/src/cli/main.js bench --large-repo --base-files 100000 --repo-cache /tmp/gardener-bench-cache --json > large.json
node scripts/update-bench-doc.mjs --from run.json --from-large large.json   # add the large-repository section
\`\`\`
`;
return doc;
}
