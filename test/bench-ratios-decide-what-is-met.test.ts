/**
 * The bench's judge (bench/report/judge.ts): ratios to the same run's floors (and memory) decide
 * what is met; absolute times depend on the machine, so they are shown as information, beside
 * the machine they were set on, and never counted as missed. A slow disk (a write floor twice
 * the one the targets were set on) makes every absolute time long, and changes nothing met.
 * `gardener bench` is the quick bench unless `--full` (npm start runs it: bench/options.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judgeTargets, TARGETS_SET_ON } from '../bench/report/judge.js';
import type { BenchJson } from '../bench/report/shape.js';
import { parseBenchOptions } from '../bench/options.js';

/** A run on a slow machine: every time 3× the targets' machine, every ratio within its target. */
function slowRun(): Omit<BenchJson, 'targets'> {
  const run = (size: number, total: number, floor: number, write: number) => ({ size, total_ms: total, floor_ms: floor, ratio: total / floor, write_floor_ms: write, write_floor_ratio: total / (floor + write), loop_delay_p99_ms: 9 });
  return {
    runs: [run(10, 80, 40, 4), run(100, 190, 75, 45), run(1000, 890, 200, 738)],
    peak_rss_mb: 190,
    idle_ratio: 1.05,
    skeleton: { candidate_ms: 1400, reconcile_ms: 300, reconcile_loop_delay_p99_ms: 9, reconcile_burst_files: 1000 },
    watch: { window_ms: 500, save_p50_ms: 640, save_p99_ms: 900, checkout_files: 1000, checkout_ms: 1300, idle_host_cpu_s_per_min: 0.2 },
    mcp: {
      initialize_ratio: 1.09,
      parked_git_ratio: 1.1,
      seek_idle_p50_ms: 6,
      seek_idle_p99_ms: 27,
      seek_drain_p99_ms: 35,
      refs_p50_ms: 44,
      impact_p50_ms: 150,
      owner: { proxy_initialize_ratio: 0.56, rest_seek_p50_ms: 5, rest_seek_p99_ms: 30, four_sessions_pss_ratio: 1.2, idle_owner_rss_mb: 110, idle_cpu_s_per_min: 0.3 },
    },
    references_cost: { burst_ratio: 0.98, ingest_ratio: 0.9, store_ratio: 1.2, burst_files: 1000 },
    machine: { runtime: 'node v20.20.2' },
  } as unknown as Omit<BenchJson, 'targets'>;
}

test('on a slow machine, absolute times are information beside the machine they were set on, and ratios decide what is met', () => {
  const targets = judgeTargets(slowRun());
  assert.deepEqual(targets.filter((t) => t.status === 'missed').map((t) => t.target), [], 'nothing is missed for being slow');
  const info = targets.filter((t) => t.status === 'information');
  for (const what of ['10-file burst ≤', '100-file burst ≤', '1000-file burst ≤', 'skeleton candidate', 'seek p99 ≤ 10 ms idle', 'refs p50', 'REST seek p50']) {
    assert.ok(info.some((t) => t.target.startsWith(what)), `"${what}" is information`);
  }
  for (const t of info) assert.equal(t.set_on, TARGETS_SET_ON, `${t.target} names the machine its limit was set on`);
  assert.match(TARGETS_SET_ON, /write floor/, 'the machine is named by what makes times differ: its write floor');
  for (const what of ['total within', '1000-file burst within 5× floor', 'idle tick ≤', 'MCP cold initialize', 'peak RSS']) {
    const t = targets.find((x) => x.target.startsWith(what));
    assert.equal(t?.status, 'met', `"${what}" is judged, and met`);
  }
});

test('a ratio past its target is still missed', () => {
  const json = slowRun();
  (json.runs[2] as { ratio: number }).ratio = 7.5;
  const targets = judgeTargets(json);
  assert.equal(targets.find((t) => t.target.startsWith('1000-file burst within 5× floor'))?.status, 'missed');
  assert.equal(targets.find((t) => t.target.startsWith('total within'))?.status, 'missed');
});

test('`gardener bench` is the quick bench unless --full', () => {
  assert.equal(parseBenchOptions({}).full, false);
  assert.equal(parseBenchOptions({ full: true }).full, true);
  assert.throws(() => parseBenchOptions({ full: 'yes' }), /--full takes no value/);
});
