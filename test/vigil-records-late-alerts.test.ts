import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains, sourceFiles } from './helpers/brains.js';
import { runTick, Vigil } from '../src/vigil/index.js';
import { listAlerts } from '../src/store/index.js';

test('an alert the store could not take is recorded, with its own time, once the store can', async () => {
  const repo = await makeGitRepo(sourceFiles(2));
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    // The store refuses alerts while "read-only".
    const client = brain.writerClient();
    const call = client.call.bind(client);
    let readOnly = true;
    client.call = (method: string, args: unknown[]) =>
      readOnly && method === 'recordAlert' ? (Promise.reject(new Error('attempt to write a readonly database')) as Promise<never>) : call(method, args);
    let failing = true;
    let clock = 1_000;
    const vigil = new Vigil(brain, {
      log: () => {},
      now: () => clock,
      tick: async (b, o) => {
        if (failing) throw new Error('attempt to write a readonly database');
        return runTick(b, o);
      },
    });
    const first = await vigil.request();
    assert.equal(first.ok, false);
    assert.ok(!first.ok && first.alertId === null, 'no alert could be written');
    clock = 2_000;
    await vigil.request(); // fails again: counted, not a second alert
    assert.equal(listAlerts(brain.reader).length, 0);

    readOnly = false;
    failing = false;
    clock = 3_000;
    assert.equal((await vigil.request()).ok, true);
    const alerts = listAlerts(brain.reader);
    assert.equal(alerts.length, 1, 'recorded once the store could take it');
    assert.equal(alerts[0]!.code, 'tick_failed');
    assert.equal(alerts[0]!.createdAt, 1_000, 'with the time of the first failure');
    assert.match(alerts[0]!.message, /readonly database.*1 more failed tick/);
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});
