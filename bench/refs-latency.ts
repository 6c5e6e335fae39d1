/**
 * `refs` and `impact` as the server runs them, on the bench's brain (the same path as
 * seek-latency.ts: `dispatchTool` with a Session over the bench's Brains, plus the JSON text
 * the stdio server sends). `refs` is asked for names declared in the generated sources, and
 * `impact` (depth 2, the default) for files of the repository, both drawn with a fixed seed.
 * Each call is timed alone, idle, after a few unmeasured calls that warm the statements and the
 * code graph's per-connection memo (as a running server has them).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Brains } from '../src/brain/index.js';
import { dispatchTool, type ToolContext } from '../src/dispatch/index.js';
import { FolderProbe } from '../src/probe/index.js';
import { Session } from '../src/session/index.js';
import { TOOLS } from '../src/tools/index.js';
import { Vigils } from '../src/vigil/index.js';
import { Rng, seedOf } from './fixtures/source-files.js';
import { percentile, type LatencyStats } from './seek-latency.js';
import type { BenchContext } from './tick-burst.js';

/** Calls timed per verb. */
export const REFS_CALLS = 100;
const WARMUP_CALLS = 10;
const NAME_SOURCE_FILES = 64;
const DECLARATION = /\b(?:function|class|interface|def|fn|func|struct|trait)\s+(?:\([^)]*\)\s*)?([A-Za-z_][A-Za-z0-9_]{2,})/g;

export interface RefsResult {
  refs: LatencyStats;
  impact: LatencyStats;
  /** Mean files listed per answer: what the calls had to say. */
  refsFiles: number;
  impactFiles: number;
}

function stats(values: readonly number[]): LatencyStats {
  return { p50: percentile(values, 50), p99: percentile(values, 99), max: Math.max(...values), samples: values.length };
}

export async function measureRefs(ctx: BenchContext, brains: Brains): Promise<RefsResult> {
  const { repo, log } = ctx;
  const rng = new Rng(seedOf(repo.seed, 'refs'));
  const names = new Set<string>();
  for (let i = 0; i < Math.min(NAME_SOURCE_FILES, repo.files.length); i++) {
    const text = readFileSync(join(repo.dir, rng.pick(repo.files).path), 'utf8');
    for (const m of text.matchAll(DECLARATION)) names.add(m[1]!);
  }
  const nameList = [...names];
  if (nameList.length === 0) throw new Error('bench: found no declared names for refs in the generated sources');
  const vigils = new Vigils({ log: () => {} });
  const probe = new FolderProbe({ resolveBrain: async () => null });
  const session = new Session({ folder: repo.dir, brains, vigils, probe, tools: TOOLS, log });
  const toolCtx: ToolContext = { session, signal: new AbortController().signal, progress: () => {} };
  let listed = 0;
  const time = async (tool: string, args: Record<string, unknown>): Promise<number> => {
    const t0 = performance.now();
    const result = await dispatchTool(session.toolsByName, tool, args, toolCtx);
    const text = JSON.stringify(result.value);
    const ms = performance.now() - t0;
    if (result.isError) throw new Error(`bench: ${tool} ${JSON.stringify(args)} failed: ${text}`);
    const v = result.value as { references?: unknown[]; files?: unknown[] };
    listed += (v.references ?? v.files ?? []).length;
    return ms;
  };
  try {
    const refsArgs = Array.from({ length: REFS_CALLS }, () => ({ name: rng.pick(nameList) }));
    const impactArgs = Array.from({ length: REFS_CALLS }, () => ({ path: join(repo.dir, rng.pick(repo.files).path) }));
    for (let i = 0; i < WARMUP_CALLS; i++) {
      await time('refs', refsArgs[i]!);
      await time('impact', impactArgs[i]!);
    }
    listed = 0;
    const refsMs: number[] = [];
    for (const a of refsArgs) refsMs.push(await time('refs', a));
    const refsFiles = listed / REFS_CALLS;
    listed = 0;
    const impactMs: number[] = [];
    for (const a of impactArgs) impactMs.push(await time('impact', a));
    const result: RefsResult = { refs: stats(refsMs), impact: stats(impactMs), refsFiles, impactFiles: listed / REFS_CALLS };
    log(
      `refs (server side, ${REFS_CALLS} names): p50 ${result.refs.p50.toFixed(2)} ms, p99 ${result.refs.p99.toFixed(2)} ms, ${refsFiles.toFixed(1)} files each; ` +
        `impact depth 2 (${REFS_CALLS} files): p50 ${result.impact.p50.toFixed(2)} ms, p99 ${result.impact.p99.toFixed(2)} ms, ${result.impactFiles.toFixed(1)} files each`,
    );
    return result;
  } finally {
    await session.close();
    await probe.close();
    await vigils.close();
  }
}
