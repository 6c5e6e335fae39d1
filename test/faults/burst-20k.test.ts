/**
 * A 20,000-file burst: `git checkout` of a branch that rewrites every file. One tick (in a
 * process of its own, so its peak RSS is its own) drains the whole burst, and the process's
 * peak RSS stays within the bench's bound: the backlog streams through the drain in batches,
 * nothing holds the whole burst's contents at once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { makeGitRepo } from '../helpers/git-repo.js';
import { makeTestBrains } from '../helpers/brains.js';
import { openStore } from '../../src/store/index.js';
import { peakRssTargetMb } from '../../bench/reference.js';

const PEAK_RSS_TARGET_MB = peakRssTargetMb();
import { FAULTS_BURST_FILES, recordFigures } from './fault-config.js';

const VIGIL_CHILD = fileURLToPath(new URL('./vigil-child.js', import.meta.url));
/** The burst: 20,000 files unless FAULTS_BURST_FILES says otherwise (a bigger local run). */
const BURST_FILES = FAULTS_BURST_FILES;
/** Files per folder, like a package. */
const PER_FOLDER = 40;

function content(i: number, version: string): string {
  return (
    `import { helper_${i % 97} } from '../shared/helper-${i % 97}.js';\n\n` +
    `/** ${version} of module ${i}: ${'some words for the index '.repeat(8)}*/\n` +
    `export function module_${version}_${i}(input: number[]): number {\n` +
    `  let total = 0;\n  for (const x of input) total += helper_${i % 97}(x) * ${i};\n  return total;\n}\n\n` +
    `export const LIMIT_${i} = ${i * 7};\n`
  );
}

async function tickInChild(home: string, dir: string) {
  const child = spawn(process.execPath, [VIGIL_CHILD, home, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  const [code] = await once(child, 'exit');
  assert.equal(code, 0);
  return JSON.parse(stdout) as { ok: boolean; ms: number; peakRssMb: number; error?: unknown; report?: { detected: number; drained: number; batches: number; backlogLeft: number } };
}

test(`a ${BURST_FILES.toLocaleString('en-US')}-file checkout drains in one tick within the bench's peak RSS bound`, { timeout: 900_000 }, async () => {
  const started = performance.now();
  const repo = await makeGitRepo();
  const t = await makeTestBrains();
  try {
    const path = (i: number) => `pkg${Math.floor(i / PER_FOLDER)}/mod${i}.ts`;
    for (let i = 0; i < BURST_FILES; i++) repo.write(path(i), content(i, 'v1'));
    repo.commit('v1');
    repo.git('checkout', '-q', '-b', 'rewrite');
    for (let i = 0; i < BURST_FILES; i++) repo.write(path(i), content(i, 'v2'));
    repo.commit('v2 rewrites every file');
    repo.git('checkout', '-q', 'main');
    const { brain } = await t.brains.ensure(repo.dir);
    await t.brains.close();
    const first = await tickInChild(t.home, repo.dir);
    assert.equal(first.ok, true, JSON.stringify(first.error));
    assert.equal(first.report!.backlogLeft, 0);
    const setupMs = Math.round(performance.now() - started);

    repo.git('checkout', '-q', 'rewrite');
    const burst = await tickInChild(t.home, repo.dir);
    assert.equal(burst.ok, true, JSON.stringify(burst.error));
    assert.equal(burst.report!.detected, BURST_FILES, 'the checkout is one changed set');
    assert.equal(burst.report!.drained, BURST_FILES, 'drained completely');
    assert.equal(burst.report!.backlogLeft, 0, 'in one tick');
    const db = openStore(brain.file, { readonly: true });
    const v2 = db.prepare("SELECT count(*) AS n FROM files WHERE symbols LIKE '%module_v2_%'").get<{ n: number }>()!.n;
    db.close();
    assert.equal(v2, BURST_FILES, 'every file has its new content');
    // The same process with nothing to do: what the burst itself added to the peak.
    const idle = await tickInChild(t.home, repo.dir);
    assert.equal(idle.report!.detected, 0);
    recordFigures('burst-20k', { files: BURST_FILES, tick_ms: burst.ms, batches: burst.report!.batches, peak_rss_mb: burst.peakRssMb, bound_mb: PEAK_RSS_TARGET_MB, first_ingest_peak_rss_mb: first.peakRssMb, idle_tick_peak_rss_mb: idle.peakRssMb, setup_ms: setupMs });
    assert.ok(burst.peakRssMb <= PEAK_RSS_TARGET_MB, `peak RSS ${burst.peakRssMb} MB within ${PEAK_RSS_TARGET_MB} MB`);
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});
