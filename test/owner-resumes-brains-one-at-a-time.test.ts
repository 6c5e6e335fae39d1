import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResumeQueue } from '../src/owner/resume-queue.js';

/** A resume tick the test ends by hand: records when it started, resolves when released. */
function gatedTicks() {
  const started: string[] = [];
  const release = new Map<string, () => void>();
  let running = 0;
  let most = 0;
  const tick = (id: string) => () => {
    started.push(id);
    running++;
    most = Math.max(most, running);
    return new Promise<void>((r) => release.set(id, () => {
      running--;
      r();
    }));
  };
  const next = async (id: string) => {
    while (!release.has(id)) await new Promise((r) => setImmediate(r));
    release.get(id)!();
    release.delete(id);
  };
  return { started, tick, next, most: () => most };
}

test('armed brains resume one at a time, brains with saved work first, each once', async () => {
  const q = new ResumeQueue(() => {});
  const g = gatedTicks();
  q.add('a', false, g.tick('a'));
  q.add('b', false, g.tick('b'));
  q.add('c', true, g.tick('c'));
  q.add('b', true, g.tick('b')); // already waiting: keeps its place, never twice
  q.add('d', true, g.tick('d'));
  assert.deepEqual(g.started, ['a'], 'one tick at a time: the first runs, the rest wait');
  await g.next('a');
  await g.next('c');
  await g.next('d');
  await g.next('b');
  await q.idle();
  assert.deepEqual(g.started, ['a', 'c', 'd', 'b'], 'saved work (c, d) before detection-only brains (b)');
  assert.equal(g.most(), 1);
});

test('a brain no longer watched is dropped from the queue', async () => {
  const q = new ResumeQueue(() => {});
  const g = gatedTicks();
  q.add('a', false, g.tick('a'));
  q.add('b', false, g.tick('b'));
  q.add('c', false, g.tick('c'));
  q.drop('b');
  await g.next('a');
  await g.next('c');
  await q.idle();
  assert.deepEqual(g.started, ['a', 'c']);
});

test('close joins the running resume tick and drops the waiting ones; nothing starts after it', async () => {
  const q = new ResumeQueue(() => {});
  const g = gatedTicks();
  q.add('a', false, g.tick('a'));
  q.add('b', true, g.tick('b'));
  let closed = false;
  const closing = q.close().then(() => (closed = true));
  await new Promise((r) => setImmediate(r));
  assert.equal(closed, false, 'close waits for the running tick');
  await g.next('a');
  await closing;
  q.add('c', true, g.tick('c'));
  await q.idle();
  assert.deepEqual(g.started, ['a']);
});

test('a resume tick that throws is reported and the next brain still resumes', async () => {
  const failed: string[] = [];
  const q = new ResumeQueue((id, err) => failed.push(`${id}: ${err.message}`));
  let ran = false;
  q.add('a', false, async () => {
    throw new Error('boom');
  });
  q.add('b', false, async () => {
    ran = true;
  });
  await q.idle();
  assert.deepEqual(failed, ['a: boom']);
  assert.ok(ran);
});
