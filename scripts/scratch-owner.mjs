// Shared by the maintainer scripts that start a real owner (smoke-owner.mjs, run-conformance.mjs):
// a temporary home beside a small git repository, and an owner's JSON log lines followed on its
// stderr so a script waits on what the owner says, never on a clock.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A temporary folder holding `home` and `repo`, and the environment that points Gardener at that home. */
export function scratchHome(prefix, logLevel) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const home = join(dir, 'home');
  const repo = join(dir, 'repo');
  const env = { ...process.env, GARDENER_HOME: home, GARDENER_LOG: logLevel, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  delete env.XDG_RUNTIME_DIR;
  delete env.GARDENER_NO_OWNER;
  return { dir, home, repo, env };
}

/** `git init` of `repo` holding `files` (path → text) in one commit by `who`. */
export function makeScratchRepo(repo, env, files, who) {
  execFileSync('git', ['init', '-q', '-b', 'main', repo], { env });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  execFileSync('git', ['-C', repo, 'add', '-A'], { env, stdio: 'pipe' });
  execFileSync('git', ['-C', repo, '-c', `user.name=${who}`, '-c', `user.email=${who}@example.invalid`, 'commit', '-qm', 'init'], { env, stdio: 'pipe' });
}

/**
 * Follows an owner's log: every JSON line of its stderr in `logs` (the raw text in `stderr()`),
 * and `logLine(match, from)` resolves with the first line from `from` on that matches.
 */
export function followLog(proc) {
  const logs = [];
  const waiters = [];
  let text = '';
  let partial = '';
  proc.stderr.on('data', (d) => {
    text += d;
    partial += d;
    let nl;
    while ((nl = partial.indexOf('\n')) !== -1) {
      const line = partial.slice(0, nl);
      partial = partial.slice(nl + 1);
      try {
        logs.push(JSON.parse(line));
      } catch {
        continue;
      }
      for (const w of waiters.splice(0)) w();
    }
  });
  const logLine = async (match, from = 0) => {
    for (;;) {
      const hit = logs.slice(from).find(match);
      if (hit) return hit;
      await new Promise((r) => waiters.push(r));
    }
  };
  return { logs, logLine, stderr: () => text };
}
