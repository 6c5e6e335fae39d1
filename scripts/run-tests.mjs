// Maintainer script behind `npm test`: every node:test file under dist/test on the Node that runs
// this script, then the shared store suite again on Bun (scripts/run-bun-suite.mjs). Exits
// non-zero if either fails. `npm test` starts it with the Node that runs npm, not the `node`
// dev dependency (Node 24) that npm puts first on a script's PATH; CI runs it on both.
//
//   node scripts/run-tests.mjs            everything
//   node scripts/run-tests.mjs NAME...    only the node:test files whose name contains NAME
//
// Each file runs in a `node --test` of its own, two at a time, and its report is printed whole
// when it ends, then the totals (scripts/test-files.mjs: every test that ran is counted; a file
// that does not end fails by name).
//
// Environment, for this script's own test: RUN_TESTS_DIR (default dist/test), RUN_TESTS_TEST_MS
// (the per-test bound, default 180000), RUN_TESTS_FILE_MS (the per-file bound, default 600000).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTestFiles } from './test-files.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const testDir = process.env.RUN_TESTS_DIR || join(root, 'dist', 'test');
const testMs = boundFromEnv('RUN_TESTS_TEST_MS', 180_000);
const fileMs = boundFromEnv('RUN_TESTS_FILE_MS', 600_000);
const CONCURRENCY = 2;

const files = readdirSync(testDir).filter((f) => f.endsWith('.test.js') || f.endsWith('.test.mjs')).sort().map((f) => join(testDir, f));
const only = process.argv.slice(2);
const selected = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;
// A name that matches nothing is a mistake to say, not a green run of nothing.
if (only.length && selected.length === 0) {
  console.error(`run-tests: no test file under ${testDir} matches ${only.map((o) => `"${o}"`).join(' or ')} (run \`npm run build\` first?)`);
  process.exit(2);
}

console.error(`run-tests: node ${process.version} (${process.execPath}), ${selected.length} files, ${CONCURRENCY} at a time`);
const run = await runTestFiles(selected, { concurrency: CONCURRENCY, testMs, fileMs, label: 'run-tests' });
let status = run.ok ? 0 : 1;

if (only.length === 0 && !process.env.RUN_TESTS_DIR) {
  const bun = spawnSync(process.execPath, [join(root, 'scripts', 'run-bun-suite.mjs')], { stdio: 'inherit' });
  if (bun.status !== 0) status = bun.status ?? 1;
}
process.exit(status);

function boundFromEnv(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms <= 0) {
    console.error(`run-tests: ${name} must be a positive whole number of milliseconds, got "${raw}"`);
    process.exit(2);
  }
  return ms;
}
