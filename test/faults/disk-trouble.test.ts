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
import { createInterface } from 'node:readline';
import { chmodSync, existsSync, rmSync, statSync, statfsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeGitRepo, makeTempDir } from '../helpers/git-repo.js';
import { sourceFiles } from '../helpers/brains.js';
import { Brains } from '../../src/brain/index.js';
import { runTick } from '../../src/vigil/index.js';
import { listAlerts, openStore, type Database } from '../../src/store/index.js';
import { recordFigures } from './fault-config.js';
import { unprivilegedCommand } from '../helpers/without-read-all.js';

const VIGIL_CHILD = fileURLToPath(new URL('./vigil-child.js', import.meta.url));
const INJECT_DISK_FULL = fileURLToPath(new URL('./inject-disk-full.cjs', import.meta.url));
/** The tmpfs the brain lives on, in KiB: room for the store, and for the filler to fill it. */
const TMPFS_KIB = 8192;
/**
 * Space left free beside the filler, in bytes: too little for the push of the changed set,
 * then enough for the push but not for the drain (the disk fills between commits).
 */
const LEFT_FREE_BYTES = [32 * 1024, 512 * 1024];
/** The same two stages, injected: INSERTs allowed before SQLITE_FULL (the push runs one per path). */
const BURST_FILES = 200;
const INSERTS_LEFT = [0, BURST_FILES + 100];

function burstFile(i: number): string {
  // Distinct words, so the full-text index grows with every file.
  const words = Array.from({ length: 400 }, (_, w) => `word_${i}_${w}`).join(' ');
  return `export function burst_${i}(): string {\n  return '${words}';\n}\n`;
}

type Outcome = { ok: boolean; alertId?: number | null; error?: { code: string; message: string }; report?: { backlogLeft: number; drained: number } };

/**
 * A vigil child running `ticks` ticks in one process: `next()` lets the next tick start and
 * resolves with its outcome (the first starts at once).
 */
