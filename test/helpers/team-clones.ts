/**
 * Two clones of one repository and the bare remote between them, for the team-notes tests:
 * A is made with `files` and pushed; B is cloned from the remote. Each has its own user.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeGitRepo, makeTempDir, testGitEnv, type GitRepo, type TempDir } from './git-repo.js';

export interface TeamClones {
  a: GitRepo;
  b: GitRepo;
  remote: TempDir;
  cleanup(): Promise<void>;
}

export async function makeTeamClones(files: Record<string, string>): Promise<TeamClones> {
  const remote = await makeTempDir('gardener-remote-');
  const env = testGitEnv();
  const run = (cwd: string, ...args: string[]): string => {
    const out = execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return out.endsWith('\n') ? out.slice(0, -1) : out;
  };
  run(remote.dir, 'init', '-q', '--bare', '-b', 'main');
  const a = await makeGitRepo(files);
  a.git('config', 'user.name', 'Ada Lovelace');
  a.git('config', 'user.email', 'ada@example.invalid');
  a.git('remote', 'add', 'origin', remote.dir);
  a.git('push', '-q', '-u', 'origin', 'main');
  const bTemp = await makeTempDir('gardener-clone-');
  run(bTemp.dir, 'clone', '-q', remote.dir, '.');
  for (const [k, v] of [['user.name', 'Brian Kernighan'], ['user.email', 'bwk@example.invalid'], ['commit.gpgsign', 'false'], ['core.autocrlf', 'false']] as const) run(bTemp.dir, 'config', k, v);
  const b: GitRepo = {
    ...bTemp,
    git: (...args) => run(bTemp.dir, ...args),
    write(rel, content) {
      const path = join(bTemp.dir, String(rel));
      mkdirSync(path.slice(0, path.lastIndexOf('/')), { recursive: true });
      writeFileSync(path, content);
    },
    remove: (rel) => rmSync(join(bTemp.dir, String(rel)), { recursive: true, force: true }),
    commit(message) {
      run(bTemp.dir, 'add', '-A');
      run(bTemp.dir, 'commit', '-q', '--allow-empty', '-m', message);
      return run(bTemp.dir, 'rev-parse', 'HEAD');
    },
  };
  return {
    a, b, remote,
    async cleanup() {
      await a.cleanup();
      await b.cleanup();
      await remote.cleanup();
    },
  };
}
