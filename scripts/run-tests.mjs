// Maintainer script behind `npm test`: every node:test file under dist/test on the Node that runs
// this script, then the shared store suite again on Bun (scripts/run-bun-suite.mjs). Exits
// non-zero if either fails. `npm test` starts it with the Node that runs npm, not the `node`
// dev dependency (Node 24) that npm puts first on a script's PATH; CI runs it on both.
//
//   node scripts/run-tests.mjs            everything
//   node scripts/run-tests.mjs NAME...    only the node:test files whose name contains NAME
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const testDir = join(root, 'dist', 'test');
const files = readdirSync(testDir).filter((f) => f.endsWith('.test.js')).map((f) => join(testDir, f));
const only = process.argv.slice(2);
const selected = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;
// `node --test` with no files runs whatever it discovers (helper scripts and fixtures too): a
// name that matches nothing is a mistake to say, not a whole run to start.
if (only.length && selected.length === 0) {
  console.error(`run-tests: no test file under dist/test matches ${only.map((o) => `"${o}"`).join(' or ')} (run \`npm run build\` first?)`);
  process.exit(2);
}

console.error(`run-tests: node ${process.version} (${process.execPath})`);
// A test that leaks a worker must fail, not hang the run: bound each test and force the exit.
const node = spawnSync(
  process.execPath,
  ['--test', '--test-concurrency=2', '--test-timeout=180000', '--test-force-exit', ...selected],
  { stdio: 'inherit' },
);
let status = node.status ?? 1;

if (only.length === 0) {
  const bun = spawnSync(process.execPath, [join(root, 'scripts', 'run-bun-suite.mjs')], { stdio: 'inherit' });
  if (bun.status !== 0) status = bun.status ?? 1;
}
process.exit(status);
