// Maintainer script behind `npm run test:hosts`: installs the real agent-host CLIs (Claude Code,
// Gemini CLI, Codex) from the npm registry, at pinned versions, into the git-ignored .host-clis/
// inside the project (never into the user's global prefix; `npm install` of Gardener stays
// light), then runs the host tests (dist/test/hosts/*.test.js) with those CLIs first on PATH.
// Nothing needs a model, an account or the network beyond the registry: the tests ask each
// host's own CLI whether it connected to Gardener.
//
//   node scripts/install-host-clis.mjs           install (if the pins changed) and run the tests
//   node scripts/install-host-clis.mjs --no-test only install
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTestFiles } from './test-files.mjs';

/** The versions the host tests were written against (issue 17); bump them on purpose. */
export const HOST_CLIS = {
  '@anthropic-ai/claude-code': '2.1.332',
  '@google/gemini-cli': '0.61.0',
  '@openai/codex': '0.171.0',
};

const root = fileURLToPath(new URL('..', import.meta.url));
const prefix = join(root, '.host-clis');
const bin = join(prefix, 'node_modules', '.bin');

function installed(name) {
  try {
    return JSON.parse(readFileSync(join(prefix, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

const stale = Object.entries(HOST_CLIS).filter(([name, version]) => installed(name) !== version);
if (stale.length) {
  mkdirSync(prefix, { recursive: true });
  writeFileSync(join(prefix, 'package.json'), JSON.stringify({ private: true, description: 'host CLIs for npm run test:hosts (git-ignored)', dependencies: HOST_CLIS }, null, 2) + '\n');
  console.error(`install-host-clis: ${stale.map(([n, v]) => `${n}@${v}`).join(', ')} into ${prefix}`);
  // npm here runs under the Node that runs this script; npm_execpath is npm's own CLI when npm started us.
  const npm = process.env.npm_execpath && existsSync(process.env.npm_execpath)
    ? [process.execPath, [process.env.npm_execpath]]
    : ['npm', []];
  const r = spawnSync(npm[0], [...npm[1], 'install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save'], { stdio: 'inherit', cwd: prefix });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
for (const cli of ['claude', 'gemini', 'codex']) {
  if (!existsSync(join(bin, cli))) {
    console.error(`install-host-clis: ${join(bin, cli)} is missing after the install`);
    process.exit(1);
  }
}
if (process.argv.includes('--no-test')) process.exit(0);

const testDir = join(root, 'dist', 'test', 'hosts');
const files = readdirSync(testDir).filter((f) => f.endsWith('.test.js')).map((f) => join(testDir, f));
const env = { ...process.env, GARDENER_HOST_CLIS_BIN: bin, PATH: [bin, dirname(process.execPath), process.env.PATH].join(delimiter) };
// Each test bounds itself; the runner bounds each test and each file too (scripts/test-files.mjs).
const run = await runTestFiles(files, { concurrency: 1, testMs: 240_000, fileMs: 600_000, env, label: 'test:hosts' });
process.exit(run.ok ? 0 : 1);
