/**
 * `gardener bench --large-repo` (issue 20 item 6) is read by scripts/update-bench-doc.mjs
 * (`--from-large`): its stdout is one JSON object with the named fields and the four targets,
 * and `--repo-cache` keeps the generated repository for the next run, which reuses it and puts
 * a work tree an earlier run left dirty back to its commit (the bench checks that the first
 * ingest drains exactly the repository's files, so a leftover would fail it). Kept tiny (300
 * files): the real case is 100 000 files and never runs in CI.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CLI } from './helpers/mcp-client.js';

/** Generous bound for two 300-file runs on a slow 2-core machine, in ms. */
const BENCH_TIMEOUT_MS = 240_000;

const REPO_KEYS = ['files', 'repo_reused', 'init_ms', 'init_ms_per_file', 'peak_rss_after_init_mb', 'idle_tick_ms', 'git_status_ms', 'idle_ratio', 'burst_files', 'burst_ms'];

function bench(args: string[], env: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, [CLI, 'bench', ...args], { encoding: 'utf8', env, timeout: BENCH_TIMEOUT_MS });
  if (r.error) throw r.error;
  return r;
}

describe('gardener bench --large-repo', () => {
  it('prints its JSON with the targets, keeps the repository in --repo-cache, and reuses it clean on the next run', { timeout: BENCH_TIMEOUT_MS }, () => {
    const sandbox = mkdtempSync(join(tmpdir(), 'gardener-bench-large-test-'));
    try {
      const tmp = join(sandbox, 'tmp');
      mkdirSync(tmp);
      const cache = join(sandbox, 'cache');
      const env = { ...process.env, TMPDIR: tmp, GARDENER_HOME: join(sandbox, 'home-never-created') };
      const args = ['--large-repo', '--base-files', '300', '--runs', '1', '--repo-cache', cache, '--json'];

      const first = bench(args, env);
      assert.equal(first.status, 0, first.stderr);
      const a = JSON.parse(first.stdout);
      assert.equal(a.kind, 'large-repo');
      for (const side of ['large', 'small']) for (const key of REPO_KEYS) assert.ok(key in a[side], `${side}.${key}`);
      assert.equal(a.large.files, 300);
      assert.equal(a.large.repo_reused, false, 'the first run writes the repository');
      assert.equal(a.large.untracked_cache.length, 3);
      assert.equal(a.targets.length, 4);
      for (const t of a.targets) assert.ok(['met', 'missed', 'not measured'].includes(t.status), t.target);
      assert.deepEqual(execFileSync('find', [tmp, '-mindepth', '1'], { encoding: 'utf8' }), '', 'the temp folder is removed');

      // An interrupted run's leftovers: an edit, a deletion, a new file.
      const repo = join(cache, 'files-300', 'repo');
      const tracked = execFileSync('git', ['ls-files'], { cwd: repo, encoding: 'utf8' }).split('\n').filter(Boolean);
      writeFileSync(join(repo, tracked[0]!), 'changed\n');
      unlinkSync(join(repo, tracked[1]!));
      writeFileSync(join(repo, 'left-behind.ts'), 'export {}\n');

      const second = bench(args, env);
      assert.equal(second.status, 0, second.stderr);
      const b = JSON.parse(second.stdout);
      assert.equal(b.large.repo_reused, true, 'the second run reuses the kept repository');
      assert.equal(b.large.files, 300);
      assert.equal(execFileSync('git', ['status', '--porcelain'], { cwd: repo, encoding: 'utf8' }), '', 'and leaves it at its commit');
      assert.ok(!existsSync(join(repo, 'left-behind.ts')));
    } finally {
      rmSync(sandbox, { recursive: true, force: true });
    }
  });

  it('refuses an empty --repo-cache before anything is made', () => {
    const r = bench(['--large-repo', '--repo-cache', ' ', '--json'], process.env);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--repo-cache must be a folder/);
    assert.equal(r.stdout, '');
  });
});
