// Runs node:test files for the maintainer scripts (run-tests.mjs, run-faults.mjs,
// install-host-clis.mjs): each file in a `node --test` of its own, `concurrency` at a time, its
// report printed whole when it ends with a line of its counts, then the totals. Two laws:
//
// - Every test that ran is counted. `--test-force-exit` is not used: under it a file's child
//   process can exit with its last results still in the pipe to the runner, and node:test then
//   reports fewer tests than ran, at exit 0 (nodejs/node#64833; 18 to 37 of a file's 43 seen).
// - A file that does not end fails, named, instead of hanging the run: each test is bounded by
//   --test-timeout (`testMs`), and each file's process by `fileMs`, after which its process group
//   is killed. A file whose tests all passed but that leaves a worker, socket or timer running
//   fails too: a thread or a handle an owner would keep for weeks. (Node 20 cancels such a file
//   at `testMs`, the file's own bound there; Node 24 leaves it to `fileMs`.)
import { spawn } from 'node:child_process';
import { basename } from 'node:path';

/** The process groups of the files running now: a Ctrl-C or a SIGTERM of the run ends them too. */
const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    for (const pid of running) killGroup(pid);
    process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
  });
}

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * @param {string[]} files
 * @param {{ concurrency: number, testMs: number, fileMs: number, env?: NodeJS.ProcessEnv, label: string }} o
 * @returns {Promise<{ ok: boolean, totals: Record<string, number>, failed: { file: string, why: string }[] }>}
 */
export async function runTestFiles(files, o) {
  const started = Date.now();
  const results = new Array(files.length);
  let next = 0;
  async function lane() {
    while (next < files.length) {
      const i = next++;
      const r = (results[i] = await runFile(files[i], o));
      const c = r.counts;
      const counts = c ? `${c.tests} tests, ${c.pass} passed, ${c.fail} failed, ${c.skipped} skipped` : 'no report';
      process.stdout.write(`\n--- ${basename(r.file)}\n${r.output}`);
      console.log(`--- ${basename(r.file)}: ${r.why ? 'FAILED' : 'ok'} (${counts}; ${(r.ms / 1000).toFixed(1)} s)`);
    }
  }
  await Promise.all(Array.from({ length: Math.min(o.concurrency, files.length) }, lane));

  const totals = { tests: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
  for (const r of results) for (const k of Object.keys(totals)) totals[k] += r.counts?.[k] ?? 0;
  const failed = results.filter((r) => r.why).map((r) => ({ file: r.file, why: r.why }));
  console.log(
    `\n${o.label}: ${files.length} files, ${totals.tests} tests: ${totals.pass} passed, ${totals.fail} failed, ` +
      `${totals.cancelled} cancelled, ${totals.skipped} skipped, ${totals.todo} todo (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  for (const f of failed) console.log(`${o.label}: FAILED ${basename(f.file)}: ${f.why}`);
  return { ok: failed.length === 0, totals, failed };
}

/**
 * One file in its own `node --test`, in its own process group so a kill takes every child it
 * started (a terminal's Ctrl-C reaches only the runner's group: the handlers above pass it on).
 */
function runFile(file, o) {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', `--test-timeout=${o.testMs}`, '--test-reporter=spec', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      env: o.env ?? process.env,
    });
    running.add(child.pid);
    const chunks = [];
    child.stdout.on('data', (b) => chunks.push(b));
    child.stderr.on('data', (b) => chunks.push(b));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, o.fileMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child.pid);
      const output = Buffer.concat(chunks).toString('utf8');
      const counts = summaryOf(output);
      resolve({ file, why: verdict(code, signal, counts, timedOut, o.fileMs), counts, output, ms: Date.now() - t0 });
    });
  });
}

/** Why the file failed, or '' when it passed. */
function verdict(code, signal, counts, timedOut, fileMs) {
  if (timedOut) {
    return `did not end within ${fileMs / 1000} s: a test hung, or the tests ended and left a worker, socket, child or timer running (its process group was killed)`;
  }
  if (code !== 0) {
    if (signal) return `its process ended on ${signal}`;
    if (counts?.fail) return `${counts.fail} failed`;
    if (counts?.cancelled) return `${counts.cancelled} cancelled: a test, or the file itself, ran past its time bound`;
    return `exit code ${code}`;
  }
  return counts ? '' : 'it ended without its report';
}

/** The spec reporter's last lines: "ℹ tests 43", "ℹ pass 43", ... */
function summaryOf(output) {
  const counts = {};
  for (const m of output.matchAll(/^\u2139 (tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/gm)) counts[m[1]] = Number(m[2]);
  return counts.tests === undefined ? undefined : counts;
}
