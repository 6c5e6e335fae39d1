import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync, mkdirSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { sourceFiles } from './helpers/brains.js';
import { CLI } from './helpers/mcp-client.js';
import { unprivilegedCommand } from './helpers/without-read-all.js';

/** Runs the CLI; with `drop`, through it (so file modes bind even under root). */
function gardener(args: string[], env: NodeJS.ProcessEnv, drop?: { command: string; args: string[] }) {
  const r = drop
    ? spawnSync(drop.command, [...drop.args, process.execPath, CLI, ...args], { env, encoding: 'utf8' })
    : spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('a folder that does not exist: exit 2, and the message names the path', async () => {
  const home = await makeTempDir('gardener-home-');
  try {
    const r = gardener(['init', '/no/such/folder/anywhere'], { ...process.env, GARDENER_HOME: home.dir });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /\/no\/such\/folder\/anywhere/);
    assert.match(r.stderr, /GDN_FOLDER_NOT_FOUND/);
  } finally {
    await home.cleanup();
  }
});

test('a folder with no brain, and bad option values: exit 2 with a message that says what to do', async () => {
  const home = await makeTempDir('gardener-home-');
  const plain = await makeTempDir();
  try {
    const env = { ...process.env, GARDENER_HOME: home.dir };
    const status = gardener(['status', plain.dir], env);
    assert.equal(status.code, 2);
    assert.match(status.stderr, /gardener init/);
    const limit = gardener(['seek', 'x', '--root', plain.dir, '--limit', '0'], env);
    assert.equal(limit.code, 2);
    assert.match(limit.stderr, /--limit must be a positive integer, got "0"/);
    const unknown = gardener(['frobnicate'], env);
    assert.equal(unknown.code, 2);
  } finally {
    await home.cleanup();
    await plain.cleanup();
  }
});

test('a corrupt brain.db is named with how to rebuild it, and never deleted', async () => {
  const home = await makeTempDir('gardener-home-');
  const repo = await makeGitRepo(sourceFiles(2));
  try {
    const env = { ...process.env, GARDENER_HOME: home.dir };
    const init = gardener(['init', repo.dir, '--json'], env);
    assert.equal(init.code, 0, init.stderr);
    const store = JSON.parse(init.stdout).store as string;
    writeFileSync(store, 'garbage '.repeat(1000));
    for (const ext of ['-wal', '-shm']) writeFileSync(store + ext, '');
    const r = gardener(['status', repo.dir], env);
    assert.equal(r.code, 2);
    assert.ok(r.stderr.includes(store), r.stderr);
    assert.match(r.stderr, /rebuild/);
    assert.equal(readFileSync(store, 'utf8'), 'garbage '.repeat(1000), 'left untouched');
  } finally {
    await home.cleanup();
    await repo.cleanup();
  }
});

test('git missing from PATH: the stat walk is used and status says so', async () => {
  const home = await makeTempDir('gardener-home-');
  const repo = await makeGitRepo(sourceFiles(3));
  const bin = await makeTempDir('gardener-bin-');
  try {
    symlinkSync(process.execPath, join(bin.dir, 'node'));
    const env = { ...process.env, GARDENER_HOME: home.dir, PATH: bin.dir };
    const init = gardener(['init', repo.dir, '--json'], env);
    assert.equal(init.code, 0, init.stderr);
    assert.equal(JSON.parse(init.stdout).files, 3);
    const status = gardener(['status', repo.dir, '--json'], env);
    const s = JSON.parse(status.stdout);
    assert.equal(s.backend, 'stat');
    assert.equal(s.roots[0].fallback, 'git_missing');
    assert.match(gardener(['status', repo.dir], env).stdout, /git not found on PATH/);
  } finally {
    await home.cleanup();
    await repo.cleanup();
    await bin.cleanup();
  }
});

test('a file that cannot be read mid-ingest is skipped with an alert, and the rest goes on', async (t) => {
  // Root reads anything: the CLI runs without the capabilities that let it (uid unchanged).
  const drop = unprivilegedCommand();
  if ('skip' in drop) return t.skip(drop.skip);
  const home = await makeTempDir('gardener-home-');
  const repo = await makeGitRepo(sourceFiles(3));
  try {
    const env = { ...process.env, GARDENER_HOME: home.dir, HOME: home.dir };
    mkdirSync(join(repo.dir, 'odd'));
    repo.write('odd/locked.ts', 'export function locked() {}\n');
    chmodSync(join(repo.dir, 'odd/locked.ts'), 0o000);
    repo.write('src/fine.ts', 'export function fine() {}\n');
    const init = gardener(['init', repo.dir, '--json'], env, drop);
    assert.equal(init.code, 0, init.stderr);
    assert.equal(JSON.parse(init.stdout).backlog_left, 0, 'the unreadable file does not stay queued forever');
    const seek = JSON.parse(gardener(['seek', 'fine', '--root', repo.dir, '--json'], env, drop).stdout);
    assert.equal(seek[0].path, 'src/fine.ts', 'the rest went on');
    const status = JSON.parse(gardener(['status', repo.dir, '--json'], env, drop).stdout);
    assert.equal(status.files, 4, 'every readable file is mapped');
    assert.equal(status.alerts, 1, 'the unreadable file was recorded as an alert');
  } finally {
    chmodSync(join(repo.dir, 'odd/locked.ts'), 0o644);
    await home.cleanup();
    await repo.cleanup();
  }
});

test('gardener mcp answers bad input the same with or without commander: a missing --root folder, a bare --root, an unknown option, --help', async () => {
  const home = await makeTempDir('gardener-home-');
  try {
    const env = { ...process.env, GARDENER_HOME: home.dir, GARDENER_NO_OWNER: '1' };
    for (const args of [['mcp', '--root', '/no/such/folder/anywhere'], ['mcp', '--root=/no/such/folder/anywhere']]) {
      const r = gardener(args, env);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /\/no\/such\/folder\/anywhere.*GDN_FOLDER_NOT_FOUND/);
      assert.equal(r.stdout, '', 'nothing on stdout: it is the protocol channel');
    }
    const bare = gardener(['mcp', '--root'], env);
    assert.equal(bare.code, 2);
    assert.match(bare.stderr, /--root <dir>.*argument missing/);
    const unknown = gardener(['mcp', '--frobnicate'], env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown option '--frobnicate'/);
    const help = gardener(['mcp', '--help'], env);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /serve MCP over stdio/);
  } finally {
    await home.cleanup();
  }
});
