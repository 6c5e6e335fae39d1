// Maintainer script behind `npm test`: every node:test file under dist/test on the Node that runs
// this script, then the shared store suite again on Bun (scripts/run-bun-suite.mjs). Exits
// non-zero if either fails. `npm test` starts it with the Node that runs npm, not the `node`
// dev dependency (Node 24) that npm puts first on a script's PATH; CI runs it on both.
//
//   node scripts/run-tests.mjs            everything
//   node scripts/run-tests.mjs NAME...    only the node:test files whose name contains NAME
//
// Each file runs in a `node --test` of its own, two at a time, and its report is printed whole
// when it ends, then the totals of every file. Two laws:
// - Every test that ran is counted. `--test-force-exit` is not used: under it a file's child
//   process can exit with its last results still in the pipe to the runner, and node:test then
//   reports fewer tests than ran, at exit 0 (nodejs/node#64833; 18 to 37 of a file's 43 seen).
// - A file that does not end fails, named, instead of hanging the run: each test is bounded by
//   --test-timeout, and each file's process by FILE_BOUND_MS, after which its process group is
//   killed. A file whose tests all passed but that leaves a worker, socket or timer running is a
//   failure too: that is a thread or a handle an owner would keep for weeks.
//
// Environment, for this script's own test: RUN_TESTS_DIR (default dist/test), RUN_TESTS_TEST_MS
// (the per-test bound, default 180000), RUN_TESTS_FILE_MS (the per-file bound, default 600000).
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const testDir = process.env.RUN_TESTS_DIR || join(root, 'dist', 'test');
const TEST_BOUND_MS = boundFromEnv('RUN_TESTS_TEST_MS', 180_000);
const FILE_BOUND_MS = boundFromEnv('RUN_TESTS_FILE_MS', 600_000);
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
const started = Date.now();
const results = await runAll(selected);
const totals = { tests: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
for (const r of results) for (const k of Object.keys(totals)) totals[k] += r.counts?.[k] ?? 0;
const failed = results.filter((r) => !r.ok);
console.log(
  `\nrun-tests: ${selected.length} files, ${totals.tests} tests: ${totals.pass} passed, ${totals.fail} failed, ` +
    `${totals.cancelled} cancelled, ${totals.skipped} skipped, ${totals.todo} todo (${((Date.now() - started) / 1000).toFixed(1)} s)`,
);
for (const r of failed) console.log(`run-tests: FAILED ${basename(r.file)}: ${r.why}`);
let status = failed.length ? 1 : 0;

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

async function runAll(list) {
  const out = new Array(list.length);
  let next = 0;
  async function lane() {
    while (next < list.length) {
      const i = next++;
      out[i] = await runFile(list[i]);
      const r = out[i];
      process.stdout.write(`\n--- ${basename(r.file)}\n${r.output}`);
      const c = r.counts;
      const line = c ? `${c.tests} tests, ${c.pass} passed, ${c.fail} failed, ${c.skipped} skipped` : 'no report';
      console.log(`--- ${basename(r.file)}: ${r.ok ? 'ok' : 'FAILED'} (${line}; ${(r.ms / 1000).toFixed(1)} s)`);
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, list.length) }, lane));
  return out;
}

/** One file in its own `node --test` (its own process group, so a kill takes every child it started). */
function runFile(file) {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--test', `--test-timeout=${TEST_BOUND_MS}`, '--test-reporter=spec', file],
      { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    const chunks = [];
    child.stdout.on('data', (b) => chunks.push(b));
    child.stderr.on('data', (b) => chunks.push(b));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, FILE_BOUND_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const output = Buffer.concat(chunks).toString('utf8');
      const counts = summaryOf(output);
      let why = '';
      if (timedOut) {
        why = `did not end within ${FILE_BOUND_MS / 1000} s: a test hung, or the tests ended and left a worker, socket, child or timer running (its process group was killed)`;
      } else if (code !== 0) {
        why = signal
          ? `its process ended on ${signal}`
          : counts?.fail
            ? `${counts.fail} failed`
            : counts?.cancelled
              ? `${counts.cancelled} cancelled: a test, or the file itself, ran past its time bound`
              : `exit code ${code}`;
      } else if (!counts) {
        why = 'it ended without its report';
      }
      resolve({ file, ok: !why, why, counts, output, ms: Date.now() - t0 });
    });
  });
}

/** The spec reporter's last lines: "ℹ tests 43", "ℹ pass 43", ... */
function summaryOf(output) {
  const counts = {};
  for (const m of output.matchAll(/^\u2139 (tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/gm)) counts[m[1]] = Number(m[2]);
  return counts.tests === undefined ? undefined : counts;
}
