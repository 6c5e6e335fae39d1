/**
 * `changes` under a root with a `.gardenerignore`: it never names a path the rules keep out
 * (edited, added, deleted or committed, since the last tick or since a ref, and after the rules
 * changed), and `since` lists what differs from the ref, not every file the root holds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains } from './helpers/brains.js';
import { makeTestSession } from './helpers/session.js';
import { runTick } from '../src/vigil/index.js';

const RULES = 'secret.env\nkeys/\n*.pem\n';

function repoFiles(): Record<string, string> {
  return {
    '.gardenerignore': RULES,
    'src/a.ts': 'export const a = 1;\n',
    'src/b.ts': 'export const b = 1;\n',
    'src/c.ts': 'export const c = 1;\n',
    'secret.env': 'API_KEY=one\n',
    'keys/deploy.key': 'key one\n',
    'certs/site.pem': 'pem one\n',
  };
}

const ignored = (p: string) => p === 'secret.env' || p.startsWith('keys/') || p.endsWith('.pem');
const pathsOf = (value: { changes: { path: string }[] }) => value.changes.map((c) => c.path).sort();

test('changes never names a path .gardenerignore keeps out, since the last tick or since a ref', { timeout: 60_000 }, async () => {
  const repo = await makeGitRepo(repoFiles());
  const t = await makeTestBrains();
  let session: Awaited<ReturnType<typeof makeTestSession>> | undefined;
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    session = await makeTestSession(t.brains, repo.dir);
    const first = repo.git('rev-parse', 'HEAD').trim();

    repo.write('src/a.ts', 'export const a = 2;\n');
    repo.write('secret.env', 'API_KEY=two\n');
    repo.write('keys/deploy.key', 'key two\n');
    repo.write('keys/new.key', 'new key\n');
    repo.write('certs/other.pem', 'other pem\n');
    repo.remove('certs/site.pem');
    const sinceTick = await session.dispatch('changes');
    assert.equal(sinceTick.isError, undefined, JSON.stringify(sinceTick.value));
    assert.deepEqual(pathsOf(sinceTick.value), ['src/a.ts']);
    const sinceHead = await session.dispatch('changes', { since: 'HEAD' });
    assert.deepEqual(pathsOf(sinceHead.value), ['src/a.ts']);

    repo.commit('edit the kept-out files too');
    const sinceFirst = await session.dispatch('changes', { since: first });
    assert.deepEqual(pathsOf(sinceFirst.value), ['src/a.ts']);
    assert.equal(sinceFirst.value.total, 1);

    // Rules that grow after the map was made: the newly kept-out file is not named either.
    repo.write('.gardenerignore', `${RULES}src/c.ts\n`);
    repo.write('src/c.ts', 'export const c = 2;\n');
    const afterRules = await session.dispatch('changes');
    assert.ok(!pathsOf(afterRules.value).some(ignored) && !pathsOf(afterRules.value).includes('src/c.ts'), JSON.stringify(afterRules.value.changes));
    const afterRulesSince = await session.dispatch('changes', { since: first });
    assert.deepEqual(pathsOf(afterRulesSince.value), ['.gardenerignore', 'src/a.ts']);
  } finally {
    await session?.close();
    await t.cleanup();
    await repo.cleanup();
  }
});

test('changes since a ref lists what differs from it, not every file, when the root has a .gardenerignore', { timeout: 60_000 }, async () => {
  const repo = await makeGitRepo(repoFiles());
  const t = await makeTestBrains();
  let session: Awaited<ReturnType<typeof makeTestSession>> | undefined;
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    session = await makeTestSession(t.brains, repo.dir);
    const clean = await session.dispatch('changes', { since: 'HEAD' });
    assert.equal(clean.isError, undefined, JSON.stringify(clean.value));
    assert.deepEqual(pathsOf(clean.value), [], 'a clean work tree differs from HEAD in nothing');
    repo.write('src/b.ts', 'export const b = 2;\n');
    const edited = await session.dispatch('changes', { since: 'HEAD' });
    assert.deepEqual(pathsOf(edited.value), ['src/b.ts']);
  } finally {
    await session?.close();
    await t.cleanup();
    await repo.cleanup();
  }
});
