/** `gardener skeleton check` for CI: exit 0 on a clean tree, 1 naming each breaking import and unroomed file. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { writeRatified } from './helpers/skeleton.js';
import { CLI } from './helpers/mcp-client.js';
import { Brains } from '../src/brain/index.js';

function gardener(args: string[], env: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('skeleton check exits 0 on a clean tree and 1 on a violation, naming each', async () => {
  const home = await makeTempDir('gardener-home-');
  const repo = await makeGitRepo({
    'src/ui/view.ts': "import { load } from '../data/load.js';\nexport const view = load;\n",
    'src/data/load.ts': 'export const load = 1;\n',
  });
  try {
    const env = { ...process.env, GARDENER_HOME: home.dir };
    assert.equal(gardener(['init', repo.dir, '--json'], env).code, 0);
    const none = gardener(['skeleton', 'check', repo.dir], env);
    assert.equal(none.code, 2, 'no ratified skeleton is bad input');
    assert.match(none.stderr, /GDN_NO_SKELETON/);

    const candidate = gardener(['skeleton', 'candidate', repo.dir, '--json'], env);
    assert.equal(candidate.code, 0, candidate.stderr);
    assert.equal(JSON.parse(candidate.stdout).state, 'candidate');

    const brains = new Brains({ home: home.dir, maxThreads: 1 });
    try {
      await writeRatified(brains.resolve(repo.dir), [
        { name: 'ui', globs: ['src/ui/**'], purpose: 'screens', may_use: ['data'] },
        { name: 'data', globs: ['src/data/**'], purpose: 'loading', may_use: [] },
      ]);
    } finally {
      await brains.close();
    }
    const clean = gardener(['skeleton', 'check', repo.dir], env);
    assert.equal(clean.code, 0, clean.stdout + clean.stderr);
    assert.match(clean.stdout, /no import breaks a may_use rule/);

    repo.write('scripts/gen.ts', 'export const gen = 1;\n');
    const unroomed = gardener(['skeleton', 'check', repo.dir], env);
    assert.equal(unroomed.code, 1, 'a file in no room alone fails the check');
    assert.match(unroomed.stdout, /scripts\/gen\.ts: in no room/);

    repo.write('src/data/cache.ts', "import { view } from '../ui/view.js';\nexport const cache = view;\n");
    const dirty = gardener(['skeleton', 'check', repo.dir], env);
    assert.equal(dirty.code, 1, dirty.stdout + dirty.stderr);
    assert.match(dirty.stdout, /src\/data\/cache\.ts:1: imports \.\.\/ui\/view\.js \(src\/ui\/view\.ts\): room data may not use room ui/);
    assert.match(dirty.stdout, /scripts\/gen\.ts: in no room/);
    const json = gardener(['skeleton', 'check', repo.dir, '--json'], env);
    assert.equal(json.code, 1);
    const out = JSON.parse(json.stdout);
    assert.equal(out.ok, false);
    assert.deepEqual(out.unroomed, ['scripts/gen.ts']);
    assert.equal(out.violations.length, 1);

    const shown = gardener(['skeleton', repo.dir], env);
    assert.equal(shown.code, 0);
    assert.match(shown.stdout, /ratified skeleton/);
    assert.match(shown.stdout, /ui \(1 files\) src\/ui\/\*\*  may use: data/);
  } finally {
    await repo.cleanup();
    await home.cleanup();
  }
});
