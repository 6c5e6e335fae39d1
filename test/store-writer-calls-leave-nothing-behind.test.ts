/**
 * A writer call's answer is the caller's alone: once the call is done, nothing of the client
 * keeps it. Every call raced the writer's death (a promise that settles only if the worker dies),
 * and each race left a reaction on that promise holding the race's answer: an owner kept every
 * answer of every writer call for the life of the writer (the 30-minute soak: 2,195 reactions on
 * one brain's death promise after 17 minutes, the main heap rising about 4 MB per 10 minutes).
 * The answers are watched with WeakRefs after a full collection.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { makeTempDir } from './helpers/git-repo.js';
import { StoreWriterClient } from '../src/pool/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A full collection in a later turn (a WeakRef made in this turn holds its target until it ends). */
async function collected(): Promise<void> {
  await new Promise((r) => setImmediate(r));
  gc();
  await new Promise((r) => setImmediate(r));
  gc();
}

test("a writer call's answer is not kept by the client once the call is done", async () => {
  const temp = await makeTempDir();
  const client = new StoreWriterClient(join(temp.dir, 'brain.db'));
  try {
    await client.api.ensureRoot(temp.dir, 1);
    const answers: WeakRef<object>[] = [];
    for (let i = 0; i < 20; i++) answers.push(new WeakRef(await client.api.listRoots()));
    await collected();
    const kept = answers.filter((a) => a.deref() !== undefined).length;
    assert.equal(kept, 0, `${kept} of ${answers.length} answers are still held`);
    assert.equal((await client.api.listRoots()).length, 1, 'the writer still answers');
  } finally {
    await client.close();
    await temp.cleanup();
  }
});
