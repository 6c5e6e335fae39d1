/**
 * The npm scripts name files that exist (issue 6: `npm run test:bun` named a missing script),
 * and the ones that start Node start the Node that runs npm, not the `node` dev dependency
 * (Node 24) that npm puts first on a script's PATH.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string> };

test('every file an npm script names exists', () => {
  for (const [name, line] of Object.entries(pkg.scripts)) {
    for (const [file] of line.matchAll(/\bscripts\/[\w./-]+\.m?js\b/g)) {
      assert.ok(existsSync(`${root}${file}`), `npm run ${name} names ${file}, which does not exist`);
    }
  }
});

test('npm scripts run JavaScript on the Node that runs npm, never the Node 24 dev dependency', () => {
  for (const [name, line] of Object.entries(pkg.scripts)) {
    for (const command of line.split('&&').map((c) => c.trim())) {
      if (!/\.m?js\b/.test(command) || command.startsWith('tsc ')) continue;
      if (/^node scripts\/make-bin-executable\.mjs$/.test(command)) continue; // any Node will do
      assert.match(command, /^"\$\{npm_node_execpath:-node\}" /, `npm run ${name}: ${command}`);
    }
  }
  assert.match(pkg.scripts['test:bun']!, /run-bun-suite\.mjs/);
});
