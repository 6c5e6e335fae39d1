/**
 * The traffic law, for any transport: a tick verb on an armed brain schedules a tick, which
 * ingests a file written after the last one. Waits on state (seek finds the file), never time;
 * a transport that does not tick leaves the test to its own timeout.
 */
import assert from 'node:assert/strict';
import { makeGitRepo, type GitRepo } from './git-repo.js';
import { sourceFiles } from './brains.js';
import { runCli } from './owner.js';

export type Call = (name: string, args?: Record<string, unknown>) => Promise<{ isError: boolean; value: any }>;

/** A repository with an ingested, armed brain in `env`'s home (made by the CLI, as a user would). */
export async function armedRepo(env: NodeJS.ProcessEnv): Promise<GitRepo> {
  const repo = await makeGitRepo(sourceFiles(3));
  for (const args of [['init', repo.dir], ['daemon', 'start', repo.dir]]) {
    const r = await runCli(args, env);
    assert.equal(r.code, 0, r.stderr);
  }
  return repo;
}

export async function trafficTicksTheArmedBrain(repo: GitRepo, call: Call): Promise<void> {
  const before = await call('seek', { query: 'freshlyWritten' });
  assert.equal(before.isError, false, JSON.stringify(before.value));
  assert.ok(!JSON.stringify(before.value).includes('src/fresh.ts'), 'not in the map yet');
  repo.write('src/fresh.ts', 'export function freshlyWritten(): number {\n  return 1;\n}\n');
  const r = await call('remember', { text: 'a tick verb: traffic' });
  assert.equal(r.isError, false, JSON.stringify(r.value));
  for (;;) {
    const hits = await call('seek', { query: 'freshlyWritten' });
    if (JSON.stringify(hits.value).includes('src/fresh.ts')) return;
    await new Promise((res) => setImmediate(res));
  }
}
