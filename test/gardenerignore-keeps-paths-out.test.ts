/**
 * `.gardenerignore` keeps paths out of the map (src/detect/gardener-ignore.ts): both detectors
 * (the stat walk and git) never list an ignored path, rules that changed make the next
 * detection an inventory, and through real ticks a path that becomes ignored leaves the map
 * and comes back when un-ignored, even when `.gardenerignore` is itself git-ignored.
 */
import assert from 'node:assert/strict';
import { appendFileSync, chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, test } from 'node:test';
import { detectGit, detectStat, type DetectRequest, type DetectResult } from '../src/detect/index.js';
import { GardenerIgnoreUnreadableError } from '../src/errors.js';
import { listRoots } from '../src/store/index.js';
import { seek } from '../src/ranking/index.js';
import { runTick } from '../src/vigil/index.js';
import { makeTestBrains } from './helpers/brains.js';
import { makeGitRepo, type GitRepo } from './helpers/git-repo.js';

type Detector = (req: DetectRequest) => Promise<DetectResult>;
const DETECTORS: [string, Detector][] = [
  ['stat walk', (req) => detectStat({ ...req, backend: 'stat' })],
  ['git', (req) => detectGit({ ...req, backend: 'git' })],
];

const FILES = {
  'README.md': '# demo\n',
  'src/app.ts': 'export const app = 1;\n',
  'private/notes.md': 'keep this out\n',
  'src/deep/private/plan.md': 'nested, also out\n',
  'data/dump.sql': 'insert into users\n',
  'data/keep.sql': 'insert into kept\n',
};
const RULES = 'private/\n*.sql\n!keep.sql\n';

const present = (r: DetectResult) => r.entries.filter((e) => !e.deleted).map((e) => e.path).sort();

async function withRepo(fn: (repo: GitRepo) => Promise<void>): Promise<void> {
  const repo = await makeGitRepo(FILES);
  try {
    await fn(repo);
  } finally {
    await repo.cleanup();
  }
}

for (const [label, detect] of DETECTORS) {
  describe(`${label}: .gardenerignore`, () => {
    it('an ignored path is never listed, committed or untracked, inventory or not', async () => {
      await withRepo(async (repo) => {
        repo.write('.gardenerignore', RULES);
        repo.write('private/new-untracked.md', 'fresh\n');
        repo.write('data/fresh.sql', 'fresh\n');
        const inventory = await detect({ root: repo.dir, backend: 'auto', sinceRef: null, recheck: ['private/notes.md'], skip: [] });
        assert.deepEqual(present(inventory), ['.gardenerignore', 'README.md', 'data/keep.sql', 'src/app.ts']);
        assert.match(inventory.ignoreFingerprint ?? '', /^[0-9a-f]{64}$/);
      });
    });

    it('rules that changed since the map last looked make the detection an inventory', async () => {
      await withRepo(async (repo) => {
        repo.write('.gardenerignore', RULES);
        const head = repo.commit('rules');
        const first = await detect({ root: repo.dir, backend: 'auto', sinceRef: null, recheck: [], skip: [] });
        const same = await detect({ root: repo.dir, backend: 'auto', sinceRef: head, recheck: [], skip: [], ignoreFingerprint: first.ignoreFingerprint });
        assert.equal(same.ignoreFingerprint, first.ignoreFingerprint);
        if (label === 'git') assert.equal(same.inventory, false, 'unchanged rules: no inventory');
        repo.write('.gardenerignore', `${RULES}README.md\n`);
        const changed = await detect({ root: repo.dir, backend: 'auto', sinceRef: head, recheck: [], skip: [], ignoreFingerprint: first.ignoreFingerprint });
        assert.notEqual(changed.ignoreFingerprint, first.ignoreFingerprint);
        assert.equal(changed.inventory, true, 'changed rules: an inventory, so the map can drop what they keep out');
        assert.deepEqual(present(changed), ['.gardenerignore', 'data/keep.sql', 'src/app.ts']);
      });
    });

    it('an unreadable .gardenerignore stops detection instead of mapping what it keeps out', { skip: process.getuid?.() === 0 ? 'root reads every file' : false }, async () => {
      await withRepo(async (repo) => {
        repo.write('.gardenerignore', RULES);
        chmodSync(join(repo.dir, '.gardenerignore'), 0o000);
        await assert.rejects(detect({ root: repo.dir, backend: 'auto', sinceRef: null, recheck: [], skip: [] }), GardenerIgnoreUnreadableError);
      });
    });

    it('a folder named .gardenerignore stops detection with GDN_IGNORE_UNREADABLE', async () => {
      await withRepo(async (repo) => {
        mkdirSync(join(repo.dir, '.gardenerignore'));
        await assert.rejects(detect({ root: repo.dir, backend: 'auto', sinceRef: null, recheck: [], skip: [] }), (err: Error & { code?: string }) => err.code === 'GDN_IGNORE_UNREADABLE');
      });
    });
  });
}

test('through real ticks, a path that becomes ignored leaves the map and comes back when un-ignored (.gardenerignore itself git-ignored)', async () => {
  const repo = await makeGitRepo({ 'src/app.ts': 'export const app = 1; // bluewren\n', 'src/vault.ts': 'export const vault = 2; // goldfinch\n' });
  const t = await makeTestBrains();
  try {
    // A personal rule file, excluded from git: git status never names it.
    appendFileSync(join(repo.dir, '.git/info/exclude'), '.gardenerignore\n');
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    const found = (word: string) => seek(brain.reader, word).map((h) => h.path);
    assert.deepEqual(found('goldfinch'), ['src/vault.ts']);
    const fingerprint = () => listRoots(brain.reader)[0]!.ignoreFingerprint;
    assert.equal(fingerprint(), null);

    repo.write('.gardenerignore', 'src/vault.ts\n');
    await runTick(brain);
    // The map remembers the rules it applied, so the next tick is no inventory again.
    assert.match(fingerprint() ?? '', /^[0-9a-f]{64}$/);
    assert.deepEqual(found('goldfinch'), [], 'the newly ignored file left the map');
    assert.deepEqual(found('bluewren'), ['src/app.ts']);

    await runTick(brain);
    assert.deepEqual(found('goldfinch'), [], 'and stays out');

    repo.write('.gardenerignore', '# nothing kept out\n');
    await runTick(brain);
    assert.deepEqual(found('goldfinch'), ['src/vault.ts'], 'un-ignored, it is mapped again');
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});
