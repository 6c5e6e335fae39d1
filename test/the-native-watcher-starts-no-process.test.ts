/**
 * Subscribing the native watcher starts no process. @parcel/watcher's "default" backend asks
 * first whether watchman runs, with popen("watchman … get-sockname"); where watchman is not
 * installed (most machines) the answer does not parse, the exception skips the pclose, and the
 * `sh` it started stays a zombie for the watch host's whole life, its pipe open (found by the
 * soak, bench/soak/: one zombie `sh` under the watch host from its first subscribe on, one more
 * each time the host's last subscription ends and a new one begins). The backend is named
 * instead (inotify on Linux), so nothing is started.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadNativeBackend } from '../src/watch/index.js';

/** This process's children, living or zombie, as /proc says: pid, state, name. */
function children(): { pid: number; state: string; comm: string }[] {
  const out: { pid: number; state: string; comm: string }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    const close = stat.lastIndexOf(')');
    const [state, ppid] = stat.slice(close + 2).split(' ');
    if (Number(ppid) === process.pid) out.push({ pid: Number(name), state: state!, comm: stat.slice(stat.indexOf('(') + 1, close) });
  }
  return out;
}

test('subscribing the native watcher starts no process (no watchman probe left a zombie)', { skip: process.platform !== 'linux' && 'reads /proc' }, async () => {
  const native = await loadNativeBackend({});
  assert.ok(!(native instanceof Error), `the native watcher loads here: ${native instanceof Error ? native.message : ''}`);
  const dir = mkdtempSync(join(tmpdir(), 'gardener-native-'));
  const before = children().map((c) => c.pid);
  const sub = await native.subscribe(dir, () => {});
  try {
    const started = children().filter((c) => !before.includes(c.pid));
    assert.deepEqual(started, [], 'the subscribe started these processes (a zombie is state Z)');
  } finally {
    await sub.unsubscribe();
    rmSync(dir, { recursive: true, force: true });
  }
});
