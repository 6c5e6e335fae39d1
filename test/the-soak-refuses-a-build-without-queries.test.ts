/**
 * The soak's tree-sitter brain needs the grammar queries that `npm run build` copies beside the
 * compiled loader; `tsc` alone leaves them out, and a soak from such a build indexed that brain
 * as text for 30 minutes and ended in alerts about the build. It must refuse at once, naming
 * the query and the command that puts it there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const QUERIES = join('dist', 'src', 'ingest', 'tree-sitter', 'queries');

test('the soak refuses a build without the grammar queries, and says to run npm run build', { timeout: 60_000 }, () => {
  assert.ok(existsSync(join(ROOT, QUERIES)), 'this build has its queries (npm run build)');
  const dir = mkdtempSync(join(tmpdir(), 'gardener-tsc-only-'));
  try {
    cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true, filter: (src) => !`${src}${sep}`.startsWith(join(ROOT, QUERIES) + sep) });
    cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    assert.equal(existsSync(join(dir, QUERIES)), false);
    const before = new Set(readdirSync(tmpdir()).filter((n) => n.startsWith('gardener-soak-')));
    const run = spawnSync(process.execPath, [join(dir, 'dist', 'bench', 'soak', 'main.js'), '--minutes', '1'], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /soak: the c query is not in this build .*run `npm run build`/);
    const made = readdirSync(tmpdir()).filter((n) => n.startsWith('gardener-soak-') && !before.has(n));
    assert.deepEqual(made, [], 'nothing was started');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
