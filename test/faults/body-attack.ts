/**
 * What the body fault tests (deep-bodies, wide-bodies) share: a real `gardener serve` with an
 * ingested repository, a client that times REST `seek`, and rounds of an attack sent by
 * body-sender.js (a process of its own) while that client seeks, seek after seek.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeGitRepo, makeTempDir } from '../helpers/git-repo.js';
import { sourceFiles } from '../helpers/brains.js';
import { startServe, type ServeProcess } from '../helpers/owner.js';

const SENDER = fileURLToPath(new URL('./body-sender.js', import.meta.url));
/** Bodies sent at once in a round (the number). */
export const BODIES_AT_ONCE = 32;
/** Another client's seek p99 during the attack may not pass this, in ms (the bound). */
export const SEEK_P99_BOUND_MS = 250;
/** The owner's RSS once the bodies are answered, in MB (the bound). */
export const RSS_BOUND_MB = 300;
/** Quiet seeks before the attack: a baseline for the figures. */
const QUIET_SEEKS = 20;

export interface Answer {
  status: number;
  body: string;
}

export interface Round {
  ms: number;
  answers: Answer[];
}

export interface BodyAttackFixture {
  owner: ServeProcess;
  /** Quiet seek times before any attack, in ms. */
  quiet: number[];
  /** One round of `kind` bodies; the seeks started once they were on their way go into `during`. */
  round(kind: 'deep' | 'wide' | 'heavy', during: number[]): Promise<Round>;
}

export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

export async function withBodyAttack(fn: (f: BodyAttackFixture) => Promise<void>): Promise<void> {
  const home = await makeTempDir('gardener-home-');
  const repo = await makeGitRepo(sourceFiles(20));
  const owner = await startServe(home.dir);
  try {
    const url = owner.ready.url!;
    const token = readFileSync(join(home.dir, 'token'), 'utf8').trim();
    const call = async (name: string, args: unknown): Promise<{ status: number; value: unknown }> => {
      const r = await fetch(`${url}/api/tools/${name}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-gardener-folder': repo.dir },
        body: JSON.stringify(args),
      });
      return { status: r.status, value: await r.json() };
    };
    const ingest = await call('ingest', {});
    assert.equal(ingest.status, 200, JSON.stringify(ingest.value));
    const timedSeek = async (): Promise<number> => {
      const t0 = performance.now();
      const r = await call('seek', { query: 'fn7' });
      assert.equal(r.status, 200, JSON.stringify(r.value));
      return performance.now() - t0;
    };
    const quiet: number[] = [];
    for (let i = 0; i < QUIET_SEEKS; i++) quiet.push(await timedSeek());
    const round = async (kind: string, during: number[]): Promise<Round> => {
      const sender = spawn(process.execPath, [SENDER, url, token, repo.dir, String(BODIES_AT_ONCE), kind], { stdio: ['ignore', 'pipe', 'inherit'] });
      const exited = once(sender, 'exit');
      let sendingAt: number | null = null;
      let done: Round | null = null;
      let partial = '';
      sender.stdout.setEncoding('utf8');
      sender.stdout.on('data', (d: string) => {
        partial += d;
        let nl;
        while ((nl = partial.indexOf('\n')) !== -1) {
          const line = JSON.parse(partial.slice(0, nl)) as { event: string } & Round;
          partial = partial.slice(nl + 1);
          if (line.event === 'sending') sendingAt = performance.now();
          else done = line;
        }
      });
      let gone = false;
      void exited.then(() => (gone = true));
      while (done === null && !gone) {
        const startedAt = performance.now();
        const ms = await timedSeek();
        if (sendingAt !== null && startedAt >= sendingAt) during.push(ms);
      }
      const [code] = await exited;
      assert.equal(code, 0, 'the sender ran to the end');
      assert.ok(done, 'the sender reported its answers');
      return done;
    };
    await fn({ owner, quiet, round });
  } finally {
    await owner.stop();
    await repo.cleanup();
    await home.cleanup();
  }
}
