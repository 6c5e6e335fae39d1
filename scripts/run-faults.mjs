// Maintainer script behind `npm run test:faults`: the fault-and-fuzz suite (dist/test/faults),
// one file at a time (timings and peak RSS are measured, and the machine has 2 cores), seeded
// so a red run is reproduced by its seed. Prints the figures every test recorded and the
// suite's wall time; with --write-doc also writes docs/reliability.md from them, so the
// numbers in the doc are the ones this run produced.
//
//   npm run test:faults                           CI size (FAULTS_SCALE=1), seed 20261130
//   FAULTS_SEED=7 FAULTS_SCALE=10 npm run test:faults   a longer local run with another seed
//   node scripts/run-faults.mjs kill              only the files whose name contains "kill"
//   node scripts/run-faults.mjs --write-doc       the whole suite, then docs/reliability.md
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTestFiles } from './test-files.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, 'dist', 'test', 'faults');
/** Bound on one test and on one test file, in ms: the longest (kill points at scale 1) takes about a minute. */
const FILE_TIMEOUT_MS = 600_000;

/** Where the soak's own sections of docs/reliability.md begin (bench/soak/report.ts's docBegin). */
const SOAK_SECTIONS_BEGIN = '<!-- soak:begin ';

const args = process.argv.slice(2);
const writeDoc = args.includes('--write-doc');
const only = args.filter((a) => !a.startsWith('--'));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.test.js'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .map((f) => join(dir, f));
if (writeDoc && only.length > 0) {
  console.error('run-faults: --write-doc needs the whole suite (no file filter)');
  process.exit(2);
}

const seed = process.env.FAULTS_SEED || '20261130';
const scale = process.env.FAULTS_SCALE || '1';
const reports = mkdtempSync(join(tmpdir(), 'gardener-faults-'));
console.error(`run-faults: seed ${seed}, scale ${scale}, ${files.length} files (rerun with FAULTS_SEED=${seed} FAULTS_SCALE=${scale})`);
const started = performance.now();
// One file at a time (scripts/test-files.mjs: every test counted, a file that does not end fails by name).
const run = await runTestFiles(files, {
  concurrency: 1,
  testMs: FILE_TIMEOUT_MS,
  fileMs: FILE_TIMEOUT_MS,
  env: { ...process.env, FAULTS_SEED: seed, FAULTS_SCALE: scale, FAULTS_REPORT: reports },
  label: 'run-faults',
});
const seconds = (performance.now() - started) / 1000;
const figures = Object.fromEntries(
  readdirSync(reports).map((f) => {
    const fig = JSON.parse(readFileSync(join(reports, f), 'utf8'));
    return [fig.name, fig];
  }),
);
rmSync(reports, { recursive: true, force: true });
let status = run.ok ? 0 : 1;
// Every fault test records figures, so a missing one is a failure (a test that returned early).
const EXPECTED = ['burst-20k', 'deep-bodies', 'disk-trouble', 'kill-anywhere', 'mcp-fuzz', 'mcp-fuzz-proxy', 'owner-stall', 'paths-escape', 'session-flood', 'wide-bodies', 'stuck-git-stop', 'stuck-git-half', 'owner-impostor', 'owner-pushed-aside', 'owner-resume', 'pool-ends-mid-load'];
const missing = EXPECTED.filter((n) => files.some((f) => f.includes(n.replace(/-(stop|half|proxy)$/, ''))) && !figures[n]);
if (missing.length > 0) {
  console.error(`run-faults: these tests recorded no figures (did not run to the end): ${missing.join(', ')}`);
  status = 1;
}

console.log(`\nfault-and-fuzz suite: ${status === 0 ? 'passed' : 'FAILED'} in ${seconds.toFixed(0)} s (seed ${seed}, scale ${scale})`);
for (const fig of Object.values(figures)) {
  const { name, seed: _s, scale: _c, ...rest } = fig;
  console.log(`  ${name}: ${JSON.stringify(rest)}`);
}

