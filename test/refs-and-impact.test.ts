/**
 * `refs` and `impact` over a real brain (a git repository ingested by a real tick), through the
 * dispatch seam as every transport calls it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withMappedSession } from './helpers/session.js';

const FILES: Record<string, string> = {
  'src/config.ts': 'export interface Options { depth: number }\nexport function parseConfig(text: string): Options {\n  return { depth: text.length };\n}\n',
  'src/index.ts': "export { parseConfig } from './config.js';\n",
  'src/loader.ts': "import { parseConfig, type Options } from './config.js';\nexport function load(path: string): Options {\n  return parseConfig(path);\n}\n",
  'src/app.ts': "import { parseConfig } from './index.js';\nimport { load } from './loader.js';\nexport class App {\n  start() {\n    parseConfig('x');\n    return load('y');\n  }\n}\n",
  'src/other/parse.ts': 'export function parseConfig(s: string) {\n  return s;\n}\nexport function useIt() {\n  return parseConfig("z");\n}\n',
  'src/stray.ts': 'export function stray() {\n  return parseConfig("no import");\n}\n',
  'test/app.test.ts': "import { App } from '../src/app.js';\nnew App().start();\n",
};


test('refs lists the definitions, then every use grouped by file with its caller and kind', async () => {
  await withMappedSession(FILES, async (s) => {
    const r = await s.dispatch('refs', { name: 'parseConfig', path: 'src/config.ts' });
    assert.equal(r.isError, undefined, JSON.stringify(r.value));
    assert.deepEqual(r.value.definitions, [{ path: 'src/config.ts', line: 2, kind: 'function' }]);
    const byPath = Object.fromEntries(r.value.references.map((f: any) => [f.path, f.uses]));
    assert.deepEqual(Object.keys(byPath).sort(), ['src/app.ts', 'src/index.ts', 'src/loader.ts'], 'the barrel, its importer and the direct importer');
    assert.deepEqual(byPath['src/loader.ts'], [{ line: 1, kind: 'other' }, { line: 3, in: 'load', kind: 'call' }]);
    assert.deepEqual(byPath['src/app.ts'], [{ line: 1, kind: 'other' }, { line: 5, in: 'start', kind: 'call' }]);
    assert.equal(r.value.by_name_only, 2, 'the other definition\'s file and the file that imports neither are counted, not listed');
    assert.ok(Array.isArray(r.value.freshness.pending));
    assert.ok(r.value.tokens_used > 0);
  });
});

test('a name with several definitions lists them all; kind narrows the uses', async () => {
  await withMappedSession(FILES, async (s) => {
    const r = await s.dispatch('refs', { name: 'parseConfig', kind: 'call' });
    assert.deepEqual(r.value.definitions.map((d: any) => d.path), ['src/config.ts', 'src/other/parse.ts']);
    for (const f of r.value.references) for (const u of f.uses) assert.equal(u.kind, 'call');
    assert.ok(r.value.references.some((f: any) => f.path === 'src/other/parse.ts'));
  });
});

test('an unknown name answers empty, says so, and offers the nearest names', async () => {
  await withMappedSession(FILES, async (s) => {
    const r = await s.dispatch('refs', { name: 'parseConfg' });
    assert.equal(r.isError, undefined);
    assert.deepEqual(r.value.definitions, []);
    assert.deepEqual(r.value.references, []);
    assert.match(r.value.why, /no definition or use of parseConfg/);
    assert.equal(r.value.nearest[0], 'parseConfig');
  });
});

test('a name defined 500 times is counted per place, and its uses are capped and counted', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 500; i++) files[`pkg${i % 5}/m${i}.py`] = `def handle(x):\n    return x\n\ndef caller${i}():\n    return handle(${i})\n`;
  await withMappedSession(files, async (s) => {
    const r = await s.dispatch('refs', { name: 'handle', limit: 10, budget_tokens: 2000 });
    assert.equal(r.isError, undefined);
    assert.equal(r.value.definitions_total, 500);
    assert.ok(r.value.definitions.length <= 20);
    assert.deepEqual(r.value.definitions_by_place.map((p: any) => p.files), [100, 100, 100, 100, 100]);
    assert.ok(r.value.references.length <= 10);
    assert.equal(r.value.files, 500);
    assert.equal(r.value.references_by_place.length, 5);
    assert.ok(JSON.stringify(r.value).length <= 2000 * 4);
  });
});

test('a path outside the roots, a bad name, a bad depth or two targets are refused', async () => {
  await withMappedSession(FILES, async (s) => {
    const out = await s.dispatch('refs', { name: 'parseConfig', path: '/etc/passwd' });
    assert.equal(out.isError, true);
    assert.match(out.value.error.message, /outside this session's brain roots/);
    const bad = await s.dispatch('refs', { name: 'a b' });
    assert.equal(bad.isError, true);
    assert.match(bad.value.error.message, /name must be one identifier/);
    for (const depth of [0, 5, 1.5]) {
      const d = await s.dispatch('impact', { path: 'src/config.ts', depth });
      assert.equal(d.isError, true, String(depth));
      assert.match(d.value.error.message, /depth must be/);
    }
    const both = await s.dispatch('impact', { path: 'src/config.ts', name: 'parseConfig' });
    assert.equal(both.isError, true);
    assert.match(both.value.error.message, /one of path .* or name/);
    const outside = await s.dispatch('impact', { path: '../elsewhere.ts' });
    assert.equal(outside.isError, true);
  });
});

test('impact walks users and importers outward, with distances, tests and the tests to run', async () => {
  await withMappedSession(FILES, async (s) => {
    const r = await s.dispatch('impact', { path: 'src/config.ts' });
    assert.equal(r.isError, undefined, JSON.stringify(r.value));
    const got = Object.fromEntries(r.value.files.map((f: any) => [f.path, f.distance]));
    assert.deepEqual(got, { 'src/app.ts': 1, 'src/index.ts': 1, 'src/loader.ts': 1, 'test/app.test.ts': 2 });
    assert.deepEqual(r.value.tests, ['test/app.test.ts']);
    assert.equal(r.value.files.find((f: any) => f.path === 'test/app.test.ts').test, true);
    const one = await s.dispatch('impact', { path: 'src/config.ts', depth: 1 });
    assert.equal(one.value.files.length, 3);
    const byName = await s.dispatch('impact', { name: 'load' });
    assert.deepEqual(byName.value.files.map((f: any) => [f.path, f.distance]), [['src/app.ts', 1], ['test/app.test.ts', 2]]);
    const unknown = await s.dispatch('impact', { name: 'nothingLikeThis' });
    assert.match(unknown.value.why, /no definition of nothingLikeThis/);
  });
});

test('a hub imported by everything answers with counts per place past the cap', async () => {
  const files: Record<string, string> = { 'src/hub.ts': 'export function hub() { return 1; }\n' };
  for (let i = 0; i < 150; i++) files[`src/${i % 3 === 0 ? 'a' : 'b'}/u${i}.ts`] = `import { hub } from '../hub.js';\nexport const v${i} = hub();\n`;
  await withMappedSession(files, async (s) => {
    const r = await s.dispatch('impact', { path: 'src/hub.ts' });
    assert.equal(r.value.total, 150);
    assert.equal(r.value.files.length, 100);
    assert.deepEqual(r.value.by_place.map((p: any) => [p.folder, p.files]), [['src/b', 100], ['src/a', 50]]);
  });
});

test('uses through an export-all barrel, and imports by the package\'s own name, reach the definition', async () => {
  const files: Record<string, string> = {
    'package.json': '{ "name": "mylib", "version": "1.0.0" }\n',
    'src/common.ts': 'export function helper(x: number) {\n  return x;\n}\n',
    'src/internal.ts': "export * from './common.js';\n",
    'src/index.ts': "export * from './internal.js';\n",
    'src/use.ts': "import { helper } from './internal.js';\nexport const a = helper(1);\n",
    'tests/helper.test.ts': "import { helper } from 'mylib';\nhelper(2);\n",
    'tests/other.test.ts': "import { helper } from 'elsewhere';\nhelper(3);\n",
  };
  await withMappedSession(files, async (s) => {
    const r = await s.dispatch('refs', { name: 'helper' });
    assert.deepEqual(r.value.references.map((f: any) => f.path), ['src/use.ts', 'tests/helper.test.ts']);
    assert.equal(r.value.by_name_only, 1, 'a package of another name is not this definition');
  });
});

test('a file that defines the name itself passes on its own definition, not the one it imports', async () => {
  const files: Record<string, string> = {
    'src/common.ts': 'export function helper(x: number) {\n  return x;\n}\n',
    'src/shadow.ts': "import { helper as base } from './common.js';\nexport function helper() {\n  return base(1);\n}\n",
    'src/via-shadow.ts': "import { helper } from './shadow.js';\nhelper();\n",
  };
  await withMappedSession(files, async (s) => {
    const r = await s.dispatch('refs', { name: 'helper', path: 'src/common.ts' });
    assert.deepEqual(r.value.references.map((f: any) => f.path), ['src/shadow.ts']);
    const own = await s.dispatch('refs', { name: 'helper', path: 'src/shadow.ts' });
    // shadow.ts's only use of the name is its import of common's: it names that one, not its own.
    assert.deepEqual(own.value.references.map((f: any) => f.path), ['src/via-shadow.ts']);
    assert.deepEqual(own.value.references[0].definition, { path: 'src/shadow.ts', line: 2 });
    assert.deepEqual(r.value.references[0].definition, { path: 'src/common.ts', line: 1 });
  });
});

test('an import by package name does not pick between two definitions of the name', async () => {
  const files: Record<string, string> = {
    'package.json': '{ "name": "mylib" }\n',
    'src/a.ts': 'export function render() {\n  return 1;\n}\n',
    'src/b.ts': 'export function render() {\n  return 2;\n}\n',
    'tests/render.test.ts': "import { render } from 'mylib';\nrender();\n",
  };
  await withMappedSession(files, async (s) => {
    const r = await s.dispatch('refs', { name: 'render', path: 'src/a.ts' });
    assert.deepEqual(r.value.references, []);
    assert.equal(r.value.by_name_only, 1);
  });
});
