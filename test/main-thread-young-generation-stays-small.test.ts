/**
 * The `gardener` process keeps its main thread's young generation at V8's starting size
 * (src/cli/young-generation.ts): busy, it would grow to 32 MB of RSS with 2–10 MB in use.
 * The law is checked on the real CLI: a preloaded module churns short-lived objects after the
 * CLI's own code ran (on `beforeExit`), and reports the new space's physical size.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
/** V8's starting new space is 1–2 MB (both semi-spaces); grown, it is 32 MB or more. */
const MAX_NEW_SPACE_MB = 8;

const CHURN = `
import { getHeapSpaceStatistics } from 'node:v8';
process.once('beforeExit', () => {
  let keep = [];
  for (let i = 0; i < 2e6; i++) { keep.push({ a: 'x' + i, b: [i, i + 1] }); if (keep.length > 50000) keep = []; }
  const ns = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  process.stderr.write('NEW_SPACE_BYTES=' + ns.physical_space_size + '\\n');
});
`;

const skip = (process.versions as Record<string, string | undefined>).bun !== undefined ? 'JavaScriptCore has no young generation to bound' : false;

test("the gardener process's main thread keeps its young generation at its starting size", { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'gardener-young-'));
  try {
    const churn = join(dir, 'churn.mjs');
    writeFileSync(churn, CHURN);
    const r = spawnSync(process.execPath, ['--import', pathToFileURL(churn).href, CLI, '--version'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const bytes = Number(/NEW_SPACE_BYTES=(\d+)/.exec(r.stderr)?.[1]);
    assert.ok(Number.isFinite(bytes), `no new-space size reported: ${r.stderr}`);
    const mb = bytes / (1 << 20);
    assert.ok(mb <= MAX_NEW_SPACE_MB, `the main thread's new space grew to ${mb.toFixed(1)} MB (bound ${MAX_NEW_SPACE_MB} MB)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
