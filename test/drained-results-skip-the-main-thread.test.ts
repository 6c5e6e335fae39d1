/**
 * A drain's results go from the pool thread that made them to the store writer on a channel of
 * their own: the main thread, which serves agents, schedules the batches but never receives a
 * file's text or its definitions (it used to take each batch in and clone it out again, a
 * quarter of its CPU during a 1000-file drain).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains, sourceFiles } from './helpers/brains.js';
import { runTick } from '../src/vigil/index.js';
import { readStatus } from '../src/store/index.js';
import { seek } from '../src/ranking/index.js';
import type { Brain } from '../src/brain/index.js';

/** Every object in `value` that carries a file's text or serialised definitions. */
function fileContents(value: unknown, found: string[] = [], seen = new Set<unknown>()): string[] {
  if (value === null || typeof value !== 'object' || seen.has(value)) return found;
  seen.add(value);
  const o = value as Record<string, unknown>;
  if (o.text instanceof Uint8Array || typeof o.text === 'string' || 'symbolsJson' in o || 'refsText' in o) found.push(String(o.path));
  for (const v of Array.isArray(value) ? value : Object.values(o)) fileContents(v, found);
  return found;
}

/** The brain, with every answer its pool gives the main thread recorded. */
function recordingPool(brain: Brain, answers: unknown[]): Brain {
  const pool = new Proxy(brain.pool, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const out = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (out instanceof Promise) return out.then((v) => (answers.push(v), v));
        return out;
      };
    },
  });
  return new Proxy(brain, {
    get(target, prop) {
      if (prop === 'pool') return pool;
      const value = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

test("a drained file's text and definitions reach the store without passing through the main thread", async () => {
  const repo = await makeGitRepo(sourceFiles(3));
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    for (const [p, c] of Object.entries(sourceFiles(70, 'burst/b'))) repo.write(p, c);
    const answers: unknown[] = [];
    const r = await runTick(recordingPool(brain, answers), { maxFiles: 16 });
    assert.equal(r.drained, 70);
    assert.ok(r.batches >= 5, `70 files in batches of 16 (${r.batches} batches)`);
    assert.deepEqual(fileContents(answers), [], 'no file text or definitions in what the pool answered the main thread');
    assert.equal(readStatus(brain.reader).files, 73);
    assert.equal(seek(brain.reader, 'fn69')[0]?.path, 'burst/b69.ts', 'the definitions reached the map');
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});
