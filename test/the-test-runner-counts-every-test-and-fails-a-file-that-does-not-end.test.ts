// `npm test`'s runner (scripts/run-tests.mjs) on fixture files of its own: every test that ran is
// in its totals, and a file that does not end fails by name instead of hanging the run or passing.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const RUNNER = fileURLToPath(new URL('../../scripts/run-tests.mjs', import.meta.url));
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function fixtureDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'gardener-run-tests-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function runRunner(dir: string, env: Record<string, string> = {}, started?: (runner: ReturnType<typeof spawn>) => void): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    // Started from inside a test file, where node:test's context would make the runner's own
    // `node --test` skip its files: the runner is run here as from a shell.
    const { NODE_TEST_CONTEXT: _, ...outer } = process.env;
    const child = spawn(process.execPath, [RUNNER], {
      env: { ...outer, RUN_TESTS_DIR: dir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    child.on('close', (code) => resolve({ code, out }));
    started?.(child);
  });
}

// Synchronous tests doing a little work each, in suites: the shape whose last results node:test
// dropped under --test-force-exit (41 and 42 of 48 counted, at exit 0, on Node 24).
const SYNC_SUITES = `import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
function work() { let s = 0; for (let i = 0; i < 2e5; i++) s += Math.sqrt(i); return s; }
for (let s = 0; s < 12; s++) describe('suite ' + s, () => { for (let i = 0; i < 4; i++) test('test ' + s + '.' + i, () => { assert.ok(work() > 0); }); });
`;

test('every test that ran is counted, in every file', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 8; i++) files[`sync-${i}.test.mjs`] = SYNC_SUITES;
  const { code, out } = await runRunner(fixtureDir(files));
  assert.equal(code, 0, out);
  for (let i = 0; i < 8; i++) assert.match(out, new RegExp(`--- sync-${i}\\.test\\.mjs: ok \\(48 tests, 48 passed`), out);
  assert.match(out, /run-tests: 8 files, 384 tests: 384 passed, 0 failed/);
});

test('a failing test fails the run and is named with its file', async () => {
  const dir = fixtureDir({
    'fine.test.mjs': `import { test } from 'node:test';\ntest('fine', () => {});\n`,
    'broken.test.mjs': `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\ntest('one plus one', () => { assert.equal(1 + 1, 3); });\n`,
  });
  const { code, out } = await runRunner(dir);
  assert.equal(code, 1, out);
  assert.match(out, /one plus one/);
  assert.match(out, /run-tests: 2 files, 2 tests: 1 passed, 1 failed/);
  assert.match(out, /run-tests: FAILED broken\.test\.mjs: 1 failed/);
  assert.doesNotMatch(out, /FAILED fine\.test\.mjs/);
});

test('a file whose tests pass but that leaves a timer running fails by name, and the run ends', async () => {
  const dir = fixtureDir({
    'leaves-a-timer.test.mjs': `import { test } from 'node:test';\ntest('passes', () => { setInterval(() => {}, 1000); });\n`,
    'fine.test.mjs': `import { test } from 'node:test';\ntest('fine', () => {});\n`,
  });
  // Node 20 cancels the file at the per-test bound; Node 24 does not, and the per-file bound kills it.
  const { code, out } = await runRunner(dir, { RUN_TESTS_TEST_MS: '1500', RUN_TESTS_FILE_MS: '3000' });
  assert.equal(code, 1, out);
  assert.match(out, /run-tests: FAILED leaves-a-timer\.test\.mjs: (did not end within 3 s|1 cancelled)/);
  assert.doesNotMatch(out, /FAILED fine\.test\.mjs/);
});

test('a test that never settles fails by name, and the run ends', async () => {
  const dir = fixtureDir({
    'never-settles.test.mjs': `import { test } from 'node:test';\ntest('waits forever', () => new Promise(() => { setInterval(() => {}, 1000); }));\n`,
  });
  const { code, out } = await runRunner(dir, { RUN_TESTS_TEST_MS: '1500', RUN_TESTS_FILE_MS: '3000' });
  assert.equal(code, 1, out);
  assert.match(out, /run-tests: FAILED never-settles\.test\.mjs/);
});

test('a bound that is not a whole number of milliseconds is refused with its name', async () => {
  const { code, out } = await runRunner(fixtureDir({ 'fine.test.mjs': `import { test } from 'node:test';\ntest('fine', () => {});\n` }), {
    RUN_TESTS_FILE_MS: '10s',
  });
  assert.equal(code, 2, out);
  assert.match(out, /RUN_TESTS_FILE_MS must be a positive whole number of milliseconds, got "10s"/);
});

test('a Ctrl-C of the run ends the files it is running and every process they started', async () => {
  const dir = fixtureDir({});
  // The file's test process and a child it starts both hold this pipe's writing end: the reader
  // gets their pids through it, and its end once both have exited (no polling, no clock).
  const fifo = join(dir, 'held-by-the-file');
  execFileSync('mkfifo', [fifo]);
  writeFileSync(
    join(dir, 'runs-long.test.mjs'),
    `import { test } from 'node:test';
import { spawn } from 'node:child_process';
import { openSync, writeSync } from 'node:fs';
test('runs long', () => new Promise(() => {
  const fd = openSync(${JSON.stringify(fifo)}, 'w');
  const helper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: ['ignore', fd, 'ignore'] });
  writeSync(fd, JSON.stringify([process.pid, helper.pid]) + '\\n');
}));
`,
  );
  const held = createReadStream(fifo, 'utf8');
  let text = '';
  const closedByAll = new Promise<void>((resolve) => held.on('end', resolve));
  const { code } = await runRunner(dir, {}, (runner) => {
    held.on('data', (d) => {
      text += String(d);
      if (text.endsWith('\n')) runner.kill('SIGINT');
    });
  });
  // A run that did not end as asked is reported now, not after the processes holding the pipe.
  if (code !== 130) held.destroy();
  assert.equal(code, 130);
  const pids = JSON.parse(text) as number[];
  assert.equal(pids.length, 2);
  // Every process holding the pipe has exited: the test file's and the one it started.
  await closedByAll;
});
