/**
 * The native watcher keeps noise folders (node_modules, .venv… at any depth) out with one
 * brace glob, not a glob per name: @parcel/watcher matches every path of its first crawl
 * against each glob, which at 100 000 files cost 10-15 s per subscribe for twenty globs
 * against 1.4 s for one (issue 20, bench --large-repo). The one glob must still keep every
 * noise folder at every depth unwatched: checked on Linux by the inotify watches this process
 * holds (their inode numbers, /proc/self/fdinfo) against the folders' own inodes.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { platform } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadNativeBackend, nativeIgnores } from '../src/watch/index.js';
import { SKIP_DIR_NAMES } from '../src/detect/index.js';
import { makeTempDir } from './helpers/git-repo.js';

const isGlob = (pattern: string) => /[*?{]/.test(pattern);

/** Inode numbers this process watches with inotify. */
function watchedInodes(): Set<number> {
  const out = new Set<number>();
  for (const fd of readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue;
    }
    if (target !== 'anon_inode:inotify') continue;
    for (const line of readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8').split('\n')) {
      const m = /^inotify wd:\S+ ino:([0-9a-f]+)/.exec(line);
      if (m) out.add(parseInt(m[1]!, 16));
    }
  }
  return out;
}

test('the noise folders are one glob', () => {
  const globs = nativeIgnores().filter(isGlob);
  assert.equal(globs.length, 1, `one glob, got ${globs.length}: ${globs.join(' ')}`);
  for (const name of SKIP_DIR_NAMES) if (name !== '.git') assert.ok(globs[0]!.includes(name), `${name} is in it`);
});

test('with the one glob, no noise folder at any depth holds an inotify watch, and source folders do', { skip: platform() !== 'linux' && 'inotify is Linux' }, async () => {
  const backend = await loadNativeBackend({});
  if (backend instanceof Error) return assert.fail(`the native watcher did not load: ${backend.message}`);
  const temp = await makeTempDir();
  try {
    const source = ['src', 'src/deep', 'pkg', 'pkg/lib'];
    const noise = ['node_modules', 'node_modules/dep', 'pkg/node_modules', 'pkg/node_modules/dep/lib', 'pkg/lib/.venv/bin', 'src/deep/__pycache__', 'pkg/target/debug'];
    for (const dir of [...source, ...noise]) {
      mkdirSync(join(temp.dir, dir), { recursive: true });
      writeFileSync(join(temp.dir, dir, 'f.txt'), 'x\n');
    }
    const before = watchedInodes();
    const sub = await backend.subscribe(temp.dir, () => {});
    try {
      const watched = [...watchedInodes()].filter((ino) => !before.has(ino));
      const inode = (dir: string) => statSync(join(temp.dir, dir)).ino;
      for (const dir of source) assert.ok(watched.includes(inode(dir)), `${dir} is watched`);
      const watchedNoise = noise.filter((dir) => watched.includes(inode(dir)));
      assert.deepEqual(watchedNoise, [], 'no noise folder is watched');
    } finally {
      await sub.unsubscribe();
    }
  } finally {
    await temp.cleanup();
  }
});
