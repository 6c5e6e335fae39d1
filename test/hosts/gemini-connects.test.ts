/**
 * After `gardener hosts install gemini`, Gemini CLI's own `gemini mcp list` reports Gardener
 * connected, over stdio and over HTTP through a running owner, once the folder is trusted.
 * Before that Gemini disables the server, and `gardener hosts` says why. The folder is trusted
 * the way Gemini's own dialog records it (~/.gemini/trustedFolders.json). Real Gemini CLI,
 * private HOME, no model, no account.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServe } from '../helpers/owner.js';
import { makeHostWorld, type HostWorld } from './host-world.js';

const gardenerLine = (out: string): string => out.split('\n').find((l) => /\bgardener:/.test(l)) ?? '';

function trust(w: HostWorld): void {
  mkdirSync(join(w.home, '.gemini'), { recursive: true });
  writeFileSync(join(w.home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [w.repo.dir]: 'TRUST_FOLDER' }));
}

test('gemini over stdio: untrusted folder disables it (and gardener hosts says so); trusted, Gemini says connected', { timeout: 240_000 }, async () => {
  const w = await makeHostWorld();
  try {
    const install = w.gardener(['hosts', 'install', 'gemini', '--json']);
    assert.equal(install.code, 0, install.stderr);
    const plan = JSON.parse(install.stdout);
    assert.equal(plan.scope, 'user');
    assert.ok(plan.notes.some((n: string) => /Trust folder/.test(n)), 'install says how to trust the folder');
    const untrusted = w.host('gemini', ['mcp', 'list']);
    assert.match(gardenerLine(untrusted.stdout + untrusted.stderr), /Disabled/, untrusted.stdout + untrusted.stderr);
    const hosts = JSON.parse(w.gardener(['hosts', '--json']).stdout);
    assert.match(hosts.hosts.find((h: { host: string }) => h.host === 'gemini').entries[0].blocked, /not trusted/);

    trust(w);
    const list = w.host('gemini', ['mcp', 'list']);
    assert.match(gardenerLine(list.stdout + list.stderr), /\(stdio\) - Connected/, list.stdout + list.stderr);
    assert.equal(JSON.parse(w.gardener(['hosts', '--json']).stdout).hosts.find((h: { host: string }) => h.host === 'gemini').entries[0].blocked, undefined);

    assert.equal(JSON.parse(w.gardener(['hosts', 'install', 'gemini', '--json']).stdout).changed, false, 'a second install changes nothing');
    assert.equal(w.gardener(['hosts', 'uninstall', 'gemini']).code, 0);
    const after = w.host('gemini', ['mcp', 'list']);
    assert.equal(gardenerLine(after.stdout + after.stderr), '');
  } finally {
    await w.cleanup();
  }
});

test('gemini over HTTP: connected through the owner with the token from $GARDENER_TOKEN, never written', { timeout: 240_000 }, async () => {
  const w = await makeHostWorld();
  const owner = await startServe(w.gardenerHome);
  try {
    trust(w);
    const token = w.gardener(['token']).stdout.trim();
    const install = w.gardener(['hosts', 'install', 'gemini', '--http']);
    assert.equal(install.code, 0, install.stderr);
    assert.ok(!readFileSync(join(w.home, '.gemini', 'settings.json'), 'utf8').includes(token));
    const list = w.host('gemini', ['mcp', 'list'], { GARDENER_TOKEN: token });
    assert.match(gardenerLine(list.stdout + list.stderr), /\(http\) - Connected/, list.stdout + list.stderr);
    const without = w.host('gemini', ['mcp', 'list']);
    assert.doesNotMatch(gardenerLine(without.stdout + without.stderr), / - Connected/, "without the token it cannot connect");
  } finally {
    await owner.stop();
    await w.cleanup();
  }
});
