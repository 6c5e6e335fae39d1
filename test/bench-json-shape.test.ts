/**
 * `gardener bench --json` is read by scripts (scripts/update-bench-doc.mjs, CI): its stdout is
 * exactly one JSON object whose named fields stay, every burst is fully drained, it cleans up
 * after itself (no parked git outlives its MCP server), and bad options are refused before
 * anything is made. Kept small (one 10-file burst on 200 files): CI machines have 2 cores.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
/** Generous bound for a 200-file bench on a slow 2-core machine, in ms. */
const BENCH_TIMEOUT_MS = 120_000;

function runCli(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env, timeout: BENCH_TIMEOUT_MS });
  if (r.error) throw r.error;
  return r;
}

/** The MCP part's keys that scripts read (bench/report/shape.ts, BenchJsonMcp). */
const MCP_KEYS = [
  'initialize_ms',
  'baseline_initialize_ms',
  'initialize_ratio',
  'parked_git_initialize_ms',
  'parked_git_ratio',
  'seek_idle_p50_ms',
  'seek_idle_p99_ms',
  'seek_drain_p50_ms',
  'seek_drain_p99_ms',
  'seek_drain_queries',
  'seek_drain_runs',
  'refs_p50_ms',
  'refs_p99_ms',
  'impact_p50_ms',
  'impact_p99_ms',
];

const isNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

