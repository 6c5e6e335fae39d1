/**
 * An owner under a service manager runs for weeks, and an install of another Gardener replaces
 * the files it started from; every thread it starts afterwards would load the new code beside
 * its old main thread. Once its package.json names another version, and still does at the next
 * look (an install writes the rest after it), the owner stops and exits 75, which the service
 * units restart: the new version serves.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from './helpers/git-repo.js';
import { ManualClock } from './helpers/manual-clock.js';
import { ownerEnv, runCli } from './helpers/owner.js';
import { EXIT_UPGRADED, watchForUpgrade } from '../src/owner/upgrade-watch.js';

test('a version on disk other than the running one stops the owner once it has settled, never while it reads the same', async () => {
  const temp = await makeTempDir();
  const file = join(temp.dir, 'package.json');
  const write = (version: string, mtime: number) => {
    writeFileSync(file, JSON.stringify({ name: 'gardener', version }));
    utimesSync(file, mtime, mtime);
  };
  const clock = new ManualClock();
  const seen: string[] = [];
  write('1.0.0', 1000);
  const stop = watchForUpgrade({ file, running: '1.0.0', everyMs: 100, timers: clock, onUpgrade: (v) => seen.push(v) });
  try {
    clock.advance(1000);
    assert.deepEqual(seen, [], 'the running version: nothing');
    writeFileSync(file, '{"name":"gardener","ver');
    clock.advance(100);
    assert.deepEqual(seen, [], 'a package.json being written is not read as anything');
    write('1.1.0', 2000);
    clock.advance(100);
    assert.deepEqual(seen, [], 'seen once: the install may still be writing');
    write('1.1.0', 3000);
    clock.advance(100);
    assert.deepEqual(seen, [], 'the file changed again: not settled');
    clock.advance(100);
    assert.deepEqual(seen, ['1.1.0'], 'the same file at two looks: the owner stops');
    assert.equal(clock.pending, 0, 'and looks no more');
  } finally {
    stop();
    await temp.cleanup();
  }
});

test('a real owner whose package.json is replaced by another version says so in its status, then stops and exits 75, its files removed', { timeout: 60_000 }, async () => {
  // A copy of the built package, as an install lays it out: the owner runs from it.
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const pkg = await makeTempDir('gardener-pkg-');
  const home = await makeTempDir('gardener-home-');
  for (const dir of ['dist/src', 'dist/workers']) cpSync(join(root, dir), join(pkg.dir, dir), { recursive: true });
  cpSync(join(root, 'package.json'), join(pkg.dir, 'package.json'));
  symlinkSync(join(root, 'node_modules'), join(pkg.dir, 'node_modules'));
  const running = (JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8')) as { version: string }).version;
  mkdirSync(home.dir, { recursive: true });
  const env = ownerEnv(home.dir, { GARDENER_UPGRADE_CHECK_MS: '5000' });
  const proc = spawn(process.execPath, [join(pkg.dir, 'dist/src/cli/main.js'), 'serve', '--port', '0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const ready = new Promise<void>((resolve) => proc.stderr!.on('data', (d: Buffer) => {
    stderr += d;
    if (stderr.includes('"msg":"ready"')) resolve();
  }));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  try {
    await ready;
    const manifest = JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(pkg.dir, 'package.json'), JSON.stringify({ ...manifest, version: `${running}-next` }));
    // Until it stops (two looks, 5 s apart), the installed CLI says what runs and what is installed.
    const status = await runCli(['serve', '--status'], env, join(pkg.dir, 'dist/src/cli/main.js'));
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, new RegExp(`Gardener ${running.replace(/\./g, '\\.')},[\\s\\S]*installed: Gardener ${running.replace(/\./g, '\\.')}-next; the owner stops for it`));
    assert.equal(await exited, EXIT_UPGRADED, stderr);
    const warned = stderr.split('\n').filter((l) => l.includes('was installed over'));
    assert.equal(warned.length, 1, stderr);
    assert.match(warned[0]!, new RegExp(`Gardener ${running.replace(/\./g, '\\.')}-next was installed over this owner's ${running.replace(/\./g, '\\.')}`));
    assert.match(stderr, /"msg":"stopped","reason":"installed over"/);
    assert.equal(existsSync(join(home.dir, 'run', 'owner.json')), false, 'owner.json removed as on SIGTERM');
  } finally {
    proc.kill('SIGKILL');
    await pkg.cleanup();
    await home.cleanup();
  }
});
