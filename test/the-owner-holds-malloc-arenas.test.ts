/**
 * The owner holds glibc's malloc to two arenas (src/service/malloc-arenas.ts): on Linux with
 * `process.execve` (Node 22.15+, 23.11+), `gardener serve` starts again once, in the same
 * process, with GLIBC_TUNABLES set; never when the variable is already set (the service unit,
 * the user, or that start: no loop; empty turns it off), off Linux, on Bun, or without execve;
 * and an execve that fails leaves the owner running as it was, saying why.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { OWNER_GLIBC_TUNABLES, holdMallocArenas, ownerRestart, type RestartHost } from '../src/service/malloc-arenas.js';
import { createLogger } from '../src/log.js';
import { makeTempDir } from './helpers/git-repo.js';
import { startServe } from './helpers/owner.js';

const execve = () => undefined;
const linux = (over: Partial<RestartHost> = {}): RestartHost => ({
  platform: 'linux',
  onBun: false,
  env: { PATH: '/usr/bin', GARDENER_HOME: '/h' },
  execPath: '/opt/node/bin/node',
  execArgv: ['--max-old-space-size=512'],
  argv: ['/opt/node/bin/node', '/g/dist/src/cli/main.js', 'serve', '--port', '0'],
  execve,
  ...over,
});

test('serve starts again with the tunables only when nothing set them and execve exists on Linux', () => {
  assert.deepEqual(ownerRestart(linux()), {
    file: '/opt/node/bin/node',
    args: ['/opt/node/bin/node', '--max-old-space-size=512', '/g/dist/src/cli/main.js', 'serve', '--port', '0'],
    env: { PATH: '/usr/bin', GARDENER_HOME: '/h', GLIBC_TUNABLES: OWNER_GLIBC_TUNABLES },
  });
  assert.equal(ownerRestart(linux({ env: { GLIBC_TUNABLES: OWNER_GLIBC_TUNABLES } })), null, 'the second start does not start again');
  assert.equal(ownerRestart(linux({ env: { GLIBC_TUNABLES: 'glibc.malloc.arena_max=4' } })), null, "the user's own setting is kept");
  assert.equal(ownerRestart(linux({ env: { GLIBC_TUNABLES: '' } })), null, 'empty turns it off');
  assert.equal(ownerRestart(linux({ platform: 'darwin' })), null);
  assert.equal(ownerRestart(linux({ onBun: true })), null);
  assert.equal(ownerRestart(linux({ execve: undefined })), null);
});

test('an execve that fails leaves the process going, with a warning that says why', () => {
  const lines: string[] = [];
  const failing = linux({
    execve: () => {
      throw Object.assign(new Error('execve failed'), { code: 'EACCES' });
    },
  });
  holdMallocArenas(createLogger('warn', (l) => lines.push(l)), failing);
  assert.equal(lines.length, 1);
  const entry = JSON.parse(lines[0]!);
  assert.equal(entry.level, 'warn');
  assert.equal(entry.code, 'EACCES');
  assert.match(entry.msg, /two arenas/);
});

const canExecve = process.platform === 'linux' && typeof (process as { execve?: unknown }).execve === 'function' && !('bun' in process.versions);

const environOf = (pid: number): Record<string, string> =>
  Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );

test('a real serve runs with two arenas, in the process that was started', { skip: canExecve ? false : 'needs Linux and process.execve (Node 22.15+)' }, async () => {
  const home = await makeTempDir('gardener-home-');
  const owner = await startServe(home.dir, [], { GLIBC_TUNABLES: undefined });
  try {
    assert.equal(owner.ready.pid, owner.pid, 'the same process, started again in place');
    // glibc edits the variable where the process started with it (on 2.36 what /proc shows
    // ends at the first ':'), while the process reads it whole: a prefix of ours is ours.
    const seen = environOf(owner.pid).GLIBC_TUNABLES ?? '';
    assert.ok(seen.length > 0 && OWNER_GLIBC_TUNABLES.startsWith(seen), `GLIBC_TUNABLES ${JSON.stringify(seen)}`);
  } finally {
    await owner.stop();
  }
  const off = await startServe(home.dir, [], { GLIBC_TUNABLES: '' });
  try {
    assert.equal(environOf(off.pid).GLIBC_TUNABLES, '', 'set (even empty): not started again');
  } finally {
    await off.stop();
    await home.cleanup();
  }
});

/**
 * What a process under the given GLIBC_TUNABLES does with `count` blocks of `blockKiB` (16 MB in
 * all by default) after it freed one large block: how much glibc's main arena ([heap]) grew, in
 * KiB. glibc's mmap threshold otherwise slides up to the largest mmapped block freed (a
 * structuredClone of 4 MB frees its serialized copy at once), and blocks below it then come from
 * an arena, which keeps them when they are freed; an owner that lives for weeks frees such blocks
 * all day.
 *
 * About one start in 300, address randomisation puts a mapping (V8's code space) right where
 * [heap] ends; brk cannot grow it, and glibc moves the main arena into mmapped memory, where
 * [heap] does not see it (measured: 1 of 400 probes grew 0 KiB, its [heap] ending where an
 * rwx mapping began). The probe says when its [heap] had no room, and is started again.
 */
