import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from './helpers/git-repo.js';
import { CLI } from './helpers/mcp-client.js';
import { launchdPlist, systemdUnit } from '../src/service/index.js';
import { OWNER_GLIBC_TUNABLES } from '../src/service/malloc-arenas.js';

/** Fake `systemctl` and `launchctl` first on PATH: they record their arguments, one line per call. */
async function fakeManagers() {
  const dir = await makeTempDir('fake-managers-');
  const log = join(dir.dir, 'calls.log');
  for (const name of ['systemctl', 'launchctl']) {
    const file = join(dir.dir, name);
    writeFileSync(file, `#!/bin/sh\necho "${name} $*" >> "${log}"\ncase "$*" in *is-active*) echo active;; esac\nexit 0\n`);
    chmodSync(file, 0o755);
  }
  return { dir, calls: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []) };
}

async function cli(args: string[], env: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, [CLI, 'service', ...args], { env, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const spec = { runtime: '/opt/node 24/bin/node', script: '/srv/gardener/dist/src/cli/main.js', home: '/var/lib/gardener 100%', logDir: '/var/lib/gardener/logs' };

test('the systemd unit passes systemd-analyze verify and runs the absolute runtime and script', async (t) => {
  const unit = systemdUnit({ ...spec, runtime: process.execPath, script: CLI });
  assert.match(unit, /^Type=exec$/m);
  assert.match(unit, /^Restart=on-failure$/m);
  assert.match(unit, /^StartLimitBurst=\d+$/m);
  assert.ok(unit.includes(`ExecStart="${process.execPath}" "${CLI}" serve`));
  assert.match(unit, /^Environment="GARDENER_HOME=\/var\/lib\/gardener 100%%"$/m, '% is escaped for systemd');
  // The owner's malloc held to two arenas from its first start (src/service/malloc-arenas.ts).
  assert.match(unit, new RegExp(`^Environment="GLIBC_TUNABLES=${OWNER_GLIBC_TUNABLES}"$`, 'm'));
  const which = spawnSync('systemd-analyze', ['--version']);
  if (which.error) return t.skip('systemd-analyze is not installed here (Debian package systemd)');
  const dir = await makeTempDir('unit-');
  try {
    const file = join(dir.dir, 'gardener.service');
    writeFileSync(file, unit);
    const r = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr.trim(), '', 'no warnings');
  } finally {
    await dir.cleanup();
  }
});

test('the launchd plist parses as a property list with the keys launchd needs', async (t) => {
  const plist = launchdPlist({ ...spec, home: '/Users/a&b/gardener' });
  const py = spawnSync('python3', ['-c', 'import plistlib,sys,json; print(json.dumps(plistlib.loads(sys.stdin.buffer.read())))'], { input: plist, encoding: 'utf8' });
  if (py.error) return t.skip('python3 (plistlib) is not installed here to parse the plist');
  assert.equal(py.status, 0, py.stderr);
  const p = JSON.parse(py.stdout);
  assert.equal(p.Label, 'dev.gardener.owner');
  assert.deepEqual(p.ProgramArguments, [spec.runtime, spec.script, 'serve']);
  assert.equal(p.RunAtLoad, true);
  assert.deepEqual(p.KeepAlive, { SuccessfulExit: false });
  assert.equal(p.ProcessType, 'Background');
  assert.equal(p.StandardErrorPath, '/var/lib/gardener/logs/owner.err.log');
  assert.equal(p.EnvironmentVariables.GARDENER_HOME, '/Users/a&b/gardener', 'XML escaping round-trips');
});

test('GARDENER_LOG set at install is passed on to the owner by both definitions; a bad level is refused there', async () => {
  const unit = systemdUnit({ ...spec, logLevel: 'warn' });
  assert.match(unit, /^Environment="GARDENER_LOG=warn"$/m);
  assert.doesNotMatch(systemdUnit(spec), /GARDENER_LOG/, 'not set, not passed');
  const plist = launchdPlist({ ...spec, home: undefined, logLevel: 'error' });
  assert.match(plist, /<key>EnvironmentVariables<\/key>\s*<dict>\s*<key>GARDENER_LOG<\/key><string>error<\/string>\s*<\/dict>/);
  const home = await makeTempDir('user-home-');
  try {
    const env = { ...process.env, HOME: home.dir, XDG_CONFIG_HOME: '', GARDENER_HOME: join(home.dir, 'gh') };
    const printed = await cli(['print', '--systemd'], { ...env, GARDENER_LOG: 'warn' });
    assert.equal(printed.status, 0, printed.stderr);
    assert.match(printed.stdout, /^Environment="GARDENER_LOG=warn"$/m);
    const bad = await cli(['print', '--systemd'], { ...env, GARDENER_LOG: 'loud' });
    assert.equal(bad.status, 2, 'bad input: exit 2');
    assert.match(bad.stderr, /GARDENER_LOG must be one of debug, info, warn, error, silent, got "loud"/);
  } finally {
    await home.cleanup();
  }
});

test('systemd install writes the user unit, reloads and enables it; re-install is idempotent; uninstall removes it', async () => {
  const fake = await fakeManagers();
  const home = await makeTempDir('user-home-');
  const env = { ...process.env, PATH: `${fake.dir.dir}:${process.env.PATH}`, HOME: home.dir, XDG_CONFIG_HOME: '', GARDENER_HOME: join(home.dir, 'gh') };
  try {
    const first = await cli(['install', '--systemd', '--json'], env);
    assert.equal(first.status, 0, first.stderr);
    const report = JSON.parse(first.stdout);
    const unitFile = join(home.dir, '.config/systemd/user/gardener.service');
    assert.equal(report.file, unitFile);
    assert.equal(report.state, 'active');
    assert.match(report.hint, /loginctl enable-linger/);
    assert.equal(statSync(unitFile).mode & 0o022, 0, 'not writable by group or others');
    assert.ok(readFileSync(unitFile, 'utf8').includes(`GARDENER_HOME=${join(home.dir, 'gh')}`));
    assert.deepEqual(fake.calls(), ['systemctl --user daemon-reload', 'systemctl --user enable --now gardener.service', 'systemctl --user is-active gardener.service']);
    const content = readFileSync(unitFile, 'utf8');
    assert.equal((await cli(['install', '--systemd'], env)).status, 0, 're-install succeeds');
    assert.equal(readFileSync(unitFile, 'utf8'), content, 're-install writes the same unit');
    const status = JSON.parse((await cli(['status', '--systemd', '--json'], env)).stdout);
    assert.equal(status.installed, true);
    assert.equal(status.hint, undefined, 'the installed unit is current');
    const removed = await cli(['uninstall', '--systemd', '--json'], env);
    assert.equal(removed.status, 0, removed.stderr);
    assert.equal(JSON.parse(removed.stdout).state, 'removed');
    assert.ok(!existsSync(unitFile));
    assert.ok(fake.calls().includes('systemctl --user disable --now gardener.service'));
    const again = await cli(['uninstall', '--systemd', '--json'], env);
    assert.equal(again.status, 0, 'uninstall of nothing is not an error');
    assert.equal(JSON.parse(again.stdout).state, 'not-installed');
  } finally {
    await fake.dir.cleanup();
    await home.cleanup();
  }
});

test('launchd install bootstraps the agent in the gui domain; uninstall boots it out', async () => {
  const fake = await fakeManagers();
  const home = await makeTempDir('user-home-');
  const env = { ...process.env, PATH: `${fake.dir.dir}:${process.env.PATH}`, HOME: home.dir, GARDENER_HOME: join(home.dir, 'gh') };
  const uid = process.getuid!();
  try {
    const r = await cli(['install', '--launchd', '--json'], env);
    assert.equal(r.status, 0, r.stderr);
    const plist = join(home.dir, 'Library/LaunchAgents/dev.gardener.owner.plist');
    assert.equal(JSON.parse(r.stdout).file, plist);
    assert.equal(statSync(plist).mode & 0o022, 0, 'launchd refuses a group/other-writable agent');
    assert.deepEqual(fake.calls(), [`launchctl bootout gui/${uid}/dev.gardener.owner`, `launchctl bootstrap gui/${uid} ${plist}`]);
    assert.equal((await cli(['uninstall', '--launchd'], env)).status, 0);
    assert.ok(fake.calls().includes(`launchctl bootout gui/${uid}/dev.gardener.owner`));
    assert.ok(!existsSync(plist));
  } finally {
    await fake.dir.cleanup();
    await home.cleanup();
  }
});

test('print changes nothing; a missing manager and conflicting flags are clear errors', async () => {
  const home = await makeTempDir('user-home-');
  const empty = await makeTempDir('empty-path-');
  const env = { ...process.env, HOME: home.dir, XDG_CONFIG_HOME: '' };
  try {
    const printed = await cli(['print', '--systemd'], env);
    assert.equal(printed.status, 0);
    assert.match(printed.stdout, /^\[Unit\]/);
    assert.ok(!existsSync(join(home.dir, '.config')), 'print wrote nothing');
    const both = await cli(['print', '--systemd', '--launchd'], env);
    assert.equal(both.status, 2);
    assert.match(both.stderr, /--systemd and --launchd cannot be used together/);
    const noManager = spawnSync(process.execPath, [CLI, 'service', 'install', '--systemd'], { env: { ...env, PATH: empty.dir }, encoding: 'utf8' });
    assert.equal(noManager.status, 1);
    assert.match(noManager.stderr, /systemctl --user daemon-reload` failed \(systemctl was not found on PATH\).*\[GDN_SERVICE_FAILED\]/);
  } finally {
    await home.cleanup();
    await empty.cleanup();
  }
});
