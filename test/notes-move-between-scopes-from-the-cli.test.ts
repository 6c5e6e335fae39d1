/**
 * `gardener notes` lists notes with their scope; `notes share ID` writes a private note out as a
 * team note file, `notes unshare ID` takes it back; `gardener forget ID` removes a team note's file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains } from './helpers/brains.js';
import { makeTestSession } from './helpers/session.js';
import { runCli } from './helpers/owner.js';

test('share writes a private note out as a team file, unshare takes it back, forget removes the file, notes lists the scope', { timeout: 120_000 }, async () => {
  const repo = await makeGitRepo({ 'src/a.ts': 'export function alpha(): number {\n  return 1;\n}\n' });
  const home = await makeTestBrains();
  const env = { ...process.env, GARDENER_HOME: home.home, GARDENER_NO_OWNER: '1' };
  try {
    const s = await makeTestSession(home.brains, repo.dir);
    assert.ok(!(await s.dispatch('ingest')).isError);
    const r = await s.dispatch('remember', { text: 'alpha answers one', files: ['src/a.ts'] });
    const id = r.value.id as number;
    await s.close();
    await home.brains.close();

    const shared = await runCli(['notes', 'share', String(id), '--root', repo.dir, '--json'], env);
    assert.equal(shared.code, 0, shared.stderr);
    const file = JSON.parse(shared.stdout).file as string;
    assert.match(readFileSync(join(repo.dir, file), 'utf8'), /alpha answers one/);
    const listed = JSON.parse((await runCli(['notes', '--root', repo.dir, '--json'], env)).stdout) as { id: number; scope: string; file?: string }[];
    assert.deepEqual(listed.map((n) => [n.id, n.scope, n.file]), [[id, 'team', file]]);

    const unshared = await runCli(['notes', 'unshare', String(id), '--root', repo.dir], env);
    assert.equal(unshared.code, 0, unshared.stderr);
    assert.equal(existsSync(join(repo.dir, file)), false);
    const again = JSON.parse((await runCli(['notes', '--root', repo.dir, '--json'], env)).stdout) as { scope: string }[];
    assert.deepEqual(again.map((n) => n.scope), ['private']);

    const reshared = JSON.parse((await runCli(['notes', 'share', String(id), '--root', repo.dir, '--json'], env)).stdout) as { file: string };
    const forgot = await runCli(['forget', String(id), '--root', repo.dir], env);
    assert.equal(forgot.code, 0, forgot.stderr);
    assert.equal(existsSync(join(repo.dir, reshared.file)), false, "forget removes the team note's file");
    assert.deepEqual(JSON.parse((await runCli(['notes', '--root', repo.dir, '--json'], env)).stdout), []);
  } finally {
    await home.cleanup();
    await repo.cleanup();
  }
});