if (writeDoc) {
  if (status !== 0) {
    console.error('run-faults: the suite failed; docs/reliability.md left as it was');
  } else {
    // The soak's sections (bench/soak/report.ts) and what follows them are the soak's: kept as they are.
    const doc = join(root, 'docs', 'reliability.md');
    const old = existsSync(doc) ? readFileSync(doc, 'utf8') : '';
    const soakAt = old.indexOf(SOAK_SECTIONS_BEGIN);
    writeFileSync(doc, renderDoc(figures, { seed, scale, seconds }) + (soakAt >= 0 ? `\n${old.slice(soakAt)}` : ''));
    console.error('run-faults: wrote docs/reliability.md');
  }
}
process.exit(status);

function renderDoc(f, run) {
  const need = ['kill-anywhere', 'mcp-fuzz', 'mcp-fuzz-proxy', 'paths-escape', 'stuck-git-stop', 'stuck-git-half', 'burst-20k', 'owner-impostor', 'owner-pushed-aside', 'owner-resume', 'owner-stall', 'deep-bodies', 'wide-bodies', 'session-flood', 'pool-ends-mid-load'];
  for (const n of need) if (!f[n]) throw new Error(`run-faults: no figures from ${n}`);
  const k = f['kill-anywhere'];
  const z = f['mcp-fuzz'];
  const p = f['paths-escape'];
  const b = f['burst-20k'];
  const d = f['disk-trouble'];
  const gitStop = f['stuck-git-stop'];
  const gitHalf = f['stuck-git-half'];
  const zp = f['mcp-fuzz-proxy'];
  const imp = f['owner-impostor'];
  const aside = f['owner-pushed-aside'];
  const resume = f['owner-resume'];
  const stall = f['owner-stall'];
  const deep = f['deep-bodies'];
  const wide = f['wide-bodies'];
  const flood = f['session-flood'];
  const poolEnd = f['pool-ends-mid-load'];
  const yes = (v) => (v ? 'yes' : '**no**');
  const git = spawnSync('git', ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^git version /, '');
  const cpus = spawnSync('nproc', { encoding: 'utf8' }).stdout.trim();
  const phases = Object.entries(k.by_phase).map(([ph, n]) => `${ph} ${n}`).join(', ');
  const lines = [
    '# Reliability',
    '',
    '<!-- Written by scripts/run-faults.mjs from a real run of the fault-and-fuzz suite. Do not edit by hand: run `npm run faults:doc`. -->',
    '',
    'What the fault-and-fuzz suite (`npm run test:faults`, tests in `test/faults/`) did to Gardener',
    'in its last recorded run, and what held. Every case is seeded: the same seed makes the same',
    'kill points, the same random bytes and the same wrong arguments on every machine.',
    '',
    `- **Date**: ${new Date().toISOString()}`,
    `- **Machine**: ${cpus} CPUs, ${process.platform} ${process.arch}; node ${process.version}, git ${git}`,
    `- **Seed**: ${run.seed}, **scale**: ${run.scale} (\`FAULTS_SEED=${run.seed} FAULTS_SCALE=${run.scale} npm run test:faults\` repeats it)`,
    `- **Suite wall time**: ${run.seconds.toFixed(0)} s, one test file at a time`,
    '',
    '## Summary',
    '',
    '| fault | tried | what held |',
    '| --- | --: | --- |',
    `| kill -9 of a process ingesting and draining | ${k.kill_points} kill points (${k.killed} landed) | after each, one more tick: empty backlog, all ${k.burst_files} burst files mapped with their new content, no duplicated rows, \`integrity_check\` ok |`,
    `| fuzzed JSON-RPC on stdio | ${z.fuzz_cases} cases (${z.tool_cases} wrong-argument tool calls), each followed by a ping | ${z.errors} answered with an error, the rest answered normally; every ping answered; **${z.crashes} crashes**; peak RSS ${z.peak_rss_mb} MB |`,
    `| the same fuzz through \`gardener mcp\` proxying to an owner | ${zp.fuzz_cases} cases, each followed by a ping | ${zp.errors} answered with an error; every ping answered; **${zp.crashes} crashes**; proxy peak RSS ${zp.peak_rss_mb} MB, owner ${zp.owner_peak_rss_mb} MB |`,
    `| paths that escape the root | ${p.cases} tool calls | ${p.refused} refused, the FIFO outside the root never opened |`,
    `| git SIGSTOPped mid-status | 1 tick | ended in ${gitStop.tick_ms} ms (git bound set to ${gitStop.git_timeout_ms} ms; default 30 s) with an alert, ${gitStop.left_behind} git left behind, next tick drained ${gitStop.next_tick_drained} |`,
    `| git that writes half its output and hangs | 1 tick | ended in ${gitHalf.tick_ms} ms (git bound set to ${gitHalf.git_timeout_ms} ms; default 30 s) with an alert, ${gitHalf.left_behind} git left behind, next tick drained ${gitHalf.next_tick_drained} |`,
    d
      ? `| brain folder on a full disk (${d.disk === 'tmpfs' ? `a tmpfs of ${d.tmpfs_kib / 1024} MB` : 'SQLITE_FULL injected into the writer: no tmpfs mount allowed'}), then read-only | ${d.full.length + 1} ticks | ${d.full.map((x) => `full at the ${x.failed_at}: "${x.error}"${x.alert_recorded ? ' with an alert' : ' (no room for the alert: logged)'}, ${x.committed_before_full} files committed before, ${x.queued_at_full} still queued, ${x.drained_after} drained once space returned`).join('; ')}; read-only: "${d.read_only.error}" (${d.read_only.code}${d.read_only.alert_recorded ? ', alert' : d.read_only.alert_recorded_late ? ', alert recorded by the same process once the store could take it' : ', logged: the store takes no alert'}), map and backlog unchanged, work resumed |`
      : '| brain folder on a full disk, then read-only | not run | |',
    `| the worker pool closed while a thread loads its first detect task, at seeded moments | ${poolEnd.rounds} closes | the process outlived every one (${(poolEnd.ms / 1000).toFixed(0)} s) |`,
    `| a ${b.files.toLocaleString('en-US')}-file checkout | 1 tick | drained completely in ${(b.tick_ms / 1000).toFixed(1)} s (${b.batches} batches); **peak RSS ${b.peak_rss_mb} MB** (bound ${b.bound_mb} MB; the same process ticking nothing: ${b.idle_tick_peak_rss_mb} MB) |`,
    '',
    '## Attacks on the owner (another local user, a hostile client)',
    '',
    'The threat model is in [owner.md](owner.md#threat-model): other local users are attackers,',
    'processes of the same user are trusted, and anything holding the token is a client that must',
    'never stall or bloat the owner. Each attack below was reproduced against the owner before its',
    'fix (the test was seen red), and is now part of this suite.',
    '',
    '| attack | what held |',
    '| --- | --- |',
    `| user \`nobody\` listens first on the socket fallback path (\`<tmp>/gardener-<uid>/\`) | \`gardener mcp\` served in-process: ${yes(imp.mcp_served_in_process)}; connections the impostor got: **${imp.impostor_connections}**, bytes it captured: **${imp.impostor_bytes_captured}**; \`serve --status\` exit ${imp.status_exit}, \`serve\` refused the fallback folder (exit ${imp.serve_exit}) |`,
    `| a second \`serve\` while the owner is SIGSTOPped | the second exited ${aside.stopped_owner_b_exit} after ${aside.stopped_owner_b_gave_up_ms} ms saying an owner holds the home but does not answer; \`owner.json\`, socket and HTTP still the first owner's: ${yes(aside.stopped_owner_kept)} |`,
    `| a \`serve\` after the owner was SIGKILLed, a silent listener left on its socket path | ready in ${aside.killed_owner_next_ready_ms} ms (the lock is free at once; no handshake wait); dials of the stale socket: ${aside.killed_owner_socket_dialed} |`,
    `| owner SIGKILLed mid-drain (${resume.backlog_at_kill} of ${resume.burst_files} paths still queued), ${resume.edited_while_down} files edited while it was down, restarted, only \`seek\` called | backlog 0 and all ${resume.edited_while_down} edits findable ${resume.caught_up_ms} ms after the restart (${resume.seek_calls} seeks) |`,
    `| the owner SIGSTOPped while a proxied \`seek\` waits | answered in-process ${stall.stall_answered_ms} ms after the stop (liveness bound set to ${stall.stall_liveness_ms} ms for the test; default 10 s) |`,
    `| a line over 4 MiB, then invalid UTF-8, through the proxy | -32600 with the request's id: ${yes(stall.over_long_answered_with_id)}; session stayed on the owner (no in-process switch): ${yes(stall.session_stayed_on_owner)} |`,
    `| ${deep.bodies} REST bodies of 4 MiB nested ${deep.depth.toLocaleString('en-US')} deep at once, ${deep.rounds} rounds | all ${deep.refused} refused before parsing; another client's REST seek p99 **${deep.seek_p99_ms} ms** (bound ${deep.p99_bound_ms}; quiet p50 ${deep.quiet_seek_p50_ms} ms); owner RSS ${deep.rss_before_mb} → ${deep.rss_after_mb} MB after (bound ${deep.rss_bound_mb}), peak ${deep.peak_rss_mb} MB |`,
    `| ${wide.bodies} bodies of 4 MiB holding a million small arrays; then ${wide.bodies} legal heavy bodies | wide: refused, seek p99 ${wide.wide_seek_p99_ms} ms, RSS after ${wide.wide_rss_after_mb} MB; heavy: parsed one per turn, seek p99 ${wide.heavy_seek_p99_ms} ms, RSS after ${wide.heavy_rss_after_mb} MB (garbage until the GC runs); peak ${wide.peak_rss_mb} MB |`,
    `| ${flood.spellings.toLocaleString('en-US')} spellings of one folder (\`/repo/././.\`, slashes, ${flood.symlinks} symlinks) over REST | **${flood.rest_sessions_for_spellings}** REST session |`,
    `| ${flood.health_checks.toLocaleString('en-US')} MCP health checks (\`initialize\`, then nothing) | ${flood.health_checks_accepted} kept, ${flood.health_checks_refused} refused with 503 (bound ${flood.max_sessions} sessions); unused sessions end 1 min after \`initialize\`; owner peak RSS ${flood.peak_rss_mb} MB |`,
    '| secrets in the map (`.env`, `.env.local`, a PEM key, a host MCP config with a bearer token, `ghp_…` and `AKIA…` in source, `.npmrc`, Gardener\'s token) | findable by neither `seek` nor `delegate`, an ordinary word beside each one still found (`test/secrets-stay-out-of-the-map.test.ts`, in `npm test`; the list and the token formats are in [secrets.md](secrets.md)) |',
    '',
    '## Kill -9 anywhere',
    '',
    `A child process ingests and drains a burst of ${k.burst_files} rewritten files and SIGKILLs itself at a`,
    'seeded point: during detection (git running in the pool), while the changed set is pushed to',
    'the writer, inside a commit of results, between batches, while a note is written, or while',
    'the writer migrates a store left at an older schema. Each kill point is a phase, a batch index',
    'and a seeded delay that blocks only the main thread, so the workers are mid-work when it lands.',
    '',
    `- kill points by phase: ${phases}`,
    `- notes: ${k.notes_committed_before_kill} committed before the kill, ${k.notes_not_yet_committed} not yet (never half)`,
    `- migrations: ${k.migrations_killed_before_commit} killed before their commit, ${k.migrations_killed_after_commit} after (schema and tables always agree)`,
    '',
    '## Fuzzed JSON-RPC',
    '',
    'Against the built `gardener mcp` over stdio: seeded random byte lines, invalid UTF-8 inside a',
    'request, a 10 MB junk line and a 10 MB request, JSON nested 100,000 deep, malformed envelopes,',
    'unknown methods, `shutdown`/`exit` followed by more requests, and a value of every wrong JSON type',
    'for every argument of every listed tool. After each case a `ping` must be answered; stdout must',
    'stay protocol only. Bytes that are not UTF-8 or not JSON are answered `-32700` (id null); JSON',
    'nested deeper than 64 levels, or a line over 4 MiB, is answered `-32600` with the id the line',
    'carries (found by a streaming scan, wherever it sits), and the session goes on. The same cases',
    'run again through `gardener mcp` proxying to a real owner, where the answers must be the same.',
    '',
    `- requests sent: ${z.requests} (${z.fuzz_cases} fuzz cases, ${z.pings} pings); answered with an error: ${z.errors}; crashes: ${z.crashes}; server peak RSS: ${z.peak_rss_mb} MB`,
    `- through the proxy: ${zp.requests} requests, ${zp.errors} errors, ${zp.crashes} crashes; proxy peak RSS ${zp.peak_rss_mb} MB, owner ${zp.owner_peak_rss_mb} MB`,
    '- the cases answered normally are the ones that are valid after all: nesting within the bound,',
    '  `tools/list` after `shutdown` and `exit`, and the `tools/list` the wrong-argument cases are built from',
    '',
    '## Paths that escape',
    '',
    '`scan {paths}` and `remember {files}` were given `../` paths, absolute paths outside the root,',
    'a symlink and a symlinked folder leading out, NUL bytes, backslashes and over-long names;',
    '`ingest {path}` a FIFO, links to one, NUL bytes and over-long names. A FIFO outside the root',
    'would block any reader: after every call nobody held it open. A mapped file swapped for a',
    'FIFO leaves the map without blocking the drain.',
    '',
    '## Found and fixed by this suite',
    '',
    '- On Node 20.19+, closing the worker pool (or aborting a task) while a thread loaded a task',
    '  file aborted the whole process (`v8::Module::IsGraphAsync must be used on an instantiated',
    '  module`; a CI run lost the refs eval to it): Piscina loads task files with `require()`, which',
    '  is require(esm) there. Pool threads now start with `--no-experimental-require-module`, so',
    '  Piscina imports them. The same closes showed that a task answering just as the pool closed',
    "  made Piscina emit an 'error' nobody listened to, which also ended the process.",
    '- A line over 10 MiB on stdin closed the MCP transport for good and the server exited (code 13)',
    '  with requests unanswered; lines that were not JSON got no answer at all. The stdio transport',
    '  now answers every line (`-32700`/`-32600`, id null) and skips an oversized one as it streams.',
    '- A mapped file replaced by a FIFO blocked a pool thread forever on `open`; files are now opened',
    '  with `O_NONBLOCK`.',
    '- A symlink inside the root leading out, a NUL byte, a backslash or an over-long name in a tool',
    '  path was accepted (nothing was read through it, but a NUL byte failed the whole tick); they are',
    '  refused with a message naming the path.',
    '- A stopped git held a tick for the pool\'s 120 s bound, and the failure read "cancelled": a',
    '  tick now bounds each git process (`gitTimeoutMs`, default 30 s) and says it timed out.',
    '- A store writer that failed to open its store (a read-only folder) replayed that failure on every',
    '  later call for the life of the process, so a long-running server never resumed; and a',
    '  connection SQLite had opened read-only stayed so. The next call now starts a fresh writer, and',
    '  a read-only refusal reopens the connection.',
    '- A failure the store could not take as an alert (read-only, full) was only logged; the vigil now',
    '  keeps it and records it, with its own time, once the store can be written.',
    '- Closing a Unix socket server makes libuv unlink the socket path, whoever\'s socket is there by',
    '  then: an owner pushed aside deleted its successor\'s socket on shutdown. The owner now binds under',
    '  a private name and renames it into place, and removes only the socket whose device and inode it',
    '  bound.',
    '- A reaped HTTP health-check session never closed the brain session behind it.',
    '- A git killed by a cancelled `changes` call stayed a zombie while its Piscina thread idled in',
    '  `Atomics.wait`; `runGit` now answers a kill only once git is reaped.',
    '',
    '## Known gaps',
    '',
    '- The owner lock is a POSIX lock on `run/owner.lock`: on a file system without them (some NFS',
    '  setups) two owners of one home are not kept apart. Untested.',
    '- A failure the store cannot take as an alert is recorded late only by the process that saw it',
    '  (a CLI run that ends before the store is writable again only logs it).',
    '',
    '## Scaling up',
    '',
    'CI runs scale 1 (a few minutes on 2 cores). `FAULTS_SCALE=10` multiplies the kill points, random',
    'lines and unknown methods by ten; `FAULTS_SEED` picks another sequence; `FAULTS_BURST_FILES`',
    'sets the size of the checkout burst.',
    '',
  ];
  return lines.join('\n');
}
