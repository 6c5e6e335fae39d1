/**
 * After `gardener hosts install claude-code`, Claude Code's own `claude mcp list` reports
 * Gardener connected: over stdio (the default private `local` entry), and over HTTP through a
 * running owner with the token passed by reference. A project-scope entry is reported pending
 * approval by both Claude Code and `gardener hosts`. Real Claude Code, private HOME, no model.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServe } from '../helpers/owner.js';
import { makeHostWorld } from './host-world.js';

const gardenerLine = (out: string): string => out.split('\n').find((l) => l.startsWith('gardener:')) ?? '';

test('claude-code over stdio: install, Claude Code says connected, uninstall removes it', { timeout: 240_000 }, async () => {
  const w = await makeHostWorld();
  try {
    const install = w.gardener(['hosts', 'install', 'claude-code', '--json']);
    assert.equal(install.code, 0, install.stderr);
    assert.deepEqual([JSON.parse(install.stdout).scope, JSON.parse(install.stdout).transport], ['local', 'stdio']);
    const list = w.host('claude', ['mcp', 'list']);
    assert.match(gardenerLine(list.stdout), /Connected/, list.stdout + list.stderr);
    assert.doesNotMatch(gardenerLine(list.stdout), /Failed/);

    const again = w.gardener(['hosts', 'install', 'claude-code', '--json']);
    assert.equal(JSON.parse(again.stdout).changed, false, 'a second install changes nothing');
    const hosts = JSON.parse(w.gardener(['hosts', '--json']).stdout);
    const claude = hosts.hosts.find((h: { host: string }) => h.host === 'claude-code');
    assert.deepEqual(claude.entries.map((e: { scope: string; transport: string }) => [e.scope, e.transport]), [['local', 'stdio']]);
    assert.ok(!existsSync(join(w.repo.dir, '.mcp.json')), 'the private entry writes nothing into the project');

    const removed = w.gardener(['hosts', 'uninstall', 'claude-code']);
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal(gardenerLine(w.host('claude', ['mcp', 'list']).stdout), '');
  } finally {
    await w.cleanup();
  }
});

test('claude-code project scope: Claude Code holds it pending approval, and gardener hosts says so', { timeout: 240_000 }, async () => {
  const w = await makeHostWorld();
  try {
    const install = w.gardener(['hosts', 'install', 'claude-code', '--scope', 'project']);
    assert.equal(install.code, 0, install.stderr);
    assert.match(install.stdout, /Pending approval/);
    const list = w.host('claude', ['mcp', 'list']);
    assert.match(gardenerLine(list.stdout), /Pending approval/, list.stdout);
    const hosts = JSON.parse(w.gardener(['hosts', '--json']).stdout);
    const entry = hosts.hosts.find((h: { host: string }) => h.host === 'claude-code').entries[0];
    assert.equal(entry.scope, 'project');
    assert.match(entry.blocked, /pending approval/);

    // Approved the way the note says (user settings), Claude Code connects and the state clears.
    mkdirSync(join(w.home, '.claude'), { recursive: true });
    writeFileSync(join(w.home, '.claude', 'settings.json'), JSON.stringify({ enabledMcpjsonServers: ['gardener'] }));
    assert.match(gardenerLine(w.host('claude', ['mcp', 'list']).stdout), /Connected/);
    const approved = JSON.parse(w.gardener(['hosts', '--json']).stdout).hosts.find((h: { host: string }) => h.host === 'claude-code').entries[0];
    assert.equal(approved.blocked, undefined);

    assert.equal(w.gardener(['hosts', 'uninstall', 'claude-code']).code, 0);
    assert.ok(!existsSync(join(w.repo.dir, '.mcp.json')), 'uninstall leaves no empty .mcp.json in the project');
  } finally {
    await w.cleanup();
  }
});

test('claude-code over HTTP: connected through the owner with the token from $GARDENER_TOKEN, never written', { timeout: 240_000 }, async () => {
  const w = await makeHostWorld();
  const owner = await startServe(w.gardenerHome);
  try {
    const token = w.gardener(['token']).stdout.trim();
    const install = w.gardener(['hosts', 'install', 'claude-code', '--http']);
    assert.equal(install.code, 0, install.stderr);
    assert.ok(!readFileSync(join(w.home, '.claude.json'), 'utf8').includes(token), 'the token is a reference in the file');
    const list = w.host('claude', ['mcp', 'list'], { GARDENER_TOKEN: token });
    assert.match(gardenerLine(list.stdout), new RegExp(`${owner.ready.url!.replace(/[.]/g, '\\.')}/mcp.*Connected`), list.stdout + list.stderr);
    const without = w.host('claude', ['mcp', 'list']);
    assert.doesNotMatch(gardenerLine(without.stdout), /Connected/, 'without the token it cannot connect');
  } finally {
    await owner.stop();
    await w.cleanup();
  }
});
