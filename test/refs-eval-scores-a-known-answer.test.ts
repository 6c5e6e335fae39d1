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

test('the refs eval scores refs against the language service, file by file', async () => {
  const repo = await makeGitRepo({
    'src/parse.ts': 'export function parse(s: string) {\n  return s;\n}\nexport class Parser {}\n',
    'src/use.ts': "import { parse, Parser } from './parse.js';\nexport const v = parse('x');\nexport const p = new Parser();\n",
    'src/again.ts': "import { parse } from './parse.js';\nparse('y');\n",
  });
  try {
    const r = spawnSync(process.execPath, [MAIN, repo.dir, '--json'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { repos: { language: string; symbols: number; theirs: number; ours: number; recall: number; precision: number }[] };
    const ts = out.repos.find((s) => s.language === 'typescript')!;
    assert.equal(ts.symbols, 2);
    assert.equal(ts.theirs, 3, 'parse in two files, Parser in one');
    assert.equal(ts.recall, 1);
    assert.equal(ts.precision, 1);
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
