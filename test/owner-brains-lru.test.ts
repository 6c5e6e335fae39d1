import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { sourceFiles } from './helpers/brains.js';
import { OwnerBrains } from '../src/owner/owner-brains.js';
import { createLogger } from '../src/log.js';
import { dispatchTool } from '../src/dispatch/index.js';
import { runTick, type TickOutcome } from '../src/vigil/index.js';
import type { Brain } from '../src/brain/index.js';
import type { Session } from '../src/session/index.js';

const call = (session: Session, name: string, args: Record<string, unknown> = {}) =>
  dispatchTool(session.toolsByName, name, args, { session, signal: new AbortController().signal, progress: () => {} });

test('an evicted armed brain is unsubscribed, and its vigil re-arms on the next call that resolves it', async () => {
  const home = await makeTempDir('gardener-home-');
  const a = await makeGitRepo(sourceFiles(3));
  const b = await makeGitRepo(sourceFiles(2, 'lib/g'));
  const owner = new OwnerBrains({ home: home.dir, maxBrains: 1, maxThreads: 1, log: createLogger('silent') });
  try {
    const made = await owner.brains.ensure(a.dir);
    await runTick(made.brain, { inventory: true });
    await made.brain.writer.setArmed(true, Date.now());
    await owner.brains.ensure(b.dir); // A is evicted (max 1)

    const sa = owner.openSession(a.dir).session;
    const sb = owner.openSession(b.dir).session;
    // A call on A reopens it: armed, so subscribed, and traffic ticks it.
    const subscribed = once(owner.armed, 'subscribed') as Promise<[Brain]>;
    a.write('src/first.ts', 'export function firstEdit() {}\n');
    assert.equal((await call(sa, 'remember', { text: 'one' })).isError, undefined);
    const [first] = await subscribed;
    assert.equal(first.id, made.brain.id);
    const tick1 = (await once(owner.vigils.get(first), 'tick')) as [TickOutcome];
    assert.ok(tick1[0].ok && tick1[0].report.drained >= 1, JSON.stringify(tick1[0]));

    // A call on B evicts A: unsubscribed, its vigil retired.
    const unsubscribed = once(owner.armed, 'unsubscribed') as Promise<[Brain]>;
    assert.equal((await call(sb, 'remember', { text: 'two' })).isError, undefined);
    assert.equal((await unsubscribed)[0], first);
    assert.equal(owner.armed.has(first.id), false);
    assert.deepEqual(owner.brains.openBrains().map((x) => x.id), [sb.peekBrain()!.id]);

    // The next call on A re-arms it: a new open brain, subscribed again, ticking on traffic.
    const again = once(owner.armed, 'subscribed') as Promise<[Brain]>;
    a.write('src/second.ts', 'export function secondEdit() {}\n');
    assert.equal((await call(sa, 'remember', { text: 'three' })).isError, undefined);
    const [reopened] = await again;
    assert.equal(reopened.id, first.id);
    assert.notEqual(reopened, first);
    assert.equal(owner.armed.has(first.id), true);
    const tick2 = (await once(owner.vigils.get(reopened), 'tick')) as [TickOutcome];
    assert.ok(tick2[0].ok && tick2[0].report.drained >= 1, JSON.stringify(tick2[0]));
  } finally {
    await owner.close();
    await a.cleanup();
    await b.cleanup();
    await home.cleanup();
  }
});

test('the LRU keeps the most recently used brains open, up to --max-brains', async () => {
  const home = await makeTempDir('gardener-home-');
  const repos = await Promise.all([1, 2, 3].map((i) => makeGitRepo(sourceFiles(1, `r${i}/f`))));
  const owner = new OwnerBrains({ home: home.dir, maxBrains: 2, maxThreads: 1, log: createLogger('silent') });
  try {
    const ids = [];
    for (const r of repos) ids.push((await owner.brains.ensure(r.dir)).brain.id);
    assert.deepEqual(owner.brains.openBrains().map((x) => x.id), [ids[1], ids[2]]);
    owner.brains.resolve(repos[1]!.dir);
    assert.deepEqual(owner.brains.openBrains().map((x) => x.id), [ids[2], ids[1]], 'a resolve makes it most recent');
    assert.throws(() => new OwnerBrains({ home: home.dir, maxBrains: 0, log: createLogger('silent') }), /maxOpen must be a positive integer, got 0/);
  } finally {
    await owner.close();
    for (const r of repos) await r.cleanup();
    await home.cleanup();
  }
});
