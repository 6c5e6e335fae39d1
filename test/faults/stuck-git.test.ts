/**
 * A stopped or half-answering git: `git status` is SIGSTOPped mid-run, or writes half its
 * output and hangs. The tick ends within its bound (`gitTimeoutMs`, per git process) with a
 * `tick_failed` alert, no git process is left behind (stopped or not), and the next tick, with
 * a git that answers, drains everything.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeGitRepo, makeTempDir } from '../helpers/git-repo.js';
import { makeTestBrains, sourceFiles } from '../helpers/brains.js';
import { isAlive } from '../helpers/fake-git.js';
import { runTick } from '../../src/vigil/index.js';
import { listAlerts, openStore, countBacklog } from '../../src/store/index.js';
import { recordFigures } from './fault-config.js';

const VIGIL_CHILD = fileURLToPath(new URL('./vigil-child.js', import.meta.url));
/** The bound the tick is given for each git process, in ms: short, so the test is too. */
const GIT_TIMEOUT_MS = 1500;
/**
 * What the tick may take beyond that bound, in ms: a worker start, the store writes and the
 * alert on a busy 2-core machine. A tick that waits for git to finish never gets near it.
 */
const SLACK_MS = 8000;

const REAL_GIT = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

/** A git that misbehaves on `status` only (`stop` or `half`), and is the real git otherwise. */
function writeStuckGit(binDir: string, pidDir: string, mode: 'stop' | 'half' | 'real'): void {
  const lines = ['#!/bin/sh', `for a in "$@"; do [ "$a" = status ] && is_status=1; done`];
  if (mode !== 'real') {
    lines.push(`if [ -n "$is_status" ]; then`, `  echo $$ > "${pidDir}/$$"`);
    if (mode === 'stop') lines.push('  kill -STOP $$');
    // Half an answer (a branch header, no NUL at its end), then wait on a pipe nobody writes.
    else lines.push(`  printf '# branch.oid 0123456789abcdef0123456789abcdef01234567'`, `  : < "${pidDir}/../never.fifo"`);
    lines.push('  exit 0', 'fi');
  }
  lines.push(`exec "${REAL_GIT}" "$@"`);
  writeFileSync(join(binDir, 'git'), lines.join('\n') + '\n', { mode: 0o755 });
}

async function runVigilChild(home: string, dir: string, env: NodeJS.ProcessEnv, gitTimeoutMs?: number) {
  const child = spawn(process.execPath, [VIGIL_CHILD, home, dir, ...(gitTimeoutMs ? [String(gitTimeoutMs)] : [])], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  const [code] = await once(child, 'exit');
  assert.equal(code, 0, 'the vigil child ends by itself');
  return JSON.parse(stdout) as { ok: boolean; ms: number; alertId?: number; error?: { code: string; message: string }; report?: { backlogLeft: number; drained: number } };
}

for (const mode of ['stop', 'half'] as const) {
  test(`a git that ${mode === 'stop' ? 'is SIGSTOPped mid-status' : 'writes half its status and hangs'}: the tick ends in its bound with an alert, no git is left, the next tick works`, { timeout: 120_000 }, async () => {
    const repo = await makeGitRepo(sourceFiles(3));
    const t = await makeTestBrains();
    const fake = await makeTempDir('gardener-stuck-git-');
    const binDir = join(fake.dir, 'bin');
    const pidDir = join(fake.dir, 'pids');
    mkdirSync(binDir);
    mkdirSync(pidDir);
    execFileSync('mkfifo', [join(fake.dir, 'never.fifo')]);
    try {
      const { brain } = await t.brains.ensure(repo.dir);
      await runTick(brain, { inventory: true });
      await t.brains.close();
      for (const [p, c] of Object.entries(sourceFiles(40, 'burst/b'))) repo.write(p, c);
      writeStuckGit(binDir, pidDir, mode);
      const env = { ...process.env, PATH: `${binDir}:${process.env.PATH ?? ''}` };

      const stuck = await runVigilChild(t.home, repo.dir, env, GIT_TIMEOUT_MS);
      const pids = readdirSync(pidDir).map(Number);
      assert.ok(pids.length >= 1, 'the stuck git ran');
      assert.equal(stuck.ok, false, 'the tick failed rather than waiting');
      assert.ok(stuck.alertId, 'with an alert');
      assert.match(stuck.error!.message, /did not finish within|timed out|aborted/i, stuck.error!.message);
      assert.ok(stuck.ms < GIT_TIMEOUT_MS + SLACK_MS, `the tick ended in ${stuck.ms} ms (bound ${GIT_TIMEOUT_MS} ms per git)`);
      for (const pid of pids) assert.equal(isAlive(pid), false, `git ${pid} is not left behind`);
      const db = openStore(brain.file, { readonly: true });
      assert.equal(listAlerts(db)[0]?.code, 'tick_failed');
      assert.equal(countBacklog(db), 0, 'nothing was queued by the failed detection');
      db.close();

      writeStuckGit(binDir, pidDir, 'real');
      const next = await runVigilChild(t.home, repo.dir, env, GIT_TIMEOUT_MS);
      assert.equal(next.ok, true, JSON.stringify(next.error));
      assert.equal(next.report!.backlogLeft, 0);
      assert.equal(next.report!.drained, 40, 'the next tick drains the whole burst');
      recordFigures(`stuck-git-${mode}`, { git_timeout_ms: GIT_TIMEOUT_MS, tick_ms: stuck.ms, left_behind: 0, next_tick_drained: next.report!.drained });
    } finally {
      for (const pid of readdirSync(pidDir).map(Number)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
      await t.cleanup();
      await repo.cleanup();
      await fake.cleanup();
    }
  });
}