function startVigilChild(disk: Disk, dir: string, ticks = 1) {
  const argv = [...disk.nodeArgs, VIGIL_CHILD, disk.home, dir];
  const env = { ...disk.env, VIGIL_CHILD_TICKS: String(ticks) };
  const child = disk.wrap
    ? spawn(disk.wrap.command, [...disk.wrap.args, process.execPath, ...argv], { env, stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn(process.execPath, argv, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let started = 0;
  return {
    async next(): Promise<Outcome> {
      if (started++ > 0) child.stdin.write('\n');
      const line = await lines.next();
      assert.ok(!line.done, `the vigil child printed an outcome: ${stderr}`);
      return JSON.parse(line.value) as Outcome;
    },
    async done(): Promise<void> {
      child.stdin.end();
      const [code] = await exited;
      assert.equal(code, 0, `the vigil child ends by itself, fail-open: ${stderr}`);
    },
  };
}

async function runVigilChild(disk: Disk, dir: string): Promise<Outcome> {
  const child = startVigilChild(disk, dir);
  const outcome = await child.next();
  await child.done();
  return outcome;
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

/** Where the brain lives and how its disk is made full or read-only. */
interface Disk {
  kind: 'tmpfs' | 'injected';
  home: string;
  /** Arguments for node before the child's script (the injection's preload). */
  nodeArgs: string[];
  env: NodeJS.ProcessEnv;
  /** Run the child through this (dropped capabilities), or null. */
  wrap: { command: string; args: string[] } | null;
  /** Stage 0 leaves too little for the push of the changed set; stage 1 enough for it, not for the drain. */
  fill(stage: number): void;
  free(): void;
  readOnly(brainFile: string): void;
  writable(brainFile: string): void;
  cleanup(): Promise<void>;
}

/** A small tmpfs (root on Linux), or null with the reason it cannot be mounted. */
async function tmpfsDisk(): Promise<Disk | string> {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return 'mounting a tmpfs needs root on Linux';
  const mnt = await makeTempDir('gardener-tmpfs-');
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_KIB}k,mode=0700`, 'gardener-faults', mnt.dir], { encoding: 'utf8' });
  if (mounted.status !== 0) {
    await mnt.cleanup();
    return `mount -t tmpfs is not allowed here: ${(mounted.stderr || mounted.error?.message || '').trim()}`;
  }
  const filler = join(mnt.dir, 'filler');
  return {
    kind: 'tmpfs',
    home: join(mnt.dir, 'home'),
    nodeArgs: [],
    env: process.env,
    wrap: null,
    fill(stage) {
      const fs = statfsSync(mnt.dir);
      writeFileSync(filler, Buffer.alloc(Math.max(0, fs.bavail * fs.bsize - LEFT_FREE_BYTES[stage]!)));
    },
    free: () => rmSync(filler),
    readOnly: () => execFileSync('mount', ['-o', 'remount,ro', mnt.dir]),
    writable: () => execFileSync('mount', ['-o', 'remount,rw', mnt.dir]),
    async cleanup() {
      spawnSync('umount', ['-l', mnt.dir]);
      await mnt.cleanup();
    },
  };
}

/** SQLITE_FULL injected into the writer (see inject-disk-full.cts); read-only by file modes. */
async function injectedDisk(): Promise<Disk> {
  const temp = await makeTempDir('gardener-injected-disk-');
  const allowance = join(temp.dir, 'inserts-left');
  const drop = unprivilegedCommand();
  const modes = (brainFile: string, file: number, folder: number) => {
    for (const f of [brainFile, `${brainFile}-wal`, `${brainFile}-shm`]) if (existsSync(f)) chmodSync(f, file);
    chmodSync(dirname(brainFile), folder);
  };
  return {
    kind: 'injected',
    home: join(temp.dir, 'home'),
    nodeArgs: ['--require', INJECT_DISK_FULL],
    env: { ...process.env, FAULTS_FULL_FILE: allowance },
    wrap: 'skip' in drop ? null : drop,
    fill: (stage) => writeFileSync(allowance, String(INSERTS_LEFT[stage])),
    free: () => rmSync(allowance),
    readOnly(brainFile) {
      if ('skip' in drop) throw new Error(`a read-only brain folder cannot be made here: ${drop.skip}`);
      modes(brainFile, 0o400, 0o500);
    },
    writable: (brainFile) => modes(brainFile, 0o600, 0o700),
    cleanup: () => temp.cleanup(),
  };
}

test('a full disk, then a read-only one: a clear error, nothing lost, work resumes when space returns', { timeout: 300_000 }, async (t) => {
  // FAULTS_DISK=injected takes the injected path even where a tmpfs could be mounted.
  const mounted = process.env.FAULTS_DISK === 'injected' ? 'FAULTS_DISK=injected' : await tmpfsDisk();
  if (typeof mounted === 'string') t.diagnostic(`${mounted}: SQLITE_FULL is injected into the writer instead, and read-only is made by file modes`);
  const disk = typeof mounted === 'string' ? await injectedDisk() : mounted;
  const repo = await makeGitRepo(sourceFiles(3));
  const home = disk.home;
  const runChild = () => runVigilChild(disk, repo.dir);
  try {
    const brains = new Brains({ home, maxThreads: 1 });
    const { brain } = await brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    await brains.close();
    const fullRuns = [];
    const messages: string[] = [];
    for (const stage of [0, 1]) {
      for (let i = 0; i < BURST_FILES; i++) repo.write(`burst/b${i}.ts`, burstFile(i) + `// run ${'x'.repeat(stage + 1)}\n`);
      const before = snapshot(brain.file);
      disk.fill(stage);
      const full = await runChild();
      assert.equal(full.ok, false, `the tick on a full disk fails (stage ${stage})`);
      assert.match(full.error!.message, /full|ENOSPC|no space/i, `a clear error: ${full.error!.message}`);
      messages.push(full.error!.message);
      const atFull = assertConsistent(brain.file, repo.dir, `on a full disk (stage ${stage})`, before);
      assert.equal(atFull.untouched, stage === 0, `stage ${stage} fails ${stage === 0 ? 'at the push' : 'mid-drain'}: ${JSON.stringify(atFull)}`);
      assert.ok(atFull.untouched || atFull.mapped < BURST_FILES, `the disk filled before the burst was drained: ${JSON.stringify({ atFull, full })}`);

      // Space returns: the next tick drains everything.
      disk.free();
      const resumed = await runChild();
      assert.equal(resumed.ok, true, JSON.stringify(resumed.error));
      assert.equal(resumed.report!.backlogLeft, 0);
      assert.deepEqual(assertConsistent(brain.file, repo.dir, 'after space returned'), { mapped: BURST_FILES, queued: 0, untouched: false });
      fullRuns.push({ error: full.error!.message.slice(0, 160), alert_recorded: full.alertId != null, failed_at: atFull.untouched ? 'push' : 'drain', committed_before_full: atFull.mapped, queued_at_full: atFull.queued, drained_after: resumed.report!.drained });
    }
    const db = openStore(brain.file, { readonly: true });
    const alerts = listAlerts(db).map((a) => a.code);
    db.close();

    // Read-only: the folder cannot be written at all; the tick fails and nothing changes.
    for (let i = 0; i < 20; i++) repo.write(`burst/b${i}.ts`, burstFile(i) + '// again\n');
    const beforeRo = snapshot(brain.file);
    disk.readOnly(brain.file);
    // One process ticks twice: read-only, then writable again (as a long-running server would).
    const child = startVigilChild(disk, repo.dir, 2);
    const ro = await child.next();
    disk.writable(brain.file);
    const afterRo = snapshot(brain.file);
    assert.equal(ro.ok, false, 'the tick on a read-only folder fails');
    assert.match(ro.error!.message, /read-?only|EROFS|EACCES|permission/i, `a clear error: ${ro.error!.message}`);
    messages.push(ro.error!.message);
    assert.equal(afterRo, beforeRo, 'on a read-only disk the map and backlog are as they were');
    const back = await child.next();
    await child.done();
    assert.equal(back.ok, true, JSON.stringify(back.error));
    assert.equal(back.report!.drained, 20, 'work resumes when the folder is writable again');
    // The store could not take the alert while read-only: it is recorded once it can.
    const after = openStore(brain.file, { readonly: true });
    const late = listAlerts(after).filter((a) => a.code === 'tick_failed' && a.message.includes(ro.error!.message));
    after.close();
    assert.equal(late.length, 1, 'the read-only failure is in the alerts once the store can take it');

    recordFigures('disk-trouble', {
      disk: disk.kind,
      tmpfs_kib: disk.kind === 'tmpfs' ? TMPFS_KIB : null,
      full: fullRuns,
      read_only: { code: ro.error!.code, error: ro.error!.message.slice(0, 160), alert_recorded: ro.alertId != null, alert_recorded_late: late.length === 1 },
      alerts_after_resume: alerts,
    });
    // Issue 6 item 1: a store that cannot be written is not corrupt, and I/O errors name the
    // file and the errno.
    // A store closed cleanly (no -wal/-shm beside it) on a read-only folder: opening it fails.
    let cleanOpenError: { code?: string; message: string } | null = null;
    openStore(brain.file).close();
    disk.readOnly(brain.file);
    try {
      openStore(brain.file).close();
    } catch (err) {
      cleanOpenError = err as { code?: string; message: string };
    } finally {
      disk.writable(brain.file);
    }
    await t.test('the full-disk and read-only errors name the store file, and a read-only store is not called corrupt (issue 6 item 1)', () => {
      assert.notEqual(ro.error!.code, 'GDN_STORE_CORRUPT', 'a read-only store is not called corrupt');
      if (cleanOpenError) assert.notEqual(cleanOpenError.code, 'GDN_STORE_CORRUPT', `a cleanly closed store on a read-only folder is not called corrupt: ${cleanOpenError.message}`);
      for (const m of messages) assert.ok(m.includes(brain.file), `"${m}" names ${brain.file}`);
    });
  } finally {
    await repo.cleanup();
    await disk.cleanup();
  }
});
