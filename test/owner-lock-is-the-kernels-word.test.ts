/**
 * The owner lock (src/owner/owner-lock.ts) on every runtime Gardener runs on: a live holder
 * refuses everyone else at once, and a holder killed with SIGKILL frees it at once. Each
 * runtime found here (this Node, Node 24 in node_modules, Bun) holds it in a child process
 * through the store's own driver (better-sqlite3, node:sqlite, bun:sqlite).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from './helpers/git-repo.js';
import { OwnerLock } from '../src/owner/owner-lock.js';

const LOCK_JS = fileURLToPath(new URL('../src/owner/owner-lock.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RUNTIMES: [string, string][] = [
  ['this node', process.execPath],
  ['node 24', join(ROOT, 'node_modules', 'node', 'bin', 'node')],
  ['bun', join(ROOT, 'node_modules', '.bin', 'bun')],
];

const HOLDER = `
const { OwnerLock } = await import(process.argv[1]);
const lock = OwnerLock.take(process.argv[2]);
process.stdout.write(lock ? 'held\\n' : 'busy\\n');
if (lock && process.argv[3] === 'hold') setInterval(() => { globalThis.keep = lock; }, 60_000);
`;

/** Runs the holder script in `runtime`; resolves with its first line and the process. */
async function holder(runtime: string, file: string, hold: boolean) {
  const p = spawn(runtime, ['--input-type=module', '-e', HOLDER, LOCK_JS, file, hold ? 'hold' : 'try'].filter((a) => !(runtime.endsWith('bun') && a === '--input-type=module')), { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  p.stderr!.on('data', (d) => (err += d));
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    p.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.trim());
    });
    p.once('exit', (code) => reject(new Error(`${runtime} exited (${code}) before answering: ${err}`)));
  });
  return { line, p };
}

for (const [name, runtime] of RUNTIMES) {
  test(`${name}: a live holder refuses everyone at once; SIGKILL frees the lock at once`, { skip: existsSync(runtime) ? false : `${runtime} is not installed` }, async () => {
    const dir = await makeTempDir('gardener-lock-');
    const file = join(dir.dir, 'owner.lock');
    try {
      const h = await holder(runtime, file, true);
      assert.equal(h.line, 'held');
      assert.equal(OwnerLock.take(file), null, 'this process is refused while the child holds it');
      h.p.kill('SIGKILL');
      await new Promise((r) => h.p.once('exit', r));
      const mine = OwnerLock.take(file);
      assert.ok(mine, 'free at once after SIGKILL');
      try {
        assert.equal(OwnerLock.take(file), null, 'a second connection in the holder\'s own process is refused too');
        const other = await holder(runtime, file, false);
        assert.equal(other.line, 'busy', `${name} is refused while this process holds it`);
      } finally {
        mine.release();
      }
      const after = await holder(runtime, file, false);
      assert.equal(after.line, 'held', 'released: free again');
    } finally {
      await dir.cleanup();
    }
  });
}

test('a client asks whether the lock is held without taking it: the kernel table (with the pid) and SQLite agree, and both see it freed by SIGKILL', async () => {
  const { ownerLockHolder, sqliteSaysHeld } = await import('../src/owner/dial-lock.js');
  const dir = await makeTempDir('gardener-lock-');
  const file = join(dir.dir, 'owner.lock');
  try {
    assert.deepEqual(await ownerLockHolder(file), { held: false, pid: null }, 'no lock file: nobody');
    const h = await holder(process.execPath, file, true);
    assert.equal(h.line, 'held');
    const seen = await ownerLockHolder(file);
    assert.equal(seen.held, true);
    if (process.platform === 'linux') assert.equal(seen.pid, h.p.pid, '/proc/locks names the holder');
    assert.equal(await sqliteSaysHeld(file), true);
    h.p.kill('SIGKILL');
    await new Promise((r) => h.p.once('exit', r));
    assert.deepEqual(await ownerLockHolder(file), { held: false, pid: null });
    assert.equal(await sqliteSaysHeld(file), false);
    const mine = OwnerLock.take(file);
    assert.ok(mine, 'asking never kept the lock from its next taker');
    mine.release();
  } finally {
    await dir.cleanup();
  }
});
