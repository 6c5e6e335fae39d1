/**
 * The symbols eval (bench/symbols/, `npm run eval:symbols`): on a repository whose definitions
 * are known, it reports every ctags definition found at its file and line; without Universal
 * Ctags on PATH, or without a repository, it refuses with exit 2 and says what to install.
 * Skipped where ctags is not installed (CI installs it; the harness itself says so when run).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { makeGitRepo } from './helpers/git-repo.js';
import { lookupName } from '../bench/symbols/ctags-tags.js';

const MAIN = fileURLToPath(new URL('../bench/symbols/main.js', import.meta.url));
const hasCtags = /Universal Ctags/.test(spawnSync('ctags', ['--version'], { encoding: 'utf8' }).stdout ?? '');

test('every ctags definition of a small C, Ruby and Kotlin repository is found at its file and line', { skip: !hasCtags && 'Universal Ctags is not on PATH' }, async () => {
  const repo = await makeGitRepo({
    'src/store.c': 'struct store { int n; };\n\nint store_get(struct store *s)\n{\n  return s->n;\n}\n',
    'lib/cache.rb': "module Cache\n  class Entry\n    def fetch(key)\n      key\n    end\n  end\nend\n",
    'app/Queue.kt': 'package app\n\nclass Queue {\n    fun push(x: Int) {}\n}\n\ninterface Sink\n',
  });
  try {
    const r = spawnSync(process.execPath, [MAIN, repo.dir, '--json'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { overall: number; rows: { language: string; sampled: number; found: number }[] };
    assert.deepEqual(out.rows.map((row) => row.language).sort(), ['C', 'Kotlin', 'Ruby']);
    for (const row of out.rows) assert.ok(row.sampled > 0 && row.found === row.sampled, JSON.stringify(row));
    assert.equal(out.overall, 1);
  } finally {
    await repo.cleanup();
  }
});

test('without Universal Ctags on PATH the eval exits 2 and says what to install', async () => {
  const repo = await makeGitRepo({ 'a.c': 'int a(void) { return 0; }\n' });
  try {
    const r = spawnSync(process.execPath, [MAIN, repo.dir], { encoding: 'utf8', env: { ...process.env, PATH: '/nonexistent' } });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /needs Universal Ctags on PATH \(Debian\/Ubuntu: apt-get install universal-ctags/);
  } finally {
    await repo.cleanup();
  }
});

test('a path that is not a git repository is refused with exit 2', () => {
  const r = spawnSync(process.execPath, [MAIN, '/nonexistent/repo'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /is not a git repository/);
});

test("ctags' qualified names are compared by the name a definition hit carries", () => {
  assert.equal(lookupName('Lua', 'list.add_to_parser'), 'add_to_parser');
  assert.equal(lookupName('Lua', 'Argument:_get_default_argname'), '_get_default_argname');
  assert.equal(lookupName('Perl', 'Foo::Bar::baz'), 'baz');
  assert.equal(lookupName('ObjectiveC', 'moveCacheDirectoryFromPath:toPath:'), 'moveCacheDirectoryFromPath');
  assert.equal(lookupName('Elm', 'PaginatedList a'), 'PaginatedList');
  assert.equal(lookupName('EmacsLisp', 'use-package-handler/:pin'), 'use-package-handler/:pin');
});
