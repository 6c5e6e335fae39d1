// Maintainer script behind `npm run bench:doc` (pino's update-bench-doc habit): runs the built
// `gardener bench --json` once, for real, and writes docs/benchmarks.md from its output, so the
// numbers in the docs are the numbers the code produced (MCP cold initialize and seek latency
// included). Progress goes to stderr.
//
// The bench runs on the Node that runs npm, then again on Node 24 (the `node` dev dependency,
// node:sqlite) when that is another runtime, and the page puts the two drivers side by side.
//
//   npm run bench:doc                      sizes 10,100,1000, 5000 base files, 3 runs
//   node scripts/update-bench-doc.mjs --from run.json [--from-node24 run24.json] [--before old.json]
//                                          re-render from saved --json outputs; --before adds an
//                                          earlier run's stages beside this one's (bench-doc-stages.mjs)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { stageSection } from './bench-doc-stages.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = fileURLToPath(new URL('../dist/src/cli/main.js', import.meta.url));
const out = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
const ARGS = ['bench', '--json', '--sizes', '10,100,1000', '--base-files', '5000', '--runs', '3'];

const NODE_24 = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));

function runBench(runtime = process.execPath) {
  process.stderr.write(`update-bench-doc: ${runtime} ${['dist/src/cli/main.js', ...ARGS].join(' ')}\n`);
  const r = spawnSync(runtime, [cli, ...ARGS], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 16 << 20 });
  if (r.error) throw r.error;
  if (r.status !== 0) {
    process.stderr.write(`update-bench-doc: the bench exited with ${r.status}; docs/benchmarks.md left as it was\n`);
    process.exit(r.status ?? 1);
  }
  return r.stdout.toString('utf8');
}

const argAfter = (flag) => (process.argv.indexOf(flag) > 0 ? process.argv[process.argv.indexOf(flag) + 1] : undefined);
const from = argAfter('--from');
const raw = from ? readFileSync(from, 'utf8') : runBench();
const bench = JSON.parse(raw);
/** The same bench on the other driver (Node 24, node:sqlite), when there is one. */
const from24 = argAfter('--from-node24');
const node24Runs = from24 || (!from && existsSync(NODE_24) && bench.machine?.sqlite_driver !== 'node:sqlite');
const beforeFile = argAfter('--before');
const before = beforeFile ? JSON.parse(readFileSync(beforeFile, 'utf8')) : null;
const other = node24Runs ? JSON.parse(from24 ? readFileSync(from24, 'utf8') : runBench(NODE_24)) : null;
for (const key of ['runs', 'peak_rss_mb', 'reference']) {
  if (!(key in bench)) throw new Error(`update-bench-doc: the bench output has no "${key}"`);
}

