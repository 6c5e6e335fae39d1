/**
 * Laws of the git detector, on real repositories in temp folders: what `git status`, the
 * since-ref diff and `git ls-files` must make it see, and what the noise policy, .gitignore,
 * symlinks and a sub-folder root must keep out.
 */
import assert from 'node:assert/strict';
import { chmodSync, renameSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { AbortedError, GitError } from '../src/errors.js';
import {
  detectGit,
  parseDiffNameStatus,
  parseLsFiles,
  parseStatusV2,
  type ChangedEntry,
  type DetectRequest,
  type DetectResult,
} from '../src/detect/index.js';
import { encodePath } from '../src/paths/path-bytes.js';
import { makeGitRepo, makeTempDir, type GitRepo } from './helpers/git-repo.js';

function request(root: string, over: Partial<DetectRequest> = {}): DetectRequest {
  return { root, backend: 'git', sinceRef: null, recheck: [], skip: [], ...over };
}

function byPath(result: DetectResult): Map<string, ChangedEntry> {
  return new Map(result.entries.map((e) => [e.path, e]));
}

function present(result: DetectResult): string[] {
  return result.entries.filter((e) => !e.deleted).map((e) => e.path).sort();
}

function deleted(result: DetectResult): string[] {
  return result.entries.filter((e) => e.deleted).map((e) => e.path).sort();
}

async function withRepo(files: Record<string, string> | undefined, fn: (repo: GitRepo) => Promise<void>): Promise<void> {
  const repo = await makeGitRepo(files);
  try {
    await fn(repo);
  } finally {
    await repo.cleanup();
  }
}

const BASE = { 'a.txt': 'alpha\n', 'b.txt': 'bravo\n', 'src/c.ts': 'export const c = 1;\n' };

describe('git detector', () => {
  it('a new untracked file is detected, and clean files are not', () =>
    withRepo(BASE, async (repo) => {
      const head = repo.git('rev-parse', 'HEAD');
      repo.write('src/new.ts', 'new file\n');
      const r = await detectGit(request(repo.dir, { sinceRef: head }));
      assert.equal(r.backend, 'git');
      assert.equal(r.head, head);
      assert.equal(r.inventory, false);
      assert.deepEqual(present(r), ['src/new.ts']);
      assert.equal(byPath(r).get('src/new.ts')!.size, 9);
      assert.deepEqual(r.dirty, ['src/new.ts']);
    }));

  it('a file under a noise folder is not detected, even when git does not ignore it', () =>
    withRepo(BASE, async (repo) => {
      const head = repo.git('rev-parse', 'HEAD');
      repo.write('node_modules/x.js', 'x');
      repo.write('src/deep/node_modules/y.js', 'y');
      repo.write('rust/target/debug/z.rs', 'z');
      repo.write('.brain/brain.db', 'db');
      repo.write('target', 'a file called target is still a file');
      const r = await detectGit(request(repo.dir, { sinceRef: head, skip: ['.brain/'] }));
      assert.deepEqual(present(r), ['target']);
      assert.deepEqual(r.dirty, ['target']);
      const inv = await detectGit(request(repo.dir, { inventory: true, skip: ['.brain'] }));
      assert.deepEqual(present(inv), ['a.txt', 'b.txt', 'src/c.ts', 'target']);
    }));

  it('a .gitignored file is not detected', () =>
    withRepo({ ...BASE, '.gitignore': '*.log\nbuild/\n' }, async (repo) => {
      const head = repo.git('rev-parse', 'HEAD');
      repo.write('debug.log', 'noise');
      repo.write('build/out.js', 'noise');
      repo.write('kept.ts', 'signal');
      const r = await detectGit(request(repo.dir, { sinceRef: head }));
      assert.deepEqual(present(r), ['kept.ts']);
      const inv = await detectGit(request(repo.dir, { sinceRef: head, inventory: true }));
      assert.deepEqual(present(inv), ['.gitignore', 'a.txt', 'b.txt', 'kept.ts', 'src/c.ts']);
    }));

  it('a modification is detected with the size and mtime on disk', () =>
    withRepo(BASE, async (repo) => {
      const head = repo.git('rev-parse', 'HEAD');
      repo.write('a.txt', 'alpha, longer now\n');
      utimesSync(`${repo.dir}/a.txt`, 1_700_000_000, 1_700_000_000.5);
      const r = await detectGit(request(repo.dir, { sinceRef: head }));
      const st = statSync(`${repo.dir}/a.txt`);
      assert.deepEqual(byPath(r).get('a.txt'), { path: 'a.txt', size: 18, mtimeMs: st.mtimeMs, deleted: false });
      assert.equal(st.mtimeMs, 1_700_000_000_500);
      assert.deepEqual(r.entries.length, 1);
    }));

  it('a deletion is detected, staged or not', () =>
    withRepo(BASE, async (repo) => {
      const head = repo.git('rev-parse', 'HEAD');
      repo.remove('a.txt');
      repo.git('rm', '-q', 'b.txt');
      const r = await detectGit(request(repo.dir, { sinceRef: head }));
      assert.deepEqual(deleted(r), ['a.txt', 'b.txt']);
      assert.deepEqual(byPath(r).get('a.txt'), { path: 'a.txt', size: 0, mtimeMs: 0, deleted: true });
      assert.deepEqual(r.dirty, ['a.txt', 'b.txt']);
    }));

  it('a rename yields the old path deleted and the new one present, staged or not', () =>
    withRepo(BASE, async (repo) => {
      const head = repo.git('rev-parse', 'HEAD');
      repo.git('mv', 'a.txt', 'a2.txt');
      renameSync(`${repo.dir}/b.txt`, `${repo.dir}/b2.txt`);
      const r = await detectGit(request(repo.dir, { sinceRef: head }));
      assert.deepEqual(deleted(r), ['a.txt', 'b.txt']);
      assert.deepEqual(present(r), ['a2.txt', 'b2.txt']);
    }));

  it('commits since sinceRef are detected on a clean work tree', () =>
    withRepo(BASE, async (repo) => {
      const since = repo.git('rev-parse', 'HEAD');
      repo.write('a.txt', 'changed\n');
      repo.remove('b.txt');
      repo.git('add', '-A');
      repo.git('mv', 'src/c.ts', 'src/c2.ts');
      repo.write('d.txt', 'new\n');
      const head = repo.commit('second');
      assert.equal(repo.git('status', '--porcelain'), '');
      const r = await detectGit(request(repo.dir, { sinceRef: since }));
      assert.equal(r.head, head);
      assert.equal(r.inventory, false);
      assert.deepEqual(present(r), ['a.txt', 'd.txt', 'src/c2.ts']);
      assert.deepEqual(deleted(r), ['b.txt', 'src/c.ts']);
      assert.deepEqual(r.dirty, []);
      const same = await detectGit(request(repo.dir, { sinceRef: head }));
      assert.deepEqual(same.entries, []);
    }));

  it('a checkout of another branch is detected', () =>
    withRepo(BASE, async (repo) => {
      const main = repo.git('rev-parse', 'HEAD');
      repo.git('checkout', '-q', '-b', 'feature');
      repo.write('f.txt', 'feature\n');
      repo.write('a.txt', 'alpha on feature\n');
      const feature = repo.commit('feature work');
      repo.git('checkout', '-q', 'main');
      const back = await detectGit(request(repo.dir, { sinceRef: feature }));
      assert.equal(back.head, main);
      assert.deepEqual(present(back), ['a.txt']);
      assert.deepEqual(deleted(back), ['f.txt']);
      repo.git('checkout', '-q', 'feature');
      const forth = await detectGit(request(repo.dir, { sinceRef: main }));
      assert.equal(forth.head, feature);
      assert.deepEqual(present(forth), ['a.txt', 'f.txt']);
    }));

  it('a sinceRef that no longer exists falls back to an inventory', () =>
    withRepo(BASE, async (repo) => {
      repo.write('lost.txt', 'soon unreachable\n');
      const lost = repo.commit('to be lost');
      repo.git('reset', '-q', '--hard', 'HEAD~1');
      repo.git('reflog', 'expire', '--expire=now', '--all');
      repo.git('gc', '-q', '--prune=now');
      assert.throws(() => repo.git('cat-file', '-e', `${lost}^{commit}`));
      repo.write('untracked.txt', 'u\n');
      const r = await detectGit(request(repo.dir, { sinceRef: lost }));
      assert.equal(r.fallback, 'since_ref_missing');
      assert.equal(r.inventory, true);
      assert.deepEqual(present(r), ['a.txt', 'b.txt', 'src/c.ts', 'untracked.txt']);
      const garbage = await detectGit(request(repo.dir, { sinceRef: '--output=/tmp/x' }));
      assert.equal(garbage.fallback, 'since_ref_missing');
    }));

  it('an empty repository works, with head null', () =>
    withRepo(undefined, async (repo) => {
      const empty = await detectGit(request(repo.dir));
      assert.equal(empty.head, null);
      assert.equal(empty.inventory, true);
      assert.deepEqual(empty.entries, []);
      repo.write('first.txt', 'one\n');
      repo.write('staged.txt', 'two\n');
      repo.git('add', 'staged.txt');
      const r = await detectGit(request(repo.dir));
      assert.equal(r.head, null);
      assert.deepEqual(present(r), ['first.txt', 'staged.txt']);
      assert.deepEqual(r.dirty, ['first.txt', 'staged.txt']);
    }));

  it('a detached HEAD works', () =>
    withRepo(BASE, async (repo) => {
      const first = repo.git('rev-parse', 'HEAD');
      repo.write('later.txt', 'later\n');
      const second = repo.commit('second');
      repo.git('checkout', '-q', '--detach', first);
      const r = await detectGit(request(repo.dir, { sinceRef: second }));
      assert.equal(r.head, first);
      assert.deepEqual(deleted(r), ['later.txt']);
    }));

  it('paths with spaces, newlines and non-UTF-8 bytes come back exact and stat correctly', () =>
    withRepo(BASE, async (repo) => {
      const since = repo.git('rev-parse', 'HEAD');
      const names: Buffer[] = [
        Buffer.from('with space.txt'),
        Buffer.from('new\nline.txt'),
        Buffer.from([0x6c, 0x61, 0x74, 0x69, 0x6e, 0xe9, 0x2e, 0x74, 0x78, 0x74]),
        Buffer.concat([Buffer.from('dir '), Buffer.from([0xff, 0xfe]), Buffer.from('/inner "q".txt')]),
      ];
      names.forEach((name, i) => repo.write(name, 'x'.repeat(i + 1)));
      const check = (r: DetectResult, label: string): void => {
        names.forEach((name, i) => {
          const e = r.entries.find((x) => encodePath(x.path).equals(name));
          assert.ok(e, `${label}: ${JSON.stringify(name.toString('latin1'))} missing`);
          assert.equal(e.size, i + 1, label);
          assert.equal(e.deleted, false, label);
        });
      };
      check(await detectGit(request(repo.dir, { sinceRef: since })), 'untracked');
      const head = repo.commit('odd names');
      check(await detectGit(request(repo.dir, { sinceRef: since })), 'since-ref diff');
      check(await detectGit(request(repo.dir, { sinceRef: head, inventory: true })), 'inventory');
      names.forEach((name, i) => repo.write(name, 'y'.repeat(i + 2)));
      const modified = await detectGit(request(repo.dir, { sinceRef: head }));
      assert.equal(modified.entries.length, names.length);
      assert.deepEqual(modified.entries.map((e) => e.size).sort(), [2, 3, 4, 5]);
    }));

  it('a symlink, even one pointing outside the root, is never followed', async () => {
    const outside = await makeTempDir();
    try {
      writeFileSync(`${outside.dir}/secret.txt`, 'secret');
      await withRepo(BASE, async (repo) => {
        const since = repo.git('rev-parse', 'HEAD');
        symlinkSync(outside.dir, `${repo.dir}/linkdir`);
        symlinkSync(`${outside.dir}/secret.txt`, `${repo.dir}/leak.txt`);
        const untracked = await detectGit(request(repo.dir, { sinceRef: since, recheck: ['linkdir/secret.txt'] }));
        assert.deepEqual(present(untracked), []);
        const head = repo.commit('symlinks');
        const r = await detectGit(request(repo.dir, { sinceRef: since, recheck: ['linkdir/secret.txt'] }));
        assert.deepEqual(present(r), []);
        const inv = await detectGit(request(repo.dir, { sinceRef: head, inventory: true }));
        assert.deepEqual(present(inv), ['a.txt', 'b.txt', 'src/c.ts']);
        // A folder swapped for a symlink after it was mapped: its old paths read as deleted.
        repo.remove('src');
        symlinkSync(outside.dir, `${repo.dir}/src`);
        writeFileSync(`${outside.dir}/c.ts`, 'not ours');
        const swapped = await detectGit(request(repo.dir, { sinceRef: head, recheck: ['src/c.ts'] }));
        assert.equal(byPath(swapped).get('src/c.ts')?.deleted, true);
      });
    } finally {
      await outside.cleanup();
    }
  });

  it('an ingest root inside a work tree yields paths relative to it and nothing outside it', () =>
    withRepo({ 'top.txt': 't\n', 'sub/a.txt': 'a\n', 'sub/deep/b.txt': 'b\n', 'other/c.txt': 'c\n' }, async (repo) => {
      const since = repo.git('rev-parse', 'HEAD');
      const root = `${repo.dir}/sub`;
      repo.write('other/c.txt', 'c changed\n');
      repo.write('sub/deep/b.txt', 'b changed\n');
      const head = repo.commit('both sides');
      repo.write('top.txt', 't changed\n');
      repo.write('sub/a.txt', 'a changed\n');
      repo.write('sub/new.txt', 'n\n');
      repo.write('other/new.txt', 'n\n');
      repo.git('mv', 'other/c.txt', 'sub/moved-in.txt');
      const r = await detectGit(request(root, { sinceRef: since }));
      assert.equal(r.head, head);
      assert.deepEqual(present(r), ['a.txt', 'deep/b.txt', 'moved-in.txt', 'new.txt']);
      assert.deepEqual(deleted(r), []);
      assert.deepEqual(r.dirty, ['a.txt', 'moved-in.txt', 'new.txt']);
      const inv = await detectGit(request(root, { sinceRef: head, inventory: true }));
      assert.deepEqual(present(inv), ['a.txt', 'deep/b.txt', 'moved-in.txt', 'new.txt']);
    }));

  it('recheck paths are re-stated, and noise among them is still dropped', () =>
    withRepo(BASE, async (repo) => {
      const head = repo.git('rev-parse', 'HEAD');
      const r = await detectGit(
        request(repo.dir, { sinceRef: head, recheck: ['a.txt', 'gone.txt', 'node_modules/z.js', '../escape.txt'] }),
      );
      assert.deepEqual(present(r), ['a.txt']);
      assert.deepEqual(deleted(r), ['gone.txt']);
      assert.equal(byPath(r).get('a.txt')!.size, 6);
    }));

  it('an aborted signal rejects with AbortedError', () =>
    withRepo(BASE, async (repo) => {
      const controller = new AbortController();
      controller.abort();
      await assert.rejects(detectGit(request(repo.dir), controller.signal), AbortedError);
    }));

  it('a git that hangs is killed at gitTimeoutMs', async () => {
    const temp = await makeTempDir();
    try {
      const fakeGit = `${temp.dir}/git`;
      writeFileSync(fakeGit, '#!/bin/sh\nexec sleep 30\n');
      chmodSync(fakeGit, 0o755);
      const started = performance.now();
      await assert.rejects(detectGit(request(temp.dir, { gitBinary: fakeGit, gitTimeoutMs: 200 })), GitError);
      assert.ok(performance.now() - started < 5_000);
    } finally {
      await temp.cleanup();
    }
  });
});

describe('git output parsers', () => {
  const z = (...records: (string | Buffer)[]): Buffer =>
    Buffer.concat(records.flatMap((r) => [Buffer.isBuffer(r) ? r : Buffer.from(r, 'utf8'), Buffer.from([0])]));
  const H = '0123456789abcdef0123456789abcdef01234567';

  it('status v2: ordinary, rename, unmerged, untracked and ignored records', () => {
    const out = z(
      '# branch.oid ' + H,
      `1 .M N... 100644 100644 100644 ${H} ${H} dir/with space.txt`,
      `1 D. N... 100644 000000 000000 ${H} ${H} gone.txt`,
      `1 .D N... 100644 100644 000000 ${H} ${H} gone too.txt`,
      `2 R. N... 100644 100644 100644 ${H} ${H} R100 new name.txt`,
      'old name.txt',
      `u UU N... 100644 100644 100644 100644 ${H} ${H} ${H} conflict.txt`,
      Buffer.concat([Buffer.from('? new\nline'), Buffer.from([0xff])]),
      '! ignored.log',
    );
    const parsed = parseStatusV2(out);
    assert.deepEqual(parsed.changed, ['dir/with space.txt', 'new name.txt', 'conflict.txt', 'new\nline\u{10ffff}']);
    assert.deepEqual(parsed.renamedFrom, ['old name.txt']);
    assert.deepEqual(parsed.deleted, ['gone.txt', 'gone too.txt']);
  });

  it('status v2 as real git prints a staged rename', () =>
    withRepo(BASE, async (repo) => {
      repo.git('mv', 'a.txt', 'renamed a.txt');
      const out = Buffer.from(repo.git('status', '--porcelain=v2', '-z', '--untracked-files=all'), 'utf8');
      assert.deepEqual(parseStatusV2(out), { changed: ['renamed a.txt'], renamedFrom: ['a.txt'], deleted: [] });
    }));

  it('diff --name-status: one path per record, two for renames and copies', () => {
    const out = z('M', 'm.txt', 'A', 'a b.txt', 'D', 'd.txt', 'R087', 'from.txt', 'to.txt', 'C100', 'src.txt', 'copy.txt', 'T', 't');
    assert.deepEqual(parseDiffNameStatus(out), {
      changed: ['m.txt', 'a b.txt', 'to.txt', 'copy.txt', 't'],
      renamedFrom: ['from.txt', 'src.txt'],
      deleted: ['d.txt'],
    });
  });

  it('ls-files: one path per record, each once', () => {
    assert.deepEqual(parseLsFiles(z('a.txt', 'x\ny', 'a.txt')), ['a.txt', 'x\ny']);
    assert.deepEqual(parseLsFiles(Buffer.alloc(0)), []);
  });
});
