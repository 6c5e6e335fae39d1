/**
 * `gardener bench` without `--full` (what `npm start` runs) is the quick bench: its JSON says
 * `mode: "quick"`, it measures what is judged by ratios (bursts, idle, MCP initialize and seek)
 * and leaves the full bench's slow parts out, naming `--full` where they would be. Kept small
 * (one 10-file burst on 200 files), as bench-json-shape is.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const BENCH_TIMEOUT_MS = 120_000;

test('without --full, the bench is the quick one: bursts, idle, MCP initialize and seek, and not the slow parts', { timeout: BENCH_TIMEOUT_MS }, () => {
  const tmp = mkdtempSync(join(tmpdir(), 'gardener-quick-bench-'));
  try {
    const r = spawnSync(process.execPath, [CLI, 'bench', '--sizes', '10', '--base-files', '200', '--runs', '1', '--json'], {
      encoding: 'utf8',
      env: { ...process.env, TMPDIR: tmp, GARDENER_HOME: join(tmp, 'home-never-created') },
      timeout: BENCH_TIMEOUT_MS,
    });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as Record<string, any>;
    assert.equal(out.mode, 'quick');
    assert.equal(out.runs.length, 1);
    assert.equal(out.runs[0].drained, 10);
    assert.ok(out.tree_sitter.files > 0 && out.tree_sitter.files <= 200, `a small tree-sitter burst, got ${out.tree_sitter.files}`);
    assert.equal(out.watch, null, 'the watcher is the full bench\'s');
    assert.equal(out.references_cost, null, 'the references\' cost is the full bench\'s');
    assert.ok(out.mcp.initialize_ratio > 0 && out.mcp.seek_idle_p99_ms > 0, 'initialize and seek are measured');
    assert.equal(out.mcp.owner, null);
    assert.equal(out.mcp.refs_p50_ms, null);
    assert.ok(out.mcp.not_measured.length === 2 && out.mcp.not_measured.every((l: string) => /--full/.test(l)), JSON.stringify(out.mcp.not_measured));
    const judged = (out.targets as { target: string; status: string }[]).filter((t) => t.status === 'met' || t.status === 'missed').map((t) => t.target);
    for (const what of ['total within', 'idle tick ≤', 'MCP cold initialize', 'seek p99 during a drain ≤', 'peak RSS']) {
      assert.ok(judged.some((t) => t.startsWith(what)), `"${what}" is judged in the quick bench`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
