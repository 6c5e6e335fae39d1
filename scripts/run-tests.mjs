// Maintainer script behind `npm test`: every node:test file under dist/test on Node, then the
// shared store suite again on Bun (the bun:sqlite adapter). Exits non-zero if either fails.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const testDir = join(root, 'dist', 'test');
const files = readdirSync(testDir).filter((f) => f.endsWith('.test.js')).map((f) => join(testDir, f));
const only = process.argv.slice(2);
const selected = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;

// A test that leaks a worker must fail, not hang the run: bound each test and force the exit.
const node = spawnSync(
  process.execPath,
  ['--test', '--test-concurrency=2', '--test-timeout=180000', '--test-force-exit', ...selected],
  { stdio: 'inherit' },
);
let status = node.status ?? 1;

const bun = join(root, 'node_modules', '.bin', 'bun');
const bunSuites = readdirSync(testDir).filter((f) => f.endsWith('.bun-suite.test.js')).map((f) => join(testDir, f));
if (only.length === 0 && bunSuites.length > 0) {
  if (!existsSync(bun)) {
    console.error('bun is not installed (it is a dev dependency: run npm install)');
    status = 1;
  } else {
    const r = spawnSync(bun, ['test', ...bunSuites], { stdio: 'inherit' });
    if (r.status !== 0) status = r.status ?? 1;
  }
}
process.exit(status);
