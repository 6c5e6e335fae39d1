/**
 * The refs eval (npm run eval:refs) on a repository the test builds, where the language
 * service's answer is known: it must score what refs gets right and wrong, and refuse bad input.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';

const MAIN = fileURLToPath(new URL('../bench/refs-eval/main.js', import.meta.url));

interface Score {
  language: string;
  symbols: number;
  theirs: number;
  cross: number;
  oracleWorkspaceImports?: { resolved: number; total: number };
  modes: Record<'path' | 'name' | 'union', { recall: number; precision: number; ours: number }>;
}

test('the refs eval scores refs against the language service, file by file', async () => {
  const repo = await makeGitRepo({
    'src/parse.ts': 'export function parse(s: string) {\n  return s;\n}\nexport class Parser {}\n',
    'src/use.ts': "import { parse, Parser } from './parse.js';\nexport const v = parse('x');\nexport const p = new Parser();\n",
    'src/again.ts': "import { parse } from './parse.js';\nparse('y');\n",
  });
  try {
    const r = spawnSync(process.execPath, [MAIN, repo.dir, '--json'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { repos: Score[] };
    const ts = out.repos.find((s) => s.language === 'typescript')!;
    assert.equal(ts.symbols, 2);
    assert.equal(ts.theirs, 3, 'parse in two files, Parser in one');
    for (const mode of ['path', 'name', 'union'] as const) {
      assert.equal(ts.modes[mode].recall, 1, mode);
      assert.equal(ts.modes[mode].precision, 1, mode);
    }
  } finally {
    await repo.cleanup();
  }
});

test('the refs eval sees a workspace as its compiler does: packages by name through exports and a tsconfig condition, no install', async () => {
  const repo = await makeGitRepo({
    'package.json': '{ "name": "root", "private": true }\n',
    'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n",
    'tsconfig.json': JSON.stringify({ compilerOptions: { customConditions: ['@acme/source'], moduleResolution: 'Bundler', module: 'ESNext', strict: true } }),
    'packages/core/package.json': JSON.stringify({ name: '@acme/core', exports: { '.': { '@acme/source': './src/index.ts', default: './build/index.js' } } }),
    'packages/core/src/index.ts': "export { parse } from './parse.js';\n",
    'packages/core/src/parse.ts': 'export function parse(s: string) {\n  return s;\n}\n',
    'packages/app/package.json': JSON.stringify({ name: '@acme/app', dependencies: { '@acme/core': 'workspace:*' } }),
    'packages/app/src/main.ts': "import { parse } from '@acme/core';\nparse('x');\n",
  });
  try {
    const r = spawnSync(process.execPath, [MAIN, repo.dir, '--json'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const ts = (JSON.parse(r.stdout) as { repos: Score[] }).repos.find((s) => s.language === 'typescript')!;
    assert.deepEqual(ts.oracleWorkspaceImports, { resolved: 1, total: 1 });
    assert.equal(ts.symbols, 1);
    assert.equal(ts.theirs, 2, 'the barrel and the other package');
    assert.equal(ts.cross, 1, "the other package's file is the oracle's");
    assert.equal(ts.modes.path.recall, 1);
  } finally {
    await repo.cleanup();
  }
});

test('the refs eval refuses a folder that is not a git work tree, with exit 2', async () => {
  const dir = await makeTempDir();
  try {
    const r = spawnSync(process.execPath, [MAIN, dir.dir], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /is not a git work tree/);
    const none = spawnSync(process.execPath, [MAIN], { encoding: 'utf8' });
    assert.equal(none.status, 2);
    assert.match(none.stderr, /no repository given/);
  } finally {
    await dir.cleanup();
  }
});
