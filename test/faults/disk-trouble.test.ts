/**
 * Disk trouble: the brain folder on a full disk, then on a read-only one. The brain's home
 * lives on a small tmpfs (mounted here as root; where the machine refuses, the test says so
 * and is skipped). A tick that cannot write fails with a clear error (and an alert when the
 * store can still take one), the backlog and the map stay consistent (every file of the
 * burst is either mapped with its new content or still queued), and work resumes once the
 * space (or write access) returns.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { rmSync, statSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeGitRepo, makeTempDir } from '../helpers/git-repo.js';
import { sourceFiles } from '../helpers/brains.js';
import { Brains } from '../../src/brain/index.js';
import { runTick } from '../../src/vigil/index.js';
import { listAlerts, openStore, type Database } from '../../src/store/index.js';
import { recordFigures } from './fault-config.js';

const VIGIL_CHILD = fileURLToPath(new URL('./vigil-child.js', import.meta.url));
/** The tmpfs the brain lives on, in KiB: room for the store, and for the filler to fill it. */
const TMPFS_KIB = 8192;
/**
 * Space left free beside the filler, in bytes: too little for the push of the changed set,
 * then enough for the push but not for the drain (the disk fills between commits).
 */
const LEFT_FREE_BYTES = [32 * 1024, 512 * 1024];
const BURST_FILES = 200;

function burstFile(i: number): string {
  // Distinct words, so the full-text index grows with every file.
  const words = Array.from({ length: 400 }, (_, w) => `word_${i}_${w}`).join(' ');
  return `export function burst_${i}(): string {\n  return '${words}';\n}\n`;
}

