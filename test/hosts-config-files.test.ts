/**
 * `gardener hosts` on the hosts whose config Gardener edits itself (Cursor, VS Code, Claude
 * Desktop, Windsurf), in a private HOME, through the real CLI: install is idempotent and keeps
 * what else is in the file (with a backup), print changes nothing, uninstall removes only
 * Gardener's entry, a file Gardener cannot parse is left alone, and no token literal is ever
 * written. The hosts with their own CLI are tested against the real CLIs in test/hosts/.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { CLI } from './helpers/mcp-client.js';

function gardener(args: string[], env: NodeJS.ProcessEnv, cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { env, cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function privateWorld() {
  const home = await makeTempDir('gardener-hosts-home-');
  const repo = await makeGitRepo({ 'src/a.ts': 'export const a = 1;\n' });
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home.dir, GARDENER_HOME: join(home.dir, 'gardener'), XDG_CONFIG_HOME: join(home.dir, '.config') };
  return { home: home.dir, repo, env, cleanup: async () => (await home.cleanup(), await repo.cleanup()) };
}

test('install writes one entry with the absolute gardener and the home, keeps the rest of the file, and a second install changes nothing', async () => {
  const w = await privateWorld();
  try {
    const file = join(w.home, '.cursor', 'mcp.json');
    mkdirSync(join(w.home, '.cursor'));
    writeFileSync(file, JSON.stringify({ mcpServers: { other: { command: 'other-server' } }, theirs: true }, null, 2));
    const first = gardener(['hosts', 'install', 'cursor', '--json'], w.env, w.repo.dir);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(JSON.parse(first.stdout).changed, true);
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    assert.deepEqual(doc.mcpServers.other, { command: 'other-server' });
    assert.equal(doc.theirs, true);
    assert.deepEqual(doc.mcpServers.gardener, {
      command: process.execPath,
      args: [CLI, 'mcp', '--root', '${workspaceFolder}'],
      env: { GARDENER_HOME: w.env.GARDENER_HOME },
    });
    assert.ok(existsSync(file + '.gardener-backup'), 'the previous file is kept beside it');
    const before = readFileSync(file, 'utf8');
    const second = gardener(['hosts', 'install', 'cursor', '--json'], w.env, w.repo.dir);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(JSON.parse(second.stdout).changed, false);
    assert.equal(readFileSync(file, 'utf8'), before);

    const list = JSON.parse(gardener(['hosts', '--json'], w.env, w.repo.dir).stdout);
    const cursor = list.hosts.find((h: { host: string }) => h.host === 'cursor');
    assert.deepEqual(cursor.entries.map((e: { scope: string; transport: string }) => [e.scope, e.transport]), [['user', 'stdio']]);
  } finally {
    await w.cleanup();
  }
});

test('uninstall removes only the gardener entry; uninstalling nothing is not an error', async () => {
  const w = await privateWorld();
  try {
    const file = join(w.home, '.codeium', 'windsurf', 'mcp_config.json');
    mkdirSync(join(w.home, '.codeium', 'windsurf'), { recursive: true });
    writeFileSync(file, JSON.stringify({ mcpServers: { other: { command: 'x' } } }));
    assert.equal(gardener(['hosts', 'install', 'windsurf'], w.env, w.repo.dir).code, 0);
    const removed = gardener(['hosts', 'uninstall', 'windsurf', '--json'], w.env, w.repo.dir);
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { mcpServers: { other: { command: 'x' } } });
    const again = gardener(['hosts', 'uninstall', 'windsurf', '--json'], w.env, w.repo.dir);
    assert.equal(again.code, 0);
    assert.deepEqual(JSON.parse(again.stdout).removed, []);
  } finally {
    await w.cleanup();
  }
});

test('print shows the exact entry and creates no file', async () => {
  const w = await privateWorld();
  try {
    const r = gardener(['hosts', 'print', 'claude-desktop'], w.env, w.repo.dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /claude_desktop_config\.json/);
    assert.ok(r.stdout.includes(JSON.stringify(w.repo.dir)), 'Claude Desktop has no project folder: the entry names it');
    assert.ok(!existsSync(join(w.home, '.config', 'Claude')));
    const codex = gardener(['hosts', 'print', 'codex'], w.env, w.repo.dir);
    assert.match(codex.stdout, /codex mcp add gardener --env GARDENER_HOME=/);
    assert.match(codex.stdout, /\[mcp_servers\.gardener\]/);
    assert.ok(!existsSync(join(w.home, '.codex')));
  } finally {
    await w.cleanup();
  }
});

test('over HTTP the entries hold a token reference, never the token, in user and project files alike', async () => {
  const w = await privateWorld();
  try {
    const token = gardener(['token'], w.env, w.repo.dir).stdout.trim();
    assert.match(token, /^[0-9a-f]{64}$/);
    for (const [host, scope] of [['cursor', 'project'], ['cursor', 'user'], ['vscode', 'project'], ['windsurf', 'user']] as const) {
      const r = gardener(['hosts', 'install', host, '--http', '--scope', scope], w.env, w.repo.dir);
      assert.equal(r.code, 0, `${host} ${scope}: ${r.stderr}`);
    }
    const files = [
      join(w.repo.dir, '.cursor', 'mcp.json'),
      join(w.home, '.cursor', 'mcp.json'),
      join(w.repo.dir, '.vscode', 'mcp.json'),
      join(w.home, '.codeium', 'windsurf', 'mcp_config.json'),
    ];
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      assert.ok(!text.includes(token), `${f} holds the token`);
      assert.match(text, /Bearer \$\{(env:GARDENER_TOKEN|input:gardener-token)\}/, f);
    }
    const vscode = JSON.parse(readFileSync(files[2]!, 'utf8'));
    assert.equal(vscode.servers.gardener.url, 'http://127.0.0.1:7171/mcp?folder=${workspaceFolder}');
    assert.equal(vscode.inputs[0].id, 'gardener-token');
    assert.equal(gardener(['hosts', 'uninstall', 'vscode', '--scope', 'project'], w.env, w.repo.dir).code, 0);
    assert.deepEqual(JSON.parse(readFileSync(files[2]!, 'utf8')), {}, 'the input Gardener added goes too');
  } finally {
    await w.cleanup();
  }
});

test('a config file with comments is refused and left untouched (exit 2)', async () => {
  const w = await privateWorld();
  try {
    const file = join(w.home, '.config', 'Code', 'User', 'mcp.json');
    mkdirSync(join(w.home, '.config', 'Code', 'User'), { recursive: true });
    const text = '{\n  // mine\n  "servers": {}\n}\n';
    writeFileSync(file, text);
    const r = gardener(['hosts', 'install', 'vscode'], w.env, w.repo.dir);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /GDN_HOST_CONFIG_UNUSABLE/);
    assert.match(r.stderr, /hosts print/);
    assert.equal(readFileSync(file, 'utf8'), text);
    assert.ok(!existsSync(file + '.gardener-backup'));
    const list = gardener(['hosts', '--json'], w.env, w.repo.dir);
    assert.equal(list.code, 0, 'one unreadable file does not stop the listing');
    const vscode = JSON.parse(list.stdout).hosts.find((h: { host: string }) => h.host === 'vscode');
    assert.match(vscode.error, /not plain JSON/);
  } finally {
    await w.cleanup();
  }
});

test('bad input: an unknown host lists the known ones, a scope or transport the host lacks is named (exit 2)', async () => {
  const w = await privateWorld();
  try {
    const unknown = gardener(['hosts', 'install', 'emacs'], w.env, w.repo.dir);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown host "emacs": known hosts are claude-code, codex, gemini, cursor, vscode, claude-desktop, windsurf/);
    const scope = gardener(['hosts', 'install', 'codex', '--scope', 'project'], w.env, w.repo.dir);
    assert.equal(scope.code, 2);
    assert.match(scope.stderr, /--scope must be one of user for codex, got "project"/);
    const http = gardener(['hosts', 'install', 'claude-desktop', '--http'], w.env, w.repo.dir);
    assert.equal(http.code, 2);
    assert.match(http.stderr, /stdio servers only/);
    const folder = gardener(['hosts', '--root', join(w.home, 'no-such-project')], w.env, w.repo.dir);
    assert.equal(folder.code, 2);
    assert.match(folder.stderr, /no-such-project: no such folder.*GDN_FOLDER_NOT_FOUND/);
    const missing = gardener(['hosts', 'install', 'claude-code'], { ...w.env, PATH: '/nonexistent' }, w.repo.dir);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /claude \(Claude Code\) is not on PATH.*GDN_HOST_CLI_MISSING/s);
  } finally {
    await w.cleanup();
  }
});

test('--guide adds one marked block to the agents file, replaces it in place, and uninstall --guide removes exactly it', async () => {
  const w = await privateWorld();
  try {
    const agents = join(w.repo.dir, 'AGENTS.md');
    writeFileSync(agents, '# Rules\n\nBe nice.\n');
    assert.equal(gardener(['hosts', 'install', 'cursor', '--guide'], w.env, w.repo.dir).code, 0);
    assert.equal(gardener(['hosts', 'install', 'cursor', '--guide'], w.env, w.repo.dir).code, 0);
    const text = readFileSync(agents, 'utf8');
    assert.equal(text.split('<!-- gardener:guide').length - 1, 1, 'one block, however often install runs');
    assert.match(text, /`seek`/);
    assert.match(text, /`delegate`/);
    assert.match(text, /`refs`.*who uses/i, 'refs: who uses this name');
    assert.match(text, /`impact`.*what (may )?breaks?/i, 'impact: what breaks if this file changes');
    assert.match(text, /stale/);
    assert.ok(text.startsWith('# Rules\n\nBe nice.\n'));
    assert.equal(gardener(['hosts', 'uninstall', 'cursor', '--guide'], w.env, w.repo.dir).code, 0);
    assert.equal(readFileSync(agents, 'utf8'), '# Rules\n\nBe nice.\n');
  } finally {
    await w.cleanup();
  }
});
