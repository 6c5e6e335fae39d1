/**
 * Laws of an inventory, held by both detectors (the stat walk, and git asked for an
 * inventory); then the stat walk's own: it agrees with `git ls-files` and survives folders it
 * cannot read; then when detectChanges hands a root to the stat walk instead of git.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, it } from 'node:test';
import { AbortedError } from '../src/errors.js';
import { detectChanges, detectGit, detectStat, parseLsFiles, type DetectRequest, type DetectResult } from '../src/detect/index.js';
import { encodePath, joinFsPath } from '../src/paths/path-bytes.js';
import { makeGitRepo, makeTempDir, testGitEnv, type GitRepo } from './helpers/git-repo.js';
import { unprivilegedCommand } from './helpers/without-read-all.js';

function request(root: string, over: Partial<DetectRequest> = {}): DetectRequest {
  return { root, backend: 'stat', sinceRef: null, recheck: [], skip: [], inventory: true, ...over };
}

function present(result: DetectResult): string[] {
  return result.entries.filter((e) => !e.deleted).map((e) => e.path).sort();
}

async function withRepo(files: Record<string, string>, fn: (repo: GitRepo) => Promise<void>): Promise<void> {
  const repo = await makeGitRepo(files);
  try {
    await fn(repo);
  } finally {
    await repo.cleanup();
  }
}

const BASE = { 'a.txt': 'alpha\n', 'src/b.ts': 'export const b = 2;\n', 'src/deep/c.md': '# c\n' };

type Detector = (req: DetectRequest, signal?: AbortSignal) => Promise<DetectResult>;
const DETECTORS: [string, Detector][] = [
  ['stat walk', detectStat],
  ['git inventory', (req, signal) => detectGit({ ...req, backend: 'git' }, signal)],
];

for (const [name, detect] of DETECTORS) {
  describe(`an inventory (${name})`, () => {
    it('lists every file under the root with its size and mtime', () =>
      withRepo(BASE, async (repo) => {
        repo.write('untracked.txt', 'u\n');
        const r = await detect(request(repo.dir));
        assert.equal(r.inventory, true);
        assert.deepEqual(present(r), ['a.txt', 'src/b.ts', 'src/deep/c.md', 'untracked.txt']);
        for (const e of r.entries) {
          const st = statSync(joinFsPath(repo.dir, e.path));
          assert.deepEqual(e, { path: e.path, size: st.size, mtimeMs: st.mtimeMs, deleted: false });
        }
      }));

    it('leaves out noise folders and the extra skip prefixes', () =>
      withRepo(BASE, async (repo) => {
        repo.write('node_modules/x.js', 'x');
        repo.write('src/__pycache__/y.pyc', 'y');
        repo.write('.brain/store/brain.db', 'db');
        repo.write('src/.brain/kept.txt', 'a prefix is anchored at the root');
        repo.write('coverage', 'a file called coverage is still a file');
        const r = await detect(request(repo.dir, { skip: ['./.brain/'] }));
        assert.deepEqual(present(r), ['a.txt', 'coverage', 'src/.brain/kept.txt', 'src/b.ts', 'src/deep/c.md']);
      }));

    it('keeps odd path bytes exact', () =>
      withRepo(BASE, async (repo) => {
        const names = [
          Buffer.from('with space.txt'),
          Buffer.from('new\nline.txt'),
          Buffer.concat([Buffer.from('d'), Buffer.from([0xff, 0x80]), Buffer.from('/f.txt')]),
        ];
        names.forEach((n, i) => repo.write(n, 'z'.repeat(i + 1)));
        const r = await detect(request(repo.dir));
        names.forEach((n, i) => {
          const e = r.entries.find((x) => encodePath(x.path).equals(n));
          assert.ok(e, JSON.stringify(n.toString('latin1')));
          assert.equal(e.size, i + 1);
        });
      }));

    it('never follows a symlink', async () => {
      const outside = await makeTempDir();
      try {
        writeFileSync(`${outside.dir}/secret.txt`, 'secret');
        await withRepo(BASE, async (repo) => {
          symlinkSync(outside.dir, `${repo.dir}/linkdir`);
          symlinkSync(`${outside.dir}/secret.txt`, `${repo.dir}/leak.txt`);
          symlinkSync(`${repo.dir}/nowhere`, `${repo.dir}/dangling.txt`);
          const r = await detect(request(repo.dir));
          assert.deepEqual(present(r), ['a.txt', 'src/b.ts', 'src/deep/c.md']);
        });
      } finally {
        await outside.cleanup();
      }
    });

    it('rejects with AbortedError when aborted', () =>
      withRepo(BASE, async (repo) => {
        const controller = new AbortController();
        controller.abort();
        await assert.rejects(detect(request(repo.dir), controller.signal), AbortedError);
      }));
  });
}

/**
 * Runs detectStat so that folder modes bind it: root reads every folder whatever its mode,
 * so under root the walk runs in a child that keeps uid 0 without its read-all capabilities.
 */
