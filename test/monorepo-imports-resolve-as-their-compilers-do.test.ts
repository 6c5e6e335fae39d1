/**
 * Monorepos resolved as their compilers resolve them, and uses that know their definition:
 * real git repositories ingested by a real tick, asked through the dispatch seam.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains } from './helpers/brains.js';
import { withMappedSession } from './helpers/session.js';
import { runTick } from '../src/vigil/index.js';
import { ImportResolver, buildLayout } from '../src/resolve/index.js';
import { loadCodeGraph } from '../src/skeleton/index.js';


/** A pnpm workspace: each package's exports point at its own source under a custom condition, as TanStack query's do. */
const PNPM: Record<string, string> = {
  'package.json': '{ "name": "root", "private": true }\n',
  'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n",
  'tsconfig.json': '{\n  // the custom condition the packages export their source under\n  "compilerOptions": { "customConditions": ["@acme/source"], "moduleResolution": "Bundler", },\n}\n',
  'packages/core/package.json': JSON.stringify({
    name: '@acme/core',
    exports: { '.': { '@acme/source': './src/index.ts', import: { types: './build/index.d.ts', default: './build/index.js' } }, './utils': './build/utils/index.js' },
  }),
  'packages/core/tsconfig.json': '{ "extends": "../../tsconfig.json", "compilerOptions": { "outDir": "build", "rootDir": "src" } }\n',
  'packages/core/src/index.ts': "export { QueryClient } from './client.js';\nexport * from './hash.js';\n",
  'packages/core/src/client.ts': 'export class QueryClient {\n  fetch() {\n    return this.run();\n  }\n  run() {\n    return 1;\n  }\n}\n',
  'packages/core/src/hash.ts': 'export function hashKey(k: string) {\n  return k;\n}\n',
  'packages/core/src/utils/index.ts': 'export function noop() {}\n',
  'packages/react/package.json': JSON.stringify({ name: '@acme/react', main: './build/index.js' }),
  'packages/react/src/index.ts': "import { QueryClient, hashKey } from '@acme/core';\nimport { noop } from '@acme/core/utils';\nexport function useQuery() {\n  noop();\n  return new QueryClient().fetch() + hashKey('a').length;\n}\n",
  'packages/vue/package.json': JSON.stringify({ name: '@acme/vue' }),
  'packages/vue/src/use.ts': "import * as core from '@acme/core';\nimport { useQuery } from '@acme/react';\nexport function useVue() {\n  return core.hashKey('b') + useQuery();\n}\n",
  'packages/other/src/hash.ts': "import { hashKey as external } from 'some-dependency';\nexport function other() {\n  return external('c');\n}\nexport function hashKey() {\n  return 0;\n}\n",
};

test('an import of a sibling workspace package resolves through its exports, under the custom condition, with no node_modules', async () => {
  await withMappedSession(PNPM, async (s) => {
    const r = await s.dispatch('impact', { path: 'packages/core/src/index.ts' });
    assert.equal(r.isError, undefined, JSON.stringify(r.value));
    const paths = (r.value.files as { path: string }[]).map((f) => f.path);
    assert.ok(paths.includes('packages/react/src/index.ts'), `impact names the sibling that imports @acme/core: ${paths.join(', ')}`);
    assert.ok(paths.includes('packages/vue/src/use.ts'), paths.join(', '));
    // A subpath export whose target is unbuilt output is read back to its source.
    const noop = await s.dispatch('refs', { name: 'noop' });
    assert.deepEqual(noop.value.references.map((f: any) => [f.path, f.definition]), [['packages/react/src/index.ts', { path: 'packages/core/src/utils/index.ts', line: 1 }]]);
  });
});

test('a use reached through a barrel and a package name knows its definition; a name with two definitions is grouped by them', async () => {
  await withMappedSession(PNPM, async (s) => {
    const r = await s.dispatch('refs', { name: 'hashKey' });
    assert.equal(r.isError, undefined, JSON.stringify(r.value));
    const byPath = Object.fromEntries(r.value.references.map((f: any) => [f.path, f.definition]));
    const core = { path: 'packages/core/src/hash.ts', line: 1 };
    assert.deepEqual(byPath['packages/react/src/index.ts'], core, 'through `export *` of the package index');
    assert.deepEqual(byPath['packages/vue/src/use.ts'], core, 'through a namespace import');
    // other/hash.ts imports a dependency's hashKey under another name: not a use of either definition here.
    assert.equal(byPath['packages/other/src/hash.ts'], undefined);
    const defs = r.value.definitions.map((d: any) => [d.path, d.files]);
    assert.deepEqual(defs, [['packages/core/src/hash.ts', 2], ['packages/other/src/hash.ts', 0]]);
    assert.match(r.value.pick, /path/);
    const one = await s.dispatch('refs', { name: 'hashKey', path: 'packages/other/src/hash.ts' });
    assert.deepEqual(one.value.references, []);
  });
});

test('this.m() inside a class resolves to that class\'s method; a member use on an unknown receiver is unresolved, not guessed', async () => {
  await withMappedSession(PNPM, async (s) => {
    const r = await s.dispatch('refs', { name: 'run', path: 'packages/core/src/client.ts' });
    assert.equal(r.isError, undefined, JSON.stringify(r.value));
    assert.deepEqual(r.value.references.map((f: any) => [f.path, f.definition]), [['packages/core/src/client.ts', { path: 'packages/core/src/client.ts', line: 5 }]]);
    const fetch = await s.dispatch('refs', { name: 'fetch', path: 'packages/core/src/client.ts' });
    const react = fetch.value.references.find((f: any) => f.path === 'packages/react/src/index.ts');
    assert.equal(react.definition, null);
    assert.equal(fetch.value.unresolved, 1);
  });
});

