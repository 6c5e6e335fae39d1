/** `gardener refs` and `gardener impact` through the real CLI: their JSON, and bad input (exit 2). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { CLI } from './helpers/mcp-client.js';

function gardener(args: string[], env: NodeJS.ProcessEnv, cwd?: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8', cwd });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('refs and impact print their answers, and refuse bad input with exit 2', async () => {
  const home = await makeTempDir('gardener-home-');
  const repo = await makeGitRepo({
    'src/a.ts': 'export function parse(s: string) {\n  return s;\n}\n',
    'src/b.ts': "import { parse } from './a.js';\nexport function run() {\n  return parse('x');\n}\n",
    'src/b.test.ts': "import { run } from './b.js';\nrun();\n",
  });
  try {
    const env = { ...process.env, GARDENER_HOME: home.dir };
    assert.equal(gardener(['init', repo.dir, '--json'], env).code, 0);
    const r = gardener(['refs', 'parse', '--root', repo.dir, '--json'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), {
      definitions: [{ path: 'src/a.ts', line: 1, kind: 'function' }],
      references: [
        { path: 'src/b.ts', line: 1, in: null, kind: 'other', definition: { path: 'src/a.ts', line: 1 } },
        { path: 'src/b.ts', line: 3, in: 'run', kind: 'call', definition: { path: 'src/a.ts', line: 1 } },
      ],
    });
    // A root-relative path, as every answer prints it, from a folder outside the root.
    const fromElsewhere = gardener(['refs', 'parse', '--root', repo.dir, '--path', 'src/a.ts', '--json'], env, home.dir);
    assert.equal(fromElsewhere.code, 0, fromElsewhere.stderr);
    assert.deepEqual(JSON.parse(fromElsewhere.stdout).references.map((u: any) => u.line), [1, 3]);
    const narrowed = gardener(['refs', 'parse', '--root', repo.dir, '--path', 'src/a.ts', '--json'], env, repo.dir);
    assert.equal(JSON.parse(narrowed.stdout).definitions.length, 1, narrowed.stderr);
    const unknown = gardener(['refs', 'pars', '--root', repo.dir], env);
    assert.equal(unknown.code, 0);
    assert.match(unknown.stdout, /no definition or use of pars/);
    assert.match(unknown.stdout, /nearest: parse/);
    const i = gardener(['impact', 'src/a.ts', '--root', repo.dir, '--json'], env, repo.dir);
    assert.equal(i.code, 0, i.stderr);
    const answer = JSON.parse(i.stdout);
    assert.deepEqual(answer.files.map((f: any) => [f.path, f.distance]), [['src/b.ts', 1], ['src/b.test.ts', 2]]);
    assert.deepEqual(answer.tests, ['src/b.test.ts']);
    const byName = gardener(['impact', 'run', '--root', repo.dir], env, repo.dir);
    assert.match(byName.stdout, /tests to run \(1\): src\/b\.test\.ts/);

    const depth = gardener(['impact', 'src/a.ts', '--root', repo.dir, '--depth', '5'], env, repo.dir);
    assert.equal(depth.code, 2);
    assert.match(depth.stderr, /--depth must be a whole number from 1 to 4, got "5"/);
    const outside = gardener(['refs', 'parse', '--root', repo.dir, '--path', '/etc/hosts'], env);
    assert.equal(outside.code, 2);
    assert.match(outside.stderr, /outside the brain's roots/);
    const outsideImpact = gardener(['impact', '/etc/hosts', '--root', repo.dir], env);
    assert.equal(outsideImpact.code, 2);
    const badName = gardener(['refs', 'a.b', '--root', repo.dir], env);
    assert.equal(badName.code, 2);
    assert.match(badName.stderr, /name must be one identifier/);
  } finally {
    await home.cleanup();
    await repo.cleanup();
  }
});