function detectStatUnprivileged(req: DetectRequest, drop: { command: string; args: string[] }): Promise<DetectResult> {
  if (process.getuid?.() !== 0) return detectStat(req);
  const moduleUrl = new URL('../src/detect/index.js', import.meta.url).href;
  const script =
    `const { detectStat } = await import(${JSON.stringify(moduleUrl)});\n` +
    `process.stdout.write(JSON.stringify(await detectStat(${JSON.stringify(req)})));`;
  const out = execFileSync(drop.command, [...drop.args, process.execPath, '--input-type=module', '-e', script], { encoding: 'utf8' });
  return Promise.resolve(JSON.parse(out) as DetectResult);
}

describe('stat walk', () => {
  it('finds the same file set as git ls-files on a repository without ignored files', () =>
    withRepo(BASE, async (repo) => {
      for (let i = 0; i < 40; i++) repo.write(`gen/${i % 7}/${i % 3}/file-${i}.ts`, `export const v${i} = ${i};\n`);
      repo.write(Buffer.concat([Buffer.from('gen/'), Buffer.from([0xc3, 0x28]), Buffer.from(' bad utf8.txt')]), 'b');
      repo.commit('generated');
      repo.write('gen/untracked one.txt', 'u');
      repo.remove('src/deep/c.md');
      const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
        cwd: repo.dir,
        env: testGitEnv(),
      });
      const onDisk = parseLsFiles(listed).filter((p) => p !== 'src/deep/c.md').sort();
      const r = await detectStat(request(repo.dir));
      assert.equal(onDisk.length, 44);
      assert.deepEqual(present(r), onDisk);
      assert.deepEqual([r.backend, r.head, r.dirty, r.fallback, r.gitMs], ['stat', null, [], null, 0]);
    }));

  it('skips a folder it cannot read and records it, without failing', async (t) => {
    const drop = unprivilegedCommand();
    if ('skip' in drop) return t.skip(drop.skip);
    const temp = await makeTempDir();
    try {
      chmodSync(temp.dir, 0o755);
      const files = { 'ok.txt': 'ok', 'open/x.txt': 'x', 'closed/hidden.txt': 'h', 'closed/inner/deeper.txt': 'd' };
      for (const [rel, content] of Object.entries(files)) {
        mkdirSync(dirname(`${temp.dir}/${rel}`), { recursive: true });
        writeFileSync(`${temp.dir}/${rel}`, content);
      }
      chmodSync(`${temp.dir}/closed`, 0o000);
      const r = await detectStatUnprivileged(request(temp.dir), drop);
      assert.deepEqual(present(r), ['ok.txt', 'open/x.txt']);
      assert.deepEqual(r.unreadable, ['closed']);
    } finally {
      chmodSync(`${temp.dir}/closed`, 0o755);
      await temp.cleanup();
    }
  });
});

describe('detectChanges: the backend it picks and the requests it refuses', () => {
  it('auto uses git inside a work tree', () =>
    withRepo(BASE, async (repo) => {
      const r = await detectChanges(request(repo.dir, { backend: 'auto', inventory: false }));
      assert.equal(r.backend, 'git');
      assert.equal(r.fallback, null);
    }));

  it('git missing from PATH falls back to the stat walk', () =>
    withRepo(BASE, async (repo) => {
      const missing = '/nonexistent/bin/git';
      for (const backend of ['git', 'auto'] as const) {
        const r = await detectChanges(request(repo.dir, { backend, gitBinary: missing }));
        assert.equal(r.backend, 'stat', backend);
        assert.equal(r.fallback, 'git_missing', backend);
        assert.equal(r.inventory, true);
        assert.deepEqual(present(r), ['a.txt', 'src/b.ts', 'src/deep/c.md']);
      }
    }));

  it('a folder outside any work tree uses the stat walk; flagged only when git was asked for', async () => {
    const temp = await makeTempDir();
    try {
      mkdirSync(`${temp.dir}/src`);
      writeFileSync(`${temp.dir}/src/x.ts`, 'x');
      const auto = await detectChanges(request(temp.dir, { backend: 'auto' }));
      assert.deepEqual([auto.backend, auto.fallback, present(auto)], ['stat', null, ['src/x.ts']]);
      const git = await detectChanges(request(temp.dir, { backend: 'git' }));
      assert.deepEqual([git.backend, git.fallback], ['stat', 'not_a_work_tree']);
      const missing = await detectChanges(request(temp.dir, { backend: 'auto', gitBinary: '/nonexistent/git' }));
      assert.deepEqual([missing.backend, missing.fallback], ['stat', null]);
    } finally {
      await temp.cleanup();
    }
  });

  it('a request with a relative root, an unknown backend or a bad timeout is refused, naming the field', async () => {
    const refused = (over: Partial<DetectRequest>, field: string) =>
      assert.rejects(detectChanges(request('/tmp', over)), (err: Error) => {
        assert.equal(err.name, 'InvalidArgumentError');
        assert.match(err.message, new RegExp(`request\\.${field}`));
        return true;
      });
    await refused({ root: 'relative/root' }, 'root');
    await refused({ backend: 'svn' as DetectRequest['backend'] }, 'backend');
    await refused({ gitTimeoutMs: 0 }, 'gitTimeoutMs');
    await refused({ gitTimeoutMs: Number.NaN }, 'gitTimeoutMs');
  });
});