test('a root-relative path is taken as answers print it, from any folder', async () => {
  await withMappedSession(PNPM, async (s) => {
    const r = await s.dispatch('refs', { name: 'useQuery', path: 'packages/react/src/index.ts' });
    assert.equal(r.isError, undefined, JSON.stringify(r.value));
    assert.deepEqual(r.value.definitions.map((d: any) => d.path), ['packages/react/src/index.ts']);
    assert.deepEqual(r.value.references.map((f: any) => f.path), ['packages/vue/src/use.ts']);
  });
});

test('editing a tsconfig re-resolves its imports on the next tick', async () => {
  const files = {
    'tsconfig.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "@lib/*": ["lib/*"] } } }\n',
    'lib/math.ts': 'export function add(a: number, b: number) {\n  return a + b;\n}\n',
    'shared/math.ts': 'export function add(a: number, b: number) {\n  return b + a;\n}\n',
    'app/main.ts': "import { add } from '@lib/math';\nadd(1, 2);\n",
  };
  await withMappedSession(files, async (s, { dir, tick }) => {
    const before = await s.dispatch('refs', { name: 'add', path: 'lib/math.ts' });
    assert.deepEqual(before.value.references.map((f: any) => f.path), ['app/main.ts']);
    writeFileSync(join(dir, 'tsconfig.json'), '{ "compilerOptions": { "baseUrl": ".", "paths": { "@lib/*": ["shared/*"] } } }\n');
    await tick();
    const after = await s.dispatch('refs', { name: 'add', path: 'shared/math.ts' });
    assert.deepEqual(after.value.references.map((f: any) => [f.path, f.definition]), [['app/main.ts', { path: 'shared/math.ts', line: 1 }]]);
    const old = await s.dispatch('refs', { name: 'add', path: 'lib/math.ts' });
    assert.deepEqual(old.value.references, []);
  });
});

test('Go module paths, Cargo workspace crates and Python source folders resolve from their manifests', () => {
  const paths = [
    'go.work', 'svc/go.mod', 'svc/api/handler.go', 'svc/api/handler_test.go', 'lib/go.mod', 'lib/log/log.go', 'svc/main.go',
    'crates/grep-core/Cargo.toml', 'crates/grep-core/src/lib.rs', 'crates/grep-core/src/search/mod.rs', 'crates/cli/src/main.rs',
    'tools/pyproject.toml', 'tools/src/acme/__init__.py', 'tools/src/acme/cli/run.py', 'tools/src/acme/ns/part.py', 'other/acme/cli/run.py',
  ].sort();
  const layout = buildLayout([
    { path: 'svc/go.mod', manifest: { kind: 'go-module', module: 'example.com/svc' } },
    { path: 'lib/go.mod', manifest: { kind: 'go-module', module: 'example.com/lib' } },
    { path: 'go.work', manifest: { kind: 'go-work', use: ['./svc', './lib'] } },
    { path: 'crates/grep-core/Cargo.toml', manifest: { kind: 'crate', name: 'grep-core' } },
    { path: 'tools/pyproject.toml', manifest: { kind: 'python-project' } },
  ]);
  const r = new ImportResolver(paths, layout);
  assert.equal(r.resolve('svc/main.go', 'go', 'example.com/svc/api'), 'svc/api/handler.go');
  assert.equal(r.resolve('svc/main.go', 'go', 'example.com/lib/log'), 'lib/log/log.go');
  assert.equal(r.resolve('svc/main.go', 'go', 'github.com/other/api'), null, 'a dependency stays external');
  assert.equal(r.resolve('crates/cli/src/main.rs', 'rust', 'grep_core::search::Searcher'), 'crates/grep-core/src/search/mod.rs');
  assert.equal(r.resolve('crates/cli/src/main.rs', 'rust', 'grep_core::Thing'), 'crates/grep-core/src/lib.rs');
  assert.equal(r.resolve('x.py', 'python', 'acme.cli.run'), 'tools/src/acme/cli/run.py', 'the project\'s src folder before a path suffix elsewhere');
  assert.equal(r.resolve('x.py', 'python', 'acme.ns'), 'tools/src/acme/ns/part.py', 'a namespace package by its folder');
  // Without manifests, the path heuristics answer as before.
  assert.equal(new ImportResolver(paths).resolve('svc/main.go', 'go', 'example.com/svc/api'), 'svc/api/handler.go');
});

test('the code graph resolves a tsconfig path alias and a workspace package name to files', async () => {
  const files = {
    'tsconfig.base.json': '{ "compilerOptions": { "paths": { "@app/*": ["./packages/*/src"] } } }\n',
    'packages/a/tsconfig.json': '{ "extends": "../../tsconfig.base.json" }\n',
    'packages/a/src/index.ts': "import { b } from '@app/b';\nexport const a = b;\n",
    'packages/b/src/index.ts': 'export const b = 1;\n',
  };
  const repo = await makeGitRepo(files);
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    const graph = loadCodeGraph(brain.reader);
    assert.deepEqual(graph.byPath.get('packages/a/src/index.ts')!.imports.map((i) => i.target), ['packages/b/src/index.ts']);
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});