const fmt = (x) => (x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toFixed(1));
/** Sub-10 ms latencies (seek) keep two decimals. */
const fmtMs = (x) => (x >= 10 ? fmt(x) : x.toFixed(2));
const pct = (part, whole) => `${Math.round((100 * part) / whole)}%`;
const row = (cells) => `| ${cells.join(' | ')} |`;
const table = (header, rows, align) => [row(header), row(align), ...rows.map(row)].join('\n');
const m = bench.machine ?? {};
const bySize = new Map(bench.runs.map((r) => [r.size, r]));
const status = (t) => (t.status === 'met' ? '✅ met' : t.status === 'missed' ? '❌ missed' : 'not measured');
const value = (t) => (t.value === null ? '—' : t.unit === 'x' ? `${t.value.toFixed(2)}×` : `${t.unit === 'ms' ? fmtMs(t.value) : fmt(t.value)} ${t.unit}`);

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 'es'}`;
const dominant = (r) => (r.drain_ms >= r.detect_ms ? 'drain' : 'detection');

/** "Where the time goes", computed from the numbers only. */
function whereTheTimeGoes() {
  const lines = [];
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
        const mcp = bench.mcp;
        const ms = t.target.includes('parked') ? mcp.parked_git_initialize_ms : mcp.initialize_ms;
        lines.push(`- ${t.target} (${value(t)}): ${fmt(ms)} ms against ${fmt(mcp.baseline_initialize_ms)} ms, ${fmt(ms - mcp.baseline_initialize_ms)} ms spent before the answer that the minimal SDK server does not spend.`);
      } else if (t.target.startsWith('seek') && bench.mcp?.seek_idle_p99_ms != null) {
        const mcp = bench.mcp;
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

/** The MCP part: cold initialize beside a minimal SDK server, and server-side seek latency. */
/** The tree-sitter burst (bench/tree-sitter-burst.ts); empty for a run from before it existed. */
function treeSitterSection() {
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

function mcpSection() {
  const mcp = bench.mcp;
  if (mcp === undefined) return 'Not in this run (the bench predates the MCP part).';
  if (mcp === null) return 'Skipped in this run (`--no-mcp`).';
  const parts = [];
  if (mcp.initialize_ms !== null) {
    const s = mcp.initialize_samples_ms;
    const ratio = (r) => (r === null ? '—' : `${r.toFixed(2)}×`);
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
        `a ${mcp.seek_drain_burst_files}-file burst while queries run back to back until it ends.`,
      '',
      table(
        ['when', 'queries', 'p50', 'p99', 'slowest'],
        [
          ['idle', String(mcp.seek_queries), `${fmtMs(mcp.seek_idle_p50_ms)} ms`, `**${fmtMs(mcp.seek_idle_p99_ms)} ms**`, `${fmtMs(mcp.seek_idle_max_ms)} ms`],
          [
            `during a ${mcp.seek_drain_burst_files}-file drain (tick ${fmt(mcp.seek_drain_tick_ms)} ms)`,
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
        `(each proxy is a bare Node process), beside four in-process sessions; the owner idle after its sessions ended.`,
      '',
      table(
        ['measure', 'value'],
        [
          ['proxy cold initialize / in-process', `**${fmt(o.proxy_initialize_ms)} ms** / ${fmt(o.in_process_initialize_ms)} ms (**${o.proxy_initialize_ratio.toFixed(2)}×**)`],
          [`REST seek, ${o.rest_seek_calls} calls`, `p50 **${fmtMs(o.rest_seek_p50_ms)} ms**, p99 **${fmtMs(o.rest_seek_p99_ms)} ms**, slowest ${fmtMs(o.rest_seek_max_ms)} ms`],
          ['RSS, one session / four (owner + proxies)', `${fmt(o.one_session_rss_mb)} MB / ${fmt(o.four_sessions_rss_mb)} MB (${o.four_sessions_ratio.toFixed(2)}×)`],
          ['RSS of the owner alone, one session / four', `${fmt(o.owner_one_session_rss_mb)} MB / ${fmt(o.owner_four_sessions_rss_mb)} MB`],
          ['RSS, four in-process sessions', `${fmt(o.four_in_process_rss_mb)} MB`],
          ['idle owner', `${fmt(o.idle_owner_rss_mb)} MB, ${o.idle_cpu_s_per_min} CPU s per idle minute`],
        ],
        [':--', ':--'],
      ),
    );
  }
  for (const why of mcp.not_measured ?? []) parts.push('', `Not measured: ${why}`);
  return parts.join('\n');
}

/** The owner's watch path (bench/watch-latency.ts), on real timers and the real watch host. */
function watchSection() {
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

/** The skeleton's candidate and reconcile (bench/skeleton-reconcile.ts). */
/** References: refs and impact latency (MCP part), and what references cost the ingest (bench/references-cost.ts). */
function referencesSection() {
  const parts = [];
  const mcp = bench.mcp;
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

function skeletonSection() {
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

/** The bench on each SQLite driver: the same command, one run after the other on this machine. */
function driversSection() {
  if (!other) return 'Only one driver in this run (Node 24 was not installed, or the bench already ran on node:sqlite).';
  const runs = [bench, other];
  const head = runs.map((b) => `${b.machine?.runtime ?? '?'} + ${b.machine?.sqlite_driver ?? '?'} (SQLite ${b.machine?.sqlite_version ?? '?'})`);
  const cell = (b, f) => { const v = f(b); return v === undefined || v === null ? '—' : v; };
  const burst = (size, key) => (b) => { const r = b.runs.find((x) => x.size === size); return r ? `${fmt(r[key])} ms` : undefined; };
  const rows = [];
  for (const r of bench.runs) {
    rows.push([`${r.size}-file burst, total`, ...runs.map((b) => cell(b, burst(r.size, 'total_ms')))]);
    rows.push([`${r.size}-file burst, drain`, ...runs.map((b) => cell(b, burst(r.size, 'drain_ms')))]);
  }
  rows.push(['idle tick', ...runs.map((b) => cell(b, (x) => (x.idle_tick_ms === undefined ? undefined : `${fmt(x.idle_tick_ms)} ms`)))]);
  rows.push(['peak RSS (bursts)', ...runs.map((b) => `${fmt(b.peak_rss_mb)} MB`)]);
  rows.push(['seek p99, idle', ...runs.map((b) => cell(b, (x) => (x.mcp?.seek_idle_p99_ms == null ? undefined : `${fmtMs(x.mcp.seek_idle_p99_ms)} ms`)))]);
  rows.push(['seek p99, during a drain', ...runs.map((b) => cell(b, (x) => (x.mcp?.seek_drain_p99_ms == null ? undefined : `${fmtMs(x.mcp.seek_drain_p99_ms)} ms`)))]);
  rows.push(['targets met', ...runs.map((b) => `${(b.targets ?? []).filter((t) => t.status === 'met').length} of ${(b.targets ?? []).length}`)]);
  const missed = other.targets?.filter((t) => t.status === 'missed') ?? [];
  return [
    `The same command on both Node drivers, one after the other on the same machine (absolute times drift between runs; compare within a row).`,
    '',
    table(['', ...head], rows, [':--', ...head.map(() => '--:')]),
    '',
    missed.length ? `Missed on ${other.machine?.sqlite_driver}: ${missed.map((t) => `${t.target} (${value(t)})`).join('; ')}.` : `Every target is met on ${other.machine?.sqlite_driver} too.`,
  ].join('\n');
}

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

- **Date**: ${bench.date ?? 'unknown'}
- **Machine**: ${m.cpus ?? '?'} CPUs (${m.cpu_model ?? '?'}), ${m.total_mem_mb ? `${Math.round(m.total_mem_mb / 1024)} GB RAM` : '? RAM'}, ${m.platform ?? '?'} ${m.arch ?? ''} ${m.os_release ?? ''}
- **Runtime**: ${m.runtime ?? '?'} with ${m.sqlite_driver ?? '?'} (SQLite ${m.sqlite_version ?? '?'}), git ${m.git_version ?? '?'}, ${m.pool_threads ?? '?'} pool threads, drain batches of 32 files
- **Command**: \`gardener ${ARGS.join(' ')}\`

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

${treeSitterSection()}## MCP: cold \`initialize\` and \`seek\`

${mcpSection()}

## The live watcher

${watchSection()}

## References

${referencesSection()}

## The skeleton

${skeletonSection()}

## Targets

${table(['target', 'measured', ''], targetRows, [':--', '--:', ':--'])}

## Drivers side by side

${driversSection()}

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

${whereTheTimeGoes()}

## Reproduce

\`\`\`sh
npm run build
node dist/src/cli/main.js bench                  # table on stdout, progress on stderr
node dist/src/cli/main.js bench --json           # one JSON object
node dist/src/cli/main.js bench --no-mcp         # bursts only: no MCP initialize or seek latency
node_modules/node/bin/node dist/src/cli/main.js bench   # the same on Node 24 (node:sqlite)
npm run bench:doc                                # re-run on both drivers and rewrite this page
\`\`\`
`;

writeFileSync(out, doc);
process.stderr.write(`update-bench-doc: wrote ${out}\n`);