function mainArenaGrowthKiB(tunables: string, blockKiB = 512, count = 32): number {
  const probe = `
    import { readFileSync } from 'node:fs';
    const heap = () => {
      const lines = readFileSync('/proc/self/maps', 'utf8').split('\\n');
      const i = lines.findIndex((l) => l.endsWith('[heap]'));
      if (i < 0) return { kib: 0, blocked: true };
      const end = lines[i].slice(lines[i].indexOf('-') + 1, lines[i].indexOf(' '));
      const next = lines[i + 1] ?? '';
      const smaps = readFileSync('/proc/self/smaps', 'utf8');
      const kib = Number(/Rss:\\s+(\\d+)/.exec(smaps.slice(smaps.indexOf('[heap]')))[1]);
      return { kib, blocked: next.startsWith(end + '-') };
    };
    structuredClone('x'.repeat(4 << 20));
    const before = heap();
    const kept = [];
    for (let i = 0; i < ${count}; i++) kept.push(Buffer.allocUnsafeSlow(${blockKiB} << 10).fill(1));
    const after = heap();
    process.stdout.write(JSON.stringify({ growth: after.kib - before.kib, blocked: after.blocked }));`;
  for (let start = 1; ; start++) {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8', env: { ...process.env, GLIBC_TUNABLES: tunables } });
    assert.equal(r.status, 0, r.stderr);
    const seen = JSON.parse(r.stdout) as { growth: number; blocked: boolean };
    if (!seen.blocked) return seen.growth;
    assert.ok(start < 5, `[heap] had no room to grow in ${start} starts`);
  }
}

const onGlibc = process.platform === 'linux' && !('bun' in process.versions) && Boolean((process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header?.glibcVersionRuntime);

test("the owner's malloc gives blocks above 128 KiB back to the system, even after it freed a large one", { skip: onGlibc ? false : 'needs glibc (Linux) and Node' }, () => {
  assert.ok(mainArenaGrowthKiB('glibc.malloc.arena_max=2') >= 8 << 10, 'the probe sees the sliding threshold (16 MB into the arena) without a fixed one');
  assert.ok(mainArenaGrowthKiB(OWNER_GLIBC_TUNABLES) < 1 << 10, `under ${OWNER_GLIBC_TUNABLES} the blocks are mmapped, not kept in the arena`);
});

test("the owner's malloc gives blocks of 32 KiB and up back to the system: a pipe's 64 KiB reads leave no step in an arena", { skip: onGlibc ? false : 'needs glibc (Linux) and Node' }, () => {
  // 256 blocks of 48 KiB, 12 MB: below glibc's starting threshold (128 KiB), so from an arena,
  // where what is freed stays for the next block and a burst's peak stays in the RSS.
  assert.ok(mainArenaGrowthKiB('glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=131072', 48, 256) >= 8 << 10, 'the probe sees 48 KiB blocks kept in the arena at a 128 KiB threshold');
  assert.ok(mainArenaGrowthKiB(OWNER_GLIBC_TUNABLES, 48, 256) < 1 << 10, `under ${OWNER_GLIBC_TUNABLES} 48 KiB blocks are mmapped, not kept in the arena`);
});
