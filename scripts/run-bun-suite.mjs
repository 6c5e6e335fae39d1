// Maintainer script behind `npm run test:bun` (and the Bun half of `npm test`): the shared store
// suite (dist/test/*.bun-suite.test.js) under Bun, on its bun:sqlite driver. Bun is a dev
// dependency, so this needs `npm install` and `npm run build` first; it runs on Node or Bun.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const testDir = join(root, 'dist', 'test');
const bun = join(root, 'node_modules', '.bin', 'bun');

if (!existsSync(bun)) {
  console.error('run-bun-suite: bun is not installed (it is a dev dependency: run npm install)');
  process.exit(1);
}
if (!existsSync(testDir)) {
  console.error('run-bun-suite: dist/test is missing: run npm run build first');
  process.exit(1);
}
const suites = readdirSync(testDir).filter((f) => f.endsWith('.bun-suite.test.js')).map((f) => join(testDir, f));
if (suites.length === 0) {
  console.error('run-bun-suite: no *.bun-suite.test.js in dist/test');
  process.exit(1);
}
const r = spawnSync(bun, ['test', ...suites], { stdio: 'inherit' });
process.exit(r.status ?? 1);
