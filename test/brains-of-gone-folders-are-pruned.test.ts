/**
 * `gardener brains`: an owner left running for a month sees throwaway folders come and go
 * (worktrees, checkouts in /tmp); each `ingest` of one made a brain, and nothing removed it.
 * The list says which brains' folders are gone and what their stores weigh; `--prune` removes
 * those (and brain folders no registry entry names), `--remove` one by id or folder. With an
 * owner running, the owner removes them itself (it closes each first); an owner that holds the
 * home and does not answer removes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { homeToken, logLine, ownerEnv, runCli, startServe } from './helpers/owner.js';
import { OwnerLock } from '../src/owner/owner-lock.js';
import { makePrivateDir, runPaths } from '../src/owner/run-paths.js';

interface Listing {
  brains: { id: string; roots: { path: string; present: boolean }[]; gone: boolean; store: string; bytes: number; files: number | null; armed: boolean | null }[];
  orphans: string[];
}

const registryIds = (home: string) => (JSON.parse(readFileSync(join(home, 'registry.json'), 'utf8')) as { brains: { id: string }[] }).brains.map((b) => b.id).sort();

const idOf = (home: string, root: string) =>
  (JSON.parse(readFileSync(join(home, 'registry.json'), 'utf8')) as { brains: { id: string; roots: string[] }[] }).brains.find((b) => b.roots.includes(root))!.id;

async function twoBrains() {
  const home = await makeTempDir('gardener-home-');
  const env = ownerEnv(home.dir);
  const kept = await makeGitRepo({ 'src/kept.ts': 'export function keptHere(): number {\n  return 1;\n}\n' });
  const gone = await makeGitRepo({ 'src/gone.ts': 'export const goneSoon = 2;\n', 'src/more.ts': 'export const more = 3;\n' });
  for (const r of [kept, gone]) assert.equal((await runCli(['init', r.dir], env)).code, 0);
  return { home, env, kept, gone };
}

test('the list names every brain with its folders, whether each is still there, and what its store weighs', async () => {
  const { home, env, kept, gone } = await twoBrains();
  try {
    await rm(gone.dir, { recursive: true, force: true });
    const r = await runCli(['brains', '--json'], env);
    assert.equal(r.code, 0, r.stderr);
    const list = JSON.parse(r.stdout) as Listing;
    const byRoot = new Map(list.brains.map((b) => [b.roots[0]!.path, b]));
    assert.deepEqual([...byRoot.keys()].sort(), [kept.dir, gone.dir].sort());
    assert.deepEqual(byRoot.get(kept.dir)!.roots, [{ path: kept.dir, present: true }]);
    assert.equal(byRoot.get(kept.dir)!.gone, false);
    assert.equal(byRoot.get(gone.dir)!.gone, true);
    assert.equal(byRoot.get(gone.dir)!.files, 2, 'the store is read even though its folder is gone');
    assert.equal(byRoot.get(kept.dir)!.files, 1);
    for (const b of list.brains) assert.ok(b.bytes > 0 && existsSync(b.store), `${b.id}: ${b.bytes} bytes in ${b.store}`);
    assert.deepEqual(list.orphans, []);
    const text = await runCli(['brains'], env);
    assert.equal(text.code, 0);
    assert.match(text.stdout, new RegExp(`${gone.dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(gone\\)`));
    assert.match(text.stdout, /1 of 2 brains have no folder left: `gardener brains --prune` removes them/);
  } finally {
    await kept.cleanup();
    await home.cleanup();
  }
});

test('--prune removes the brains whose folders are gone and stray brain folders, and keeps the rest; --dry-run only says so', async () => {
  const { home, env, kept, gone } = await twoBrains();
  try {
    await rm(gone.dir, { recursive: true, force: true });
    const stray = join(home.dir, 'brains', 'left-behind-0badc0de');
    mkdirSync(stray, { recursive: true });
    writeFileSync(join(stray, 'brain.db'), 'x');
    const before = registryIds(home.dir);

    const dry = await runCli(['brains', '--prune', '--dry-run', '--json'], env);
    assert.equal(dry.code, 0, dry.stderr);
    const planned = JSON.parse(dry.stdout) as { removed: string[]; orphans: string[]; dry_run: boolean; freed_bytes: number };
    assert.equal(planned.dry_run, true);
    assert.equal(planned.removed.length, 1);
    assert.deepEqual(planned.orphans, [stray]);
    assert.deepEqual(registryIds(home.dir), before, 'a dry run changes nothing');
    assert.ok(existsSync(stray));

    const done = await runCli(['brains', '--prune', '--json'], env);
    assert.equal(done.code, 0, done.stderr);
    const out = JSON.parse(done.stdout) as { removed: string[]; orphans: string[]; freed_bytes: number };
    assert.deepEqual(out.removed, planned.removed);
    assert.ok(out.freed_bytes > 0);
    assert.equal(out.freed_bytes, planned.freed_bytes, 'a removal frees what its dry run said');
    assert.equal(registryIds(home.dir).length, 1);
    assert.ok(!existsSync(join(home.dir, 'brains', out.removed[0]!)), 'the gone brain\'s folder is removed');
    assert.ok(!existsSync(stray), 'the stray folder is removed');
    // The kept brain answers as before.
    const seek = await runCli(['seek', 'keptHere', '--root', kept.dir, '--json'], env);
    assert.equal(seek.code, 0, seek.stderr);
    assert.match(seek.stdout, /src\/kept\.ts/);
    // Nothing left to prune is not an error.
    const again = await runCli(['brains', '--prune'], env);
    assert.equal(again.code, 0);
    assert.match(again.stdout, /nothing to prune/);
  } finally {
    await kept.cleanup();
    await home.cleanup();
  }
});

test('--remove takes one brain by id or folder; an unknown one is exit 2 naming it', async () => {
  const { home, env, kept, gone } = await twoBrains();
  try {
    const byDir = await runCli(['brains', '--remove', gone.dir], env);
    assert.equal(byDir.code, 0, byDir.stderr);
    assert.equal(registryIds(home.dir).length, 1);
    const id = registryIds(home.dir)[0]!;
    const byId = await runCli(['brains', '--remove', id], env);
    assert.equal(byId.code, 0, byId.stderr);
    assert.deepEqual(registryIds(home.dir), []);
    assert.ok(existsSync(kept.dir), 'the folder itself is never touched');
    const unknown = await runCli(['brains', '--remove', 'no-such-brain-12345678'], env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no brain "no-such-brain-12345678" in .*: `gardener brains` lists them/);
    const both = await runCli(['brains', '--prune', '--remove', id], env);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--prune and --remove/);
  } finally {
    await kept.cleanup();
    await gone.cleanup();
    await home.cleanup();
  }
});

test('with an owner running, the owner removes them: it stops watching each, closes it, drops it, and serves the rest as before', { timeout: 120_000 }, async () => {
  const { home, env, kept, gone } = await twoBrains();
  assert.equal((await runCli(['daemon', 'start', gone.dir], env)).code, 0);
  const goneId = idOf(home.dir, gone.dir);
  const keptId = idOf(home.dir, kept.dir);
  const stray = join(home.dir, 'brains', 'stray-0000');
  mkdirSync(stray, { recursive: true });
  writeFileSync(join(stray, 'brain.db'), 'x'.repeat(4096));
  const owner = await startServe(home.dir);
  try {
    // Nothing to prune: said, exit 0, and the owner is not asked.
    const idle = await runCli(['brains', '--prune', '--dry-run'], env);
    assert.equal(idle.code, 0, idle.stderr);
    // The armed brain is open in the owner and watched.
    await logLine(owner, (e) => e.msg === 'watching' && e.brain === goneId);
    await rm(gone.dir, { recursive: true, force: true });
    const r = await runCli(['brains', '--prune', '--json'], env);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { removed: string[]; orphans: string[]; freed_bytes: number; by_owner_pid: number };
    assert.deepEqual(out.removed, [goneId]);
    assert.deepEqual(out.orphans, [stray]);
    assert.equal(out.by_owner_pid, owner.pid);
    assert.ok(out.freed_bytes > 4096, `${out.freed_bytes} bytes freed`);
    assert.deepEqual(registryIds(home.dir), [keptId]);
    assert.equal(existsSync(join(home.dir, 'brains', goneId)), false, 'the brain folder is gone');
    assert.equal(existsSync(stray), false);
    // The owner stopped watching it and closed it before its folder went.
    const order = owner.logs().filter((e) => e.brain === goneId).map((e) => e.msg);
    assert.deepEqual(order.slice(order.indexOf('not watching')), ['not watching', 'brain evicted', 'brain removed']);
    const status = JSON.parse((await runCli(['serve', '--status', '--json'], env)).stdout) as { brains: { id: string }[]; watched: { id: string }[] };
    assert.ok(!status.brains.some((b) => b.id === goneId) && !status.watched.some((w) => w.id === goneId), JSON.stringify(status.brains));
    // The kept brain answers through the owner as before.
    const seek = await fetch(`${owner.ready.url}/api/tools/seek`, { method: 'POST', headers: { authorization: `Bearer ${homeToken(home.dir)}`, 'content-type': 'application/json', 'x-gardener-folder': kept.dir }, body: JSON.stringify({ query: 'keptHere' }) });
    const seekText = await seek.text();
    assert.equal(seek.status, 200, seekText);
    assert.match(seekText, /src\/kept\.ts/);
    // --remove through the owner too; the owner is still up afterwards.
    const one = await runCli(['brains', '--remove', kept.dir], env);
    assert.equal(one.code, 0, one.stderr);
    assert.match(one.stdout, new RegExp(`removed brain ${keptId} .*\\n.*by the running owner, pid ${owner.pid}`));
    assert.deepEqual(registryIds(home.dir), []);
    assert.equal((await runCli(['serve', '--status'], env)).code, 0);
  } finally {
    await owner.stop();
    await kept.cleanup();
    await home.cleanup();
  }
});

test('an owner holding the home that does not answer removes nothing: exit 2 naming the home', async () => {
  const { home, env, kept, gone } = await twoBrains();
  const paths = runPaths(home.dir);
  makePrivateDir(paths.runDir);
  const lock = OwnerLock.take(paths.lockFile)!;
  try {
    await rm(gone.dir, { recursive: true, force: true });
    const before = registryIds(home.dir);
    const r = await runCli(['brains', '--prune'], env);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /GDN_OWNER_HOLDS_HOME/);
    assert.match(r.stderr, new RegExp(`holds ${home.dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} but did not remove the brains \\(no owner answered\\); nothing was removed`));
    assert.deepEqual(registryIds(home.dir), before);
    // Listing is a read: it works beside the lock.
    assert.equal((await runCli(['brains', '--json'], env)).code, 0);
  } finally {
    lock.release();
    await kept.cleanup();
    await home.cleanup();
  }
});
