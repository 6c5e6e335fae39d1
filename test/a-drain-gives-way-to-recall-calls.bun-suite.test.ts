/**
 * While the main thread answers a recall call, the pool threads that hash and extract a drain
 * wait between files (src/pool/request-gate.ts), for a bounded time: a query never shares a
 * core with the pool, and a stream of queries slows a drain but never stops it. Only recall
 * calls enter the gate: a call that waits on the pool itself must not park it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { z } from 'zod';
import { dispatchTool, type ToolContext, type ToolDef } from '../src/dispatch/index.js';
import { RequestGate, requestGate } from '../src/pool/request-gate.js';
import { WorkerPool } from '../src/pool/worker-pool.js';
import type { HashExtractTask } from '../src/ingest/types.js';

const FILES = 3;

function folderOfFiles(): { dir: string; task: HashExtractTask } {
  const dir = mkdtempSync(join(tmpdir(), 'gardener-gate-'));
  const items = [];
  for (let i = 0; i < FILES; i++) {
    writeFileSync(join(dir, `f${i}.ts`), `export function fn${i}() { return ${i}; }\n`);
    items.push({ id: i + 1, rootId: 1, path: `f${i}.ts`, knownHash: null });
  }
  return { dir, task: { roots: { 1: dir }, items, maxIndexBytes: 1 << 20 } as HashExtractTask };
}

/** Resolves once `ready()` holds, checking between turns of the event loop (no fixed sleep). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe('a drain gives way to recall calls', () => {
  const folders: string[] = [];
  after(() => {
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  /** A one-thread pool behind its own gate of `maxWaitMs`, and a task of FILES files; the pool is closed after. */
  async function withGatedPool(maxWaitMs: number, body: (gate: RequestGate, pool: WorkerPool, task: HashExtractTask) => Promise<void>): Promise<void> {
    const gate = new RequestGate(maxWaitMs);
    const pool = new WorkerPool({ maxThreads: 1, gate });
    const { dir, task } = folderOfFiles();
    folders.push(dir);
    try {
      await body(gate, pool, task);
    } finally {
      await pool.close();
    }
  }

  it('a hash batch waits while a recall call is in flight and goes on when it ends', () =>
    withGatedPool(600_000, async (gate, pool, task) => {
      gate.enter();
      let done = false;
      const batch = pool.hashExtract(task).then((out) => ((done = true), out));
      await until(() => gate.waits >= 1 || done);
      // The thread is parked in the gate (its bound is ten minutes away): the batch cannot be done.
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(done, false, 'the batch went on while a recall call was in flight');
      assert.equal(gate.waits, 1);
      gate.leave();
      const { results } = await batch;
      assert.deepEqual(results.map((r) => r.status), Array(FILES).fill('ingested'));
      assert.equal(gate.waits, 1, 'one wait, then the files went through');
    }));

  it('with no recall call in flight, a batch never waits', () =>
    withGatedPool(600_000, async (gate, pool, task) => {
      const { results } = await pool.hashExtract(task);
      assert.equal(results.length, FILES);
      assert.equal(gate.waits, 0);
    }));

  it('a call that never leaves slows a batch by the bound per file, never stops it', () =>
    withGatedPool(1, async (gate, pool, task) => {
      gate.enter();
      try {
        const { results } = await pool.hashExtract(task);
        assert.deepEqual(results.map((r) => r.status), Array(FILES).fill('ingested'));
        assert.equal(gate.waits, FILES, 'each file waited its bound, then went through');
      } finally {
        gate.leave();
      }
    }));

  it('the gate refuses a bound that is not a whole number of ms', () => {
    assert.throws(() => new RequestGate(-1), { code: 'GDN_INVALID_ARGUMENT', message: /maxWaitMs/ });
    assert.throws(() => new RequestGate(1.5), { code: 'GDN_INVALID_ARGUMENT', message: /maxWaitMs/ });
  });

  it('a recall call runs inside the process gate; calls that tick or wait on the pool do not', async () => {
    const seen: Record<string, number> = {};
    const probe = (name: string, traffic: ToolDef['traffic']): ToolDef => ({
      name,
      description: name,
      input: z.object({}),
      traffic,
      handler: async () => (seen[name] = requestGate.inFlight),
    });
    const tools = new Map([probe('r', 'recall'), probe('h', 'heavy'), probe('t', 'tick'), probe('s', 'skip')].map((t) => [t.name, t]));
    const ctx = { session: { trafficTick: () => {} }, signal: new AbortController().signal, progress: () => {} } as unknown as ToolContext;
    const failing: ToolDef = { ...probe('x', 'recall'), handler: async () => { throw new Error('boom'); } };
    tools.set('x', failing);
    for (const name of ['r', 'h', 't', 's', 'x']) await dispatchTool(tools, name, {}, ctx);
    assert.deepEqual(seen, { r: 1, h: 0, t: 0, s: 0 });
    assert.equal(requestGate.inFlight, 0, 'every call left the gate, the one that threw too');
  });
});
