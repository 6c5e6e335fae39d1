/** What a candidate looks like, and the pieces it stands on: globs and import resolution. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains } from './helpers/brains.js';
import { runTick } from '../src/vigil/index.js';
import { compileGlob, ImportResolver, proposeRooms, deriveSkeleton, roomsOfPaths, unrefused } from '../src/skeleton/index.js';

test('globs: ** spans folders, * stays in one, a plain path is a file or a whole folder', () => {
  const m = (g: string, p: string) => compileGlob(g)(p);
  assert.ok(m('src/**', 'src/a/b.ts'));
  assert.ok(m('src/**/*.ts', 'src/x.ts'));
  assert.ok(!m('src/*', 'src/a/b.ts'));
  assert.ok(m('src/*', 'src/b.ts'));
  assert.ok(m('src/store', 'src/store/x.ts'));
  assert.ok(!m('src/store', 'src/storage/x.ts'));
  assert.ok(m('src/a?.ts', 'src/ab.ts'));
  assert.ok(!m('src/a.ts', 'src/aXts'), 'a dot is a dot');
  assert.ok(m('*', 'README.md') && !m('*', 'src/a.ts'));
});

test('imports resolve to files by each language\'s rule; packages resolve to nothing', () => {
  const r = new ImportResolver([
    'go/svc/api/handler.go', 'lib/py/pkg/__init__.py', 'lib/py/pkg/util.py', 'lib/py/pkg/sub/deep.py',
    'crates/foo-core/src/lib.rs', 'crates/app/src/main.rs', 'crates/app/src/net/mod.rs', 'crates/app/src/net/tcp.rs', 'crates/app/src/db.rs',
    'java/src/main/java/com/acme/Order.java', 'java/src/main/java/com/acme/web/Page.java',
    'src/a.ts', 'src/b/index.ts', 'src/c.tsx', 'fmt/x.go',
  ]);
  assert.equal(r.resolve('src/c.tsx', 'typescript', './a.js'), 'src/a.ts', '.js specifier finds the .ts source');
  assert.equal(r.resolve('src/c.tsx', 'typescript', './b'), 'src/b/index.ts');
  assert.equal(r.resolve('src/c.tsx', 'typescript', 'react'), null);
  assert.equal(r.resolve('lib/py/pkg/sub/deep.py', 'python', '..util'), 'lib/py/pkg/util.py');
  assert.equal(r.resolve('lib/py/pkg/util.py', 'python', '.'), 'lib/py/pkg/__init__.py');
  assert.equal(r.resolve('lib/py/pkg/util.py', 'python', 'pkg.sub.deep'), 'lib/py/pkg/sub/deep.py', 'absolute import, src-layout');
  assert.equal(r.resolve('lib/py/pkg/util.py', 'python', 'os.path'), null);
  assert.equal(r.resolve('fmt/x.go', 'go', 'github.com/acme/repo/go/svc/api'), 'go/svc/api/handler.go');
  assert.equal(r.resolve('go/svc/api/handler.go', 'go', 'fmt'), null, 'one segment never lands on a folder named like it');
  assert.equal(r.resolve('crates/app/src/main.rs', 'rust', 'crate::net::tcp::Conn'), 'crates/app/src/net/tcp.rs');
  assert.equal(r.resolve('crates/app/src/net/tcp.rs', 'rust', 'super::super::db::Pool'), 'crates/app/src/db.rs');
  assert.equal(r.resolve('crates/app/src/net/tcp.rs', 'rust', 'foo_core::Thing'), 'crates/foo-core/src/lib.rs', 'a workspace crate');
  assert.equal(r.resolve('crates/app/src/db.rs', 'rust', 'std::io::Read'), null);
  assert.equal(r.resolve('java/src/main/java/com/acme/web/Page.java', 'java', 'com.acme.Order'), 'java/src/main/java/com/acme/Order.java');
  assert.equal(r.resolve('java/src/main/java/com/acme/Order.java', 'java', 'com.acme.web.*'), 'java/src/main/java/com/acme/web/Page.java');
  assert.equal(r.resolve('java/src/main/java/com/acme/Order.java', 'java', 'java.util.List'), null);
});

/** A chain of files in `folder`, each importing the next: one block that holds together. */
function chain(folder: string, prefix: string, n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    const next = i + 1 < n ? `import { ${prefix}${i + 1} } from './${prefix}${i + 1}.js';\n` : '';
    files[`${folder}/${prefix}${i}.ts`] = `${next}export const ${prefix}${i} = ${i};\n`;
  }
  return files;
}

test('a candidate: rooms of useful size, a folder of two blocks that never import each other split, a small folder serving one room joined to it', async () => {
  const repo = await makeGitRepo({
    ...chain('src/core', 'c', 10),
    'src/core/c9.ts': "import { helper } from '../util/helper.js';\nexport const c9 = helper;\n",
    'src/util/helper.ts': 'export const helper = 1;\n',
    'src/core/README.md': '# Core\n\nThe *core* chain of the demo.\n',
    ...chain('src/mixed', 'left', 8),
    ...chain('src/mixed', 'right', 8),
    'README.md': '# demo\n',
  });
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    const rooms = proposeRooms(brain.reader);
    const derived = deriveSkeleton(brain.reader, rooms);
    const shape = rooms.map((r, i) => ({ name: r.name, files: derived.rooms[i]!.files, globs: r.globs }));
    assert.ok(rooms.length >= 3 && rooms.length <= 8, `not one room per file nor one for all: ${JSON.stringify(shape)}`);
    assert.deepEqual(derived.unroomed, [], 'every file has a room');
    const core = shape.find((r) => r.globs.includes('src/core/**'))!;
    assert.ok(core.globs.includes('src/util/**'), `the helper folder that only serves core joined it: ${JSON.stringify(shape)}`);
    const mixed = shape.filter((r) => r.name.startsWith('mixed'));
    assert.equal(mixed.length, 2, `src/mixed split along its two blocks: ${JSON.stringify(shape)}`);
    assert.deepEqual(mixed.map((r) => r.files).sort(), [8, 8]);
    const roomOf = roomsOfPaths(brain.reader, ['src/mixed/left0.ts', 'src/mixed/right0.ts']);
    assert.equal(roomOf.size, 0, 'roomsOfPaths reads the ratified skeleton only');
    for (const r of rooms) assert.match(r.purpose, /^draft: /, 'purposes are marked as drafts');
    assert.ok(derived.inside_share === 1, 'every import stays inside its room');

    // Ratified, roomsOfPaths names the rooms (what delegate will use).
    const proposed = unrefused(await brain.writer.skeletonPropose(Date.now(), 'code'));
    const coreRoom = proposed.skeleton.rooms.find((r) => r.globs.includes('src/core/**'))!;
    assert.equal(coreRoom.purpose, 'draft: The core chain of the demo.', 'a README inside the room drafts its purpose');
    assert.equal(coreRoom.draft, true);
    unrefused(await brain.writer.skeletonRatify(proposed.storeVersion, Date.now()));
    const named = roomsOfPaths(brain.reader, ['src/mixed/left0.ts', 'src/mixed/right0.ts', 'src/core/c0.ts']);
    assert.notEqual(named.get('src/mixed/left0.ts'), named.get('src/mixed/right0.ts'));
    assert.equal(named.get('src/core/c0.ts'), core.name);
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});
