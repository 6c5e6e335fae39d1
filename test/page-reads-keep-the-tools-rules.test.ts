/**
 * The page's two reads that are not tools (src/tools/page-reads.ts: code lines around hits, a
 * file's history) hold the tools' rules: a path outside the roots or leading out through a
 * symlink is refused before a read, a secret-bearing file is named by its path only, a file
 * `.gardenerignore` keeps out of the map is not read, token formats are redacted, a file waiting
 * in the backlog is marked pending, and the number of files a call asks is bounded. Each law was seen red with its guard removed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { makeTestBrains } from './helpers/brains.js';
import { runTick } from '../src/vigil/index.js';
import { fileHistory, linesAround, PAGE_READ_MAX_FILES } from '../src/tools/page-reads.js';
import { InvalidArgumentError } from '../src/errors.js';
import { brainFile } from '../src/brain/index.js';
import { listRoots, openStore } from '../src/store/index.js';

const TOKEN = 'AKIA' + 'Q3ZT7WXN5RBV2KDM';

test("the page's code lines and file history keep the tools' rules", { timeout: 120_000 }, async () => {
  const outside = await makeTempDir('gardener-outside-');
  writeFileSync(join(outside.dir, 'elsewhere.ts'), 'export const secretOutside = 1;\n');
  const repo = await makeGitRepo({
    'src/a.ts': 'export function a(): number {\n  return 1;\n}\n',
    'src/b.ts': "import { a } from './a.js';\nexport const b = a();\n",
    'src/keys.ts': `export const key = "${TOKEN}";\nexport const other = 2;\n`,
    '.env': `API_KEY=${TOKEN}\n`,
    '.gardenerignore': 'private/\n',
    'private/notes.ts': 'export const privateThing = 1;\n',
  });
  repo.write('src/a.ts', 'export function a(): number {\n  return 2;\n}\n');
  repo.write('src/b.ts', "import { a } from './a.js';\nexport const b = a() + 1;\n");
  repo.commit('a and b change together');
  repo.write('src/a.ts', 'export function a(): number {\n  return 2;\n}\n// again\n');
  repo.write('src/b.ts', "import { a } from './a.js';\nexport const b = a() + 2;\n");
  repo.commit('and again');
  symlinkSync(join(outside.dir, 'elsewhere.ts'), join(repo.dir, 'src', 'link.ts'));
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    const { files } = await linesAround(brain, repo.dir, [
      { path: 'src/a.ts', line: 2 },
      { path: '.env', line: 1 },
      { path: 'private/notes.ts', line: 1 },
      { path: 'src/keys.ts', line: 1 },
    ]);
    const by = new Map(files.map((f) => [f.path, f]));
    assert.deepEqual(by.get('src/a.ts'), { path: 'src/a.ts', line: 2, pending: false, from: 1, lines: ['export function a(): number {', '  return 2;', '}', '// again', ''] });
    assert.equal(by.get('.env')!.lines, undefined, 'a secret-bearing file: by its path only');
    assert.match(by.get('.env')!.why!, /secret-bearing/);
    assert.equal(by.get('private/notes.ts')!.lines, undefined, '.gardenerignore keeps it out of the map, so out of the page');
    assert.ok(!by.get('src/keys.ts')!.lines!.join('\n').includes(TOKEN), 'a token format is redacted as the index redacts it');
    assert.match(by.get('src/keys.ts')!.lines![0]!, /REDACTED/);

    await assert.rejects(linesAround(brain, repo.dir, [{ path: '../x.ts', line: 1 }]), InvalidArgumentError);
    await assert.rejects(linesAround(brain, repo.dir, [{ path: join(outside.dir, 'elsewhere.ts'), line: 1 }]), InvalidArgumentError);
    await assert.rejects(linesAround(brain, repo.dir, [{ path: 'src/link.ts', line: 1 }]), /through a symlink/);
    await assert.rejects(
      linesAround(brain, repo.dir, Array.from({ length: PAGE_READ_MAX_FILES + 1 }, () => ({ path: 'src/a.ts', line: 1 }))),
      InvalidArgumentError,
    );

    const h = fileHistory(brain, repo.dir, 'src/a.ts');
    assert.ok(h.commits.length >= 2, JSON.stringify(h));
    assert.equal(h.commits.length, h.touched_by);
    assert.deepEqual(h.changes_with[0], { path: 'src/b.ts', commits: h.touched_by }, 'b changed in every commit a did');
    assert.throws(() => fileHistory(brain, repo.dir, '../../etc/passwd'), InvalidArgumentError);

    // A file changed since it was mapped and still in the backlog: its lines come from disk, marked pending.
    repo.write('src/a.ts', 'export function a(): number {\n  return 3;\n}\n');
    // As detection leaves it before a drain: the path queued (a second connection, as the writer would).
    const db = openStore(brainFile(t.home, brain.id));
    try {
      const rootId = listRoots(db)[0]!.id;
      db.prepare('INSERT INTO backlog (root_id, path, queued_at) VALUES (?, ?, ?)').run(rootId, 'src/a.ts', Date.now());
    } finally {
      db.close();
    }
    const now = (await linesAround(brain, repo.dir, [{ path: 'src/a.ts', line: 2 }, { path: 'src/b.ts', line: 2 }])).files;
    assert.deepEqual(now.map((f) => [f.path, f.pending]), [['src/a.ts', true], ['src/b.ts', false]]);
    assert.equal(now[0]!.lines![1], '  return 3;', 'its lines are read from disk, not from the map');
  } finally {
    await t.cleanup();
    await repo.cleanup();
    await outside.cleanup();
  }
});