describe('gardener bench --json', () => {
  it('prints one JSON object with a median row per size, every burst path drained, and leaves nothing behind', { timeout: BENCH_TIMEOUT_MS }, () => {
    // The bench's temp folder comes from os.tmpdir() (TMPDIR), and it must never touch GARDENER_HOME.
    const sandbox = mkdtempSync(join(tmpdir(), 'gardener-bench-test-'));
    try {
      const tmp = join(sandbox, 'tmp');
      const home = join(sandbox, 'home-never-created');
      mkdirSync(tmp);
      const r = runCli(['bench', '--full', '--sizes', '10', '--base-files', '200', '--runs', '1', '--json'], {
        ...process.env,
        TMPDIR: tmp,
        GARDENER_HOME: home,
        // The idle owner is watched for a minute in a real run; a second shows the field is there.
        GARDENER_BENCH_OWNER_IDLE_MS: '1000',
      });
      assert.equal(r.status, 0, r.stderr);
      const out = JSON.parse(r.stdout) as Record<string, unknown>;

      assert.ok(Array.isArray(out.runs));
      assert.equal(out.runs.length, 1);
      const run = out.runs[0] as Record<string, unknown>;
      for (const key of ['size', 'detect_ms', 'drain_ms', 'batches', 'total_ms', 'per_file_ms', 'floor_ms', 'loop_delay_p99_ms', 'write_floor_ms', 'write_floor_ratio', 'commit_work_ms', 'writer_other_ms']) {
        assert.ok(isNumber(run[key]), `runs[0].${key} is a number, got ${JSON.stringify(run[key])}`);
      }
      assert.equal(run.size, 10);
      assert.equal(run.drained, 10, 'every path of the burst was drained');
      assert.equal(run.detected, 10);
      assert.ok((run.batches as number) >= 1);
      assert.ok((run.total_ms as number) > 0 && (run.floor_ms as number) > 0);
      assert.ok((run.total_ms as number) >= (run.detect_ms as number), 'the tick contains its detection');
      assert.ok(Math.abs((run.per_file_ms as number) - (run.total_ms as number) / 10) < 0.01);
      assert.ok((run.loop_delay_p99_ms as number) >= 0);
      // The write floor is measured in the same run, and the tick is judged against both floors.
      const n0 = (key: string) => run[key] as number;
      assert.ok(n0('write_floor_ms') > 0, 'one transaction writing the burst takes time');
      assert.ok(Math.abs(n0('write_floor_ratio') - n0('total_ms') / (n0('floor_ms') + n0('write_floor_ms'))) < 0.02);
      assert.ok(n0('commit_work_ms') > 0 && n0('commit_work_ms') <= n0('commit_ms') + 0.01, "the writer's own time is part of the drain's wait on it");
      const skeleton = out.skeleton as Record<string, unknown>;
      for (const key of ['candidate_ms', 'rooms', 'inside_share', 'reconcile_ms', 'reconcile_loop_delay_p99_ms', 'reconcile_burst_files']) {
        assert.ok(isNumber(skeleton[key]), `skeleton.${key} is a number, got ${JSON.stringify(skeleton[key])}`);
      }
      assert.ok((skeleton.rooms as number) >= 1, 'the candidate has rooms');
      const watch = out.watch as Record<string, unknown>;
      for (const key of ['save_p50_ms', 'save_p99_ms', 'checkout_ms', 'checkout_ticks', 'idle_host_cpu_s_per_min', 'idle_host_rss_mb']) {
        assert.ok(isNumber(watch?.[key]), `watch.${key} is a number, got ${JSON.stringify(watch?.[key])}`);
      }
      assert.ok((watch.save_p50_ms as number) >= (watch.window_ms as number), 'a save waits out the burst window');
      assert.equal(watch.checkout_ticks, 1, 'a checkout is one tick');

      assert.ok(isNumber(out.peak_rss_mb) && out.peak_rss_mb > 0);
      // Where the RSS lives: each thread's heap, the grammars, the rest (bench/memory-breakdown.ts).
      const memory = out.memory as { rss_mb: number; other_mb: number; main: Record<string, number>; pool: Record<string, number>; writer: Record<string, number> };
      assert.ok(isNumber(memory?.rss_mb) && memory.rss_mb > 0, `memory.rss_mb is a number, got ${JSON.stringify(out.memory)}`);
      for (const t of ['main', 'pool', 'writer'] as const) {
        for (const key of ['heap_mb', 'used_mb', 'external_mb']) assert.ok(isNumber(memory[t][key]), `memory.${t}.${key} is a number`);
        assert.ok(memory[t].heap_mb > 0 && memory[t].used_mb <= memory[t].heap_mb, `memory.${t}: ${JSON.stringify(memory[t])}`);
      }
      assert.ok(memory.pool.external_mb > 1, 'the pool thread holds the tree-sitter burst\'s grammars');
      assert.ok(isNumber(memory.other_mb));
      const reference = out.reference as { bursts: { size: number; total_ms: number; per_file_ms: number }[]; peak_rss_mb: number };
      assert.deepEqual(reference.bursts.map((b) => [b.size, b.total_ms, b.per_file_ms]), [
        [10, 357, 35.7],
        [100, 3666, 36.7],
        [1000, 59573, 59.6],
      ]);
      assert.ok(isNumber(reference.peak_rss_mb));
      assert.equal(out.base_files, 200);
      const machine = out.machine as { sqlite_driver: string; sqlite_version: string };
      assert.match(machine.sqlite_driver, /^(node:sqlite|bun:sqlite|better-sqlite3)$/, 'the bench names its SQLite driver');
      assert.match(machine.sqlite_version, /^3\.\d+\.\d+$/);
      assert.ok(isNumber(out.idle_tick_ms) && isNumber(out.git_status_ms));
      for (const t of out.targets as { status: string }[]) assert.ok(['met', 'missed', 'not measured', 'information'].includes(t.status));
      assert.equal(out.mode, 'full');

      const mcp = out.mcp as Record<string, unknown>;
      assert.ok(mcp && typeof mcp === 'object', 'the MCP part runs unless --no-mcp');
      assert.deepEqual(mcp.not_measured, [], 'every MCP number was measured on Node');
      for (const key of MCP_KEYS) assert.ok(isNumber(mcp[key]), `mcp.${key} is a number, got ${JSON.stringify(mcp[key])}`);
      const n = (key: string) => mcp[key] as number;
      assert.ok(n('initialize_ms') > 0 && n('baseline_initialize_ms') > 0 && n('parked_git_initialize_ms') > 0);
      assert.ok(Math.abs(n('initialize_ratio') - n('initialize_ms') / n('baseline_initialize_ms')) < 0.01);
      assert.ok(Math.abs(n('parked_git_ratio') - n('parked_git_initialize_ms') / n('baseline_initialize_ms')) < 0.01);
      assert.equal(mcp.parked_git_launches, mcp.initialize_runs, 'every parked run had its folder probe stuck on git');
      assert.equal(mcp.parked_git_left_behind, 0, 'no parked git outlived its server');
      assert.ok(n('seek_idle_p50_ms') > 0 && n('seek_idle_p50_ms') <= n('seek_idle_p99_ms'));
      assert.ok(n('seek_drain_p50_ms') > 0 && n('seek_drain_p50_ms') <= n('seek_drain_p99_ms'));
      assert.ok(Number.isInteger(n('seek_drain_queries')) && n('seek_drain_queries') >= 1, 'queries ran while the drain did');
      assert.equal(mcp.seek_drain_burst_files, 200, 'the drained burst is capped at the base repository');
      assert.equal(mcp.seek_drain_runs, 3, 'seek is timed during three drains, so its p99 is a tail and not one query');
      const owner = mcp.owner as Record<string, number>;
      for (const key of ['proxy_initialize_ms', 'in_process_initialize_ms', 'proxy_initialize_ratio', 'rest_seek_p50_ms', 'rest_seek_p99_ms', 'one_session_rss_mb', 'four_sessions_rss_mb', 'four_in_process_rss_mb', 'idle_owner_rss_mb', 'idle_cpu_s_per_min']) {
        assert.ok(isNumber(owner?.[key]), `mcp.owner.${key} is a number, got ${JSON.stringify(owner?.[key])}`);
      }
      assert.ok(owner.rest_seek_p50_ms <= owner.rest_seek_p99_ms);
      const targets = (out.targets as { target: string; status: string }[]).map((t) => t.target);
      for (const what of ['MCP cold initialize', 'MCP initialize with a parked git', 'seek p99 ≤ 10 ms idle', 'seek p99 ≤ 10 ms during a drain']) {
        assert.ok(targets.some((t) => t.startsWith(what)), `a target for ${what}`);
      }

      assert.deepEqual(readdirSync(tmp), [], 'the temporary repository and home were removed');
      assert.equal(existsSync(home), false, "GARDENER_HOME was not touched");
    } finally {
      rmSync(sandbox, { recursive: true, force: true });
    }
  });

  it('skips the MCP part with --no-mcp: "mcp" is null and its targets are not measured', { timeout: BENCH_TIMEOUT_MS }, () => {
    const r = runCli(['bench', '--sizes', '1', '--base-files', '20', '--runs', '1', '--no-mcp', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { mcp: unknown; targets: { target: string; status: string }[] };
    assert.equal(out.mcp, null);
    const mcpTargets = out.targets.filter((t) => /^(MCP|seek|proxy|REST|four|idle owner)/.test(t.target));
    assert.equal(mcpTargets.length, 12, "the MCP part's targets, issue 20's two seek ratios included");
    for (const t of mcpTargets) assert.equal(t.status, 'not measured');
  });

  for (const [option, value] of [
    ['--sizes', '0'],
    ['--sizes', '10,abc'],
    ['--runs', 'abc'],
    ['--base-files', '-5'],
  ] as const) {
    it(`refuses ${option} ${value} with exit code 2 and a message naming the option`, () => {
      const r = runCli(['bench', option, value, '--json']);
      assert.equal(r.status, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, new RegExp(`${option}.*"${value}"`));
    });
  }
});
