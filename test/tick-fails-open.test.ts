import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains, sourceFiles } from './helpers/brains.js';
import { runTick, Vigil } from '../src/vigil/index.js';
import { listAlerts } from '../src/store/index.js';

test('a tick that throws never fails the caller: it is recorded as an alert', async () => {
  const repo = await makeGitRepo(sourceFiles(2));
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    const lines: string[] = [];
    const vigil = new Vigil(brain, {
      tick: async () => {
        throw new Error('the disk caught fire');
      },
      log: (l) => lines.push(l),
    });
    const outcome = await vigil.request();
    assert.equal(outcome.ok, false);
    assert.ok(!outcome.ok && outcome.alertId !== null);
    assert.match(lines.join('\n'), /the disk caught fire/);
    const alerts = listAlerts(brain.reader);
    assert.equal(alerts.length, 1);
    assert.equal(alerts[0]!.code, 'tick_failed');
    assert.match(alerts[0]!.message, /the disk caught fire/);
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});

test('a real tick failure (the ingest root vanished) is swallowed and recorded', async () => {
  const repo = await makeGitRepo(sourceFiles(2));
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    await repo.cleanup();
    const outcome = await new Vigil(brain, { log: () => {} }).request();
    assert.equal(outcome.ok, false);
    assert.equal(listAlerts(brain.reader)[0]?.code, 'tick_failed');
  } finally {
    await t.cleanup();
  }
});

test('one tick at a time per brain, with a single follow-up for traffic that came meanwhile', async () => {
  const repo = await makeGitRepo(sourceFiles(2));
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    let running = 0;
    let maxRunning = 0;
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const vigil = new Vigil(brain, {
      tick: async (b, o) => {
        calls++;
        running++;
        maxRunning = Math.max(maxRunning, running);
        if (calls === 1) await gate;
        try {
          return await runTick(b, o);
        } finally {
          running--;
        }
      },
    });
    const first = vigil.request();
    const followUps = [vigil.request(), vigil.request(), vigil.request()];
    release();
    await Promise.all([first, ...followUps]);
    await vigil.idle();
    assert.equal(calls, 2, 'the first tick plus exactly one follow-up');
    assert.equal(maxRunning, 1);
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});
