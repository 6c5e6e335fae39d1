/**
 * The `gardener` process keeps its heaps near their live sets (src/heap-growth.ts): the
 * main thread's young generation stays at V8's starting size (busy, it would grow to 32 MB of
 * RSS with 2–10 MB in use), and objects that outlive it do not pile up in the old generation
 * far past what a collection keeps. Checked on the real CLI: a preloaded module churns objects
 * after the CLI's own code ran (on `beforeExit`) and reports the spaces' physical sizes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const HEAP_GROWTH = new URL('../src/heap-growth.js', import.meta.url).href;
const POOL = new URL('../src/pool/index.js', import.meta.url).href;
const STORE_WRITER = new URL('../src/pool/store-writer-client.js', import.meta.url).href;
/** V8's starting new space is 1–2 MB (both semi-spaces); grown, it is 32 MB or more. */
const MAX_NEW_SPACE_MB = 8;
/**
 * The churn below keeps about 2 MB live in the old generation while promoting garbage into it:
 * with the growth limit its old space peaks at 14–15 MB on Node 20 and 24, without it at 21–24 MB.
 */
const MAX_OLD_SPACE_MB = 18;

/** Short-lived objects: they die young. */
const YOUNG_CHURN = `
let keep = [];
for (let i = 0; i < 2e6; i++) { keep.push({ a: 'x' + i, b: [i, i + 1] }); if (keep.length > 50000) keep = []; }
`;
/** Objects that live across a few collections of the young generation (promoted), then die. */
const PROMOTED_CHURN = `
const ring = new Array(64).fill(null);
for (let i = 0; i < 4000; i++) {
  ring[i % 64] = Array.from({ length: 400 }, (_, j) => ({ s: 'x' + i + '_' + j, n: j }));
  if (i % 50 === 0) maxOld = Math.max(maxOld, space('old_space'));
}
`;

function churnAfterCli(churn: string): { newSpaceMb: number; maxOldSpaceMb: number } {
  const dir = mkdtempSync(join(tmpdir(), 'gardener-heaps-'));
  try {
    const file = join(dir, 'churn.mjs');
    writeFileSync(
      file,
      `import { getHeapSpaceStatistics } from 'node:v8';
const space = (name) => getHeapSpaceStatistics().find((s) => s.space_name === name).physical_space_size;
process.once('beforeExit', () => {
  let maxOld = 0;
  ${churn}
  process.stderr.write('HEAP ' + space('new_space') + ' ' + maxOld + '\\n');
});
`,
    );
    const r = spawnSync(process.execPath, ['--import', pathToFileURL(file).href, CLI, '--version'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const m = /HEAP (\d+) (\d+)/.exec(r.stderr);
    assert.ok(m, `no heap sizes reported: ${r.stderr}`);
    return { newSpaceMb: Number(m[1]) / (1 << 20), maxOldSpaceMb: Number(m[2]) / (1 << 20) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const skip = (process.versions as Record<string, string | undefined>).bun !== undefined ? 'JavaScriptCore has no V8 heap flags' : false;

test("the gardener process's main thread keeps its young generation at its starting size", { skip }, () => {
  const { newSpaceMb } = churnAfterCli(YOUNG_CHURN);
  assert.ok(newSpaceMb <= MAX_NEW_SPACE_MB, `the main thread's new space grew to ${newSpaceMb.toFixed(1)} MB (bound ${MAX_NEW_SPACE_MB} MB)`);
});

test("the gardener process's old generation does not pile up promoted garbage", { skip }, () => {
  const { maxOldSpaceMb } = churnAfterCli(PROMOTED_CHURN);
  assert.ok(maxOldSpaceMb <= MAX_OLD_SPACE_MB, `the main thread's old space reached ${maxOldSpaceMb.toFixed(1)} MB (bound ${MAX_OLD_SPACE_MB} MB)`);
});

test("starting the pool's and the store writer's threads leaves the main thread's young generation bounded", { skip }, () => {
  // On Node 20 starting a worker thread puts V8's heap flags back to their defaults. The flags
  // are set before the pool's and the writer's modules load, as the CLI does (src/cli/main.ts):
  // loading a module graph allocates enough to grow the young generation under default flags
  // (with static imports here, 12 of 12 runs on a busy machine had a 4 MB new space on Node 24
  // before any thread started, and CI once read 13.4 MB).
  const dir = mkdtempSync(join(tmpdir(), 'gardener-heaps-'));
  try {
    const file = join(dir, 'threads.mjs');
    writeFileSync(
      file,
      `import { getHeapSpaceStatistics } from 'node:v8';
import { keepHeapsSmall } from '${HEAP_GROWTH}';
keepHeapsSmall();
const { WorkerPool } = await import('${POOL}');
const { StoreWriterClient } = await import('${STORE_WRITER}');
const pool = new WorkerPool({ maxThreads: 1 });
pool.warm();
await pool.heapStats();
const writer = new StoreWriterClient(${JSON.stringify(join(dir, 'brain.db'))});
await writer.ready();
${YOUNG_CHURN}
const ns = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').physical_space_size;
process.stderr.write('NEW ' + ns + '\\n');
await writer.close();
await pool.close();
`,
    );
    const r = spawnSync(process.execPath, [file], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const m = /NEW (\d+)/.exec(r.stderr);
    assert.ok(m, `no new-space size reported: ${r.stderr}`);
    const mb = Number(m[1]) / (1 << 20);
    assert.ok(mb <= MAX_NEW_SPACE_MB, `with the worker threads started the main thread's new space grew to ${mb.toFixed(1)} MB (bound ${MAX_NEW_SPACE_MB} MB)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
