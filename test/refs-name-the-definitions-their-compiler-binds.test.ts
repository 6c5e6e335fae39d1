/**
 * What the refs eval against the TypeScript language service found wrong on real monorepos,
 * each on a fixture of this test's own: an import names the file its compiler picks, and a use
 * is only tied to a definition the compiler would bind it to.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ImportResolver } from '../src/resolve/index.js';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains } from './helpers/brains.js';
import { makeTestSession, withMappedSession } from './helpers/session.js';
import { runTick } from '../src/vigil/index.js';
import { loadCodeGraph } from '../src/skeleton/index.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';


/** A function `match` beside a router class whose method is `match`, as hono's routers are. */
const ROUTERS: Record<string, string> = {
  'src/matcher.ts': 'export function match(path: string) {\n  return path;\n}\n',
  'src/router.ts': "import { match } from './matcher.js';\nexport class Router {\n  match(path: string) {\n    return match(path);\n  }\n}\n",
  'bench/run.ts': "import { Router } from '../src/router.js';\nconst router = new Router();\nrouter.match('/');\n",
  'bench/url.ts': "export function path(url: string) {\n  return url.match(/x/);\n}\n",
};

test('a script import without an extension names the script, never a template or style of the same stem', () => {
  const paths = [
    'app/app.component.css',
    'app/app.component.html',
    'app/app.component.ts',
    'app/main.ts',
    'app/theme.css',
    'app/theme.ts',
    'lib/App.svelte',
    'lib/App.tsx',
    'lib/main.ts',
  ].sort();
  const r = new ImportResolver(paths);
  assert.equal(r.resolve('app/main.ts', 'typescript', './app.component'), 'app/app.component.ts');
  assert.equal(r.resolve('app/main.ts', 'typescript', './app.component.js'), 'app/app.component.ts');
  assert.equal(r.resolve('app/main.ts', 'typescript', './theme.css'), 'app/theme.css', 'an extension the file carries names that file');
  assert.equal(r.resolve('lib/main.ts', 'typescript', './App.svelte'), 'lib/App.svelte');
  assert.equal(r.resolve('lib/main.ts', 'typescript', './App'), 'lib/App.tsx');
});

test('asked by name alone, a member use of an unknown receiver is labelled as one of the methods, never as the function of that name', async () => {
  await withMappedSession(ROUTERS, async (s) => {
    const r = await s.dispatch('refs', { name: 'match' });
    assert.equal(r.isError, undefined, JSON.stringify(r.value));
    const byPath = Object.fromEntries(r.value.references.map((f: any) => [f.path, f]));
    const router = byPath['src/router.ts'];
    const named = router.definition !== undefined ? [router.definition] : router.uses.map((u: any) => u.definition);
    assert.ok(named.some((d: any) => d?.path === 'src/matcher.ts'), JSON.stringify(router));
    for (const file of ['bench/run.ts', 'bench/url.ts']) {
      assert.equal(byPath[file].definition, null, file);
      assert.equal(byPath[file].among, 'methods', `${file}: a member use can name a method only`);
    }
    // With the function's path, those uses are not listed; with the method's, they are, unresolved.
    const fn = await s.dispatch('refs', { name: 'match', path: 'src/matcher.ts' });
    assert.deepEqual(fn.value.references.map((f: any) => f.path).sort(), ['src/router.ts']);
    const method = await s.dispatch('refs', { name: 'match', path: 'src/router.ts' });
    assert.deepEqual(method.value.references.map((f: any) => f.path).sort(), ['bench/run.ts', 'bench/url.ts'], 'router.ts calls the function, not its own method');
  });
});

test('a default import of a Vue or Svelte component binds that component, never a definition of the same name elsewhere', async () => {
  await withMappedSession({
    'react/App.tsx': 'export function App() {\n  return null;\n}\n',
    'react/main.tsx': "import { App } from './App';\nApp();\n",
    'vue/App.vue': '<template><p>hi</p></template>\n<script setup lang="ts">\nconst n = 1;\n</script>\n',
    'vue/main.ts': "import App from './App.vue';\nexport const app = [App];\n",
    'svelte/App.svelte': '<script lang="ts">\n  let n = 1;\n</script>\n<p>{n}</p>\n',
    'svelte/main.ts': "import App from './App.svelte';\nexport const app = [App];\n",
  }, async (s) => {
    const r = await s.dispatch('refs', { name: 'App', path: 'react/App.tsx' });
    assert.equal(r.isError, undefined, JSON.stringify(r.value));
    assert.deepEqual(r.value.references.map((f: any) => f.path), ['react/main.tsx']);
  });
});

test('editing a package.json or a go.mod re-resolves the imports it governs on the next tick', async () => {
  const repo = await makeGitRepo({
    'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n",
    'packages/core/package.json': JSON.stringify({ name: '@acme/core', exports: { '.': './src/a.ts' } }),
    'packages/core/src/a.ts': 'export function hashKey(s: string) {\n  return s;\n}\n',
    'packages/core/src/b.ts': 'export function hashKey(s: string) {\n  return s + s;\n}\n',
    'packages/app/src/main.ts': "import { hashKey } from '@acme/core';\nhashKey('x');\n",
    'go.mod': 'module example.com/old\n\ngo 1.22\n',
    'lib/add.go': 'package lib\n\nfunc Add(a, b int) int { return a + b }\n',
    'cmd/main.go': 'package main\n\nimport "example.com/old/lib"\n\nfunc main() { lib.Add(1, 2) }\n',
  });
  const t = await makeTestBrains();
  const { brain } = await t.brains.ensure(repo.dir);
  await runTick(brain, { inventory: true });
  const s = await makeTestSession(t.brains, repo.dir);
  const goTarget = () => loadCodeGraph(brain.reader).byPath.get('cmd/main.go')?.imports.find((i) => i.module === 'example.com/old/lib')?.target ?? null;
  try {
    const before = await s.dispatch('refs', { name: 'hashKey', path: 'packages/core/src/a.ts' });
    assert.deepEqual(before.value.references.map((f: any) => f.path), ['packages/app/src/main.ts']);
    assert.equal(goTarget(), 'lib/add.go');
    writeFileSync(join(repo.dir, 'packages/core/package.json'), JSON.stringify({ name: '@acme/core', exports: { '.': './src/b.ts' } }));
    writeFileSync(join(repo.dir, 'go.mod'), 'module example.com/new\n\ngo 1.22\n');
    await runTick(brain);
    const after = await s.dispatch('refs', { name: 'hashKey', path: 'packages/core/src/b.ts' });
    assert.deepEqual(after.value.references.map((f: any) => [f.path, f.definition]), [['packages/app/src/main.ts', { path: 'packages/core/src/b.ts', line: 1 }]]);
    const old = await s.dispatch('refs', { name: 'hashKey', path: 'packages/core/src/a.ts' });
    assert.deepEqual(old.value.references, []);
    assert.equal(goTarget(), null, 'example.com/old is no module of the repository any more: a dependency');
  } finally {
    await s.close();
    await t.cleanup();
    await repo.cleanup();
  }
});