async function runVigilChild(home: string, dir: string) {
  const child = spawn(process.execPath, [VIGIL_CHILD, home, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const [code] = await once(child, 'exit');
  assert.equal(code, 0, `the vigil child ends by itself, fail-open: ${stderr}`);
  return JSON.parse(stdout) as { ok: boolean; alertId?: number | null; error?: { code: string; message: string }; report?: { backlogLeft: number; drained: number } };
}

function one<T>(db: Database, sql: string): T {
  return Object.values(db.prepare(sql).get<Record<string, T>>()!)[0]!;
}

/** The map and the backlog, as rows, to compare before and after a failed tick. */
function snapshot(file: string): string {
  const db = openStore(file, { readonly: true });
  try {
    return JSON.stringify([db.prepare('SELECT root_id, path, size, mtime_ms, hash FROM files ORDER BY id').all(), db.prepare('SELECT root_id, path FROM backlog ORDER BY id').all()]);
  } finally {
    db.close();
  }
}

/**
 * Every burst file is mapped with its new content or still queued (never lost, never
 * doubled), unless the push itself failed: then map and backlog are exactly as they were
 * (`before`), and git still names the files to the next tick.
 */
function assertConsistent(file: string, repoDir: string, what: string, before?: string): { mapped: number; queued: number; untouched: boolean } {
  const untouched = before !== undefined && snapshot(file) === before;
  const db = openStore(file, { readonly: true });
  try {
    assert.equal(one<string>(db, 'PRAGMA integrity_check'), 'ok', `${what}: integrity_check`);
    // Mapped with its new content: the row's size is the file's size now (each run's content has its own length).
    const mapped = new Set(
      db.prepare("SELECT path, size FROM files WHERE path LIKE 'burst/%'").all<{ path: string; size: number }>()
        .filter((r) => statSync(join(repoDir, r.path)).size === r.size)
        .map((r) => r.path),
    );
    const queued = new Set(db.prepare("SELECT path FROM backlog WHERE path LIKE 'burst/%'").all<{ path: string }>().map((r) => r.path));
    for (let i = 0; i < BURST_FILES && !untouched; i++) {
      const p = `burst/b${i}.ts`;
      assert.ok(mapped.has(p) || queued.has(p), `${what}: ${p} is mapped or queued`);
    }
    assert.equal(one<number>(db, 'SELECT count(*) FROM fts'), one<number>(db, 'SELECT count(*) FROM files WHERE indexed = 1'), `${what}: one index row per file`);
    return { mapped: mapped.size, queued: queued.size, untouched };
  } finally {
    db.close();
  }
}

test('a full disk, then a read-only one: a clear error, nothing lost, work resumes when space returns', { timeout: 300_000 }, async (t) => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return t.skip('needs root on Linux to mount a small tmpfs for the brain');
  const mnt = await makeTempDir('gardener-tmpfs-');
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_KIB}k,mode=0700`, 'gardener-faults', mnt.dir], { encoding: 'utf8' });
  if (mounted.status !== 0) {
    await mnt.cleanup();
    return t.skip(`mount -t tmpfs is not allowed here: ${(mounted.stderr || mounted.error?.message || '').trim()}`);
  }
  const repo = await makeGitRepo(sourceFiles(3));
  const home = join(mnt.dir, 'home');
  const filler = join(mnt.dir, 'filler');
  try {
    const brains = new Brains({ home, maxThreads: 1 });
    const { brain } = await brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    await brains.close();
    const fullRuns = [];
    const messages: string[] = [];
    for (const [run, leftFree] of LEFT_FREE_BYTES.entries()) {
      for (let i = 0; i < BURST_FILES; i++) repo.write(`burst/b${i}.ts`, burstFile(i) + `// run ${'x'.repeat(run + 1)}\n`);
      // Full: a filler takes all but a little of the tmpfs.
      const before = snapshot(brain.file);
      const fs = statfsSync(mnt.dir);
      writeFileSync(filler, Buffer.alloc(Math.max(0, fs.bavail * fs.bsize - leftFree)));
      const full = await runVigilChild(home, repo.dir);
      assert.equal(full.ok, false, `the tick on a full disk fails (${leftFree} bytes free)`);
      assert.match(full.error!.message, /full|ENOSPC|no space/i, `a clear error: ${full.error!.message}`);
      messages.push(full.error!.message);
      const atFull = assertConsistent(brain.file, repo.dir, `on a full disk (${leftFree} bytes free)`, before);
      assert.ok(atFull.untouched || atFull.mapped < BURST_FILES, `the disk filled before the burst was drained: ${JSON.stringify({ leftFree, atFull, full })}`);

      // Space returns: the next tick drains everything.
      rmSync(filler);
      const resumed = await runVigilChild(home, repo.dir);
      assert.equal(resumed.ok, true, JSON.stringify(resumed.error));
      assert.equal(resumed.report!.backlogLeft, 0);
      assert.deepEqual(assertConsistent(brain.file, repo.dir, 'after space returned'), { mapped: BURST_FILES, queued: 0, untouched: false });
      fullRuns.push({ left_free_bytes: leftFree, error: full.error!.message.slice(0, 160), alert_recorded: full.alertId != null, failed_at: atFull.untouched ? 'push' : 'drain', committed_before_full: atFull.mapped, queued_at_full: atFull.queued, drained_after: resumed.report!.drained });
    }
    const db = openStore(brain.file, { readonly: true });
    const alerts = listAlerts(db).map((a) => a.code);
    db.close();

    // Read-only: the folder cannot be written at all; the tick fails and nothing changes.
    for (let i = 0; i < 20; i++) repo.write(`burst/b${i}.ts`, burstFile(i) + '// again\n');
    const beforeRo = snapshot(brain.file);
    execFileSync('mount', ['-o', 'remount,ro', mnt.dir]);
    const ro = await runVigilChild(home, repo.dir);
    execFileSync('mount', ['-o', 'remount,rw', mnt.dir]);
    const afterRo = snapshot(brain.file);
    assert.equal(ro.ok, false, 'the tick on a read-only folder fails');
    assert.match(ro.error!.message, /read-?only|EROFS/i, `a clear error: ${ro.error!.message}`);
    messages.push(ro.error!.message);
    assert.notEqual(ro.error!.code, 'GDN_STORE_CORRUPT', 'a read-only store is not called corrupt');
    assert.equal(afterRo, beforeRo, 'on a read-only disk the map and backlog are as they were');
    const back = await runVigilChild(home, repo.dir);
    assert.equal(back.ok, true, JSON.stringify(back.error));
    assert.equal(back.report!.drained, 20, 'work resumes when the folder is writable again');

    recordFigures('disk-trouble', {
      tmpfs_kib: TMPFS_KIB,
      full: fullRuns,
      read_only: { code: ro.error!.code, error: ro.error!.message.slice(0, 160), alert_recorded: ro.alertId != null },
      alerts_after_resume: alerts,
    });
    // Issue 6 item 1 (store error codes, another branch) asks I/O errors to name the file and
    // the errno; today they are SQLite's bare words. Kept as a todo until that lands.
    await t.test('the full-disk and read-only errors name the store file (issue 6 item 1)', { todo: 'issue 6 item 1: store errors name the file and the errno' }, () => {
      for (const m of messages) assert.ok(m.includes(brain.file), `"${m}" names ${brain.file}`);
    });
  } finally {
    spawnSync('umount', ['-l', mnt.dir]);
    await repo.cleanup();
    await mnt.cleanup();
  }
});
