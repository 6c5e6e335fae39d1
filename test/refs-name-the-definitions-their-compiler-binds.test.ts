/**
 * What the refs eval against the TypeScript language service found wrong on real monorepos,
 * each on a fixture of this test's own: an import names the file its compiler picks, and a use
 * is only tied to a definition the compiler would bind it to.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ImportResolver } from '../src/resolve/index.js';

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
