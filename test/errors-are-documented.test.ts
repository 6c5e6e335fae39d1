import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const codesInCode = new Set(
  [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'workers'))].flatMap((f) =>
    [...readFileSync(f, 'utf8').matchAll(/['"`](GDN_[A-Z_]+)['"`]/g)].map((m) => m[1]!),
  ),
);
const codesInDocs = new Set([...readFileSync(join(root, 'docs', 'errors.md'), 'utf8').matchAll(/`(GDN_[A-Z_]+)`/g)].map((m) => m[1]!));

test('every error code in the code is documented in docs/errors.md', () => {
  assert.deepEqual([...codesInCode].filter((c) => !codesInDocs.has(c)), []);
});

test('every code in docs/errors.md is used by the code', () => {
  assert.deepEqual([...codesInDocs].filter((c) => !codesInCode.has(c)), []);
});
