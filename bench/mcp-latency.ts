/**
 * The MCP part of the bench (`--no-mcp` skips it): cold `initialize` of `gardener mcp` beside a
 * minimal SDK server, the same with a parked git, and server-side `seek` latency idle and
 * during a drain. Each half that cannot be measured on this runtime or machine is reported as
 * not measured with its reason, rather than failing the bursts' numbers with it.
 */
import { join } from 'node:path';
import type { Brains } from '../src/brain/index.js';
import { measureInitialize, type InitializeResult } from './mcp-initialize.js';
import { measureSeek, type SeekResult } from './seek-latency.js';
import { measureOwner, type OwnerResult } from './owner.js';
import { measureRefs, type RefsResult } from './refs-latency.js';
import type { BenchContext } from './tick-burst.js';

export interface McpResult {
  initialize: InitializeResult | null;
  seek: SeekResult | null;
  /** Server-side `refs` and `impact` latency (refs-latency.ts). */
  refs: RefsResult | null;
  /** The owner (`gardener serve`) measured from outside; see owner.ts. */
  owner: OwnerResult | null;
  /** Why a half is missing: one line each, naming the half. */
  notMeasured: string[];
}

/**
 * Measures the MCP part. `quick` (the quick bench: `gardener bench`, `npm start`) measures
 * initialize and seek only, whose ratios are judged; refs/impact and the owner (a minute of idle
 * CPU among them) are the full bench's, and are named as not measured with `quickReason`.
 */
export async function measureMcp(ctx: BenchContext, brains: Brains, tempDir: string, quick?: { reason: string }): Promise<McpResult> {
  const notMeasured: string[] = quick ? [`refs: ${quick.reason}`, `owner: ${quick.reason}`] : [];
  /** One half: its result, or null with the reason it could not be measured. */
  const attempt = async <T>(name: string, measure: () => Promise<T>): Promise<T | null> => {
    try {
      return await measure();
    } catch (err) {
      notMeasured.push(`${name}: ${(err as Error).message}`);
      ctx.log(`${name} not measured: ${(err as Error).message}`);
      return null;
    }
  };
  ctx.log(`MCP${quick ? ' (quick)' : ''}: cold initialize against a minimal SDK stdio server, then server-side seek`);
  const t0 = performance.now();
  const initialize = await attempt('initialize', () => measureInitialize({ dir: join(tempDir, 'mcp'), repoDir: ctx.repo.dir, home: brains.home, log: ctx.log }));
  const seek = await attempt('seek', () => measureSeek(ctx, brains));
  const refs = quick ? null : await attempt('refs', () => measureRefs(ctx, brains));
  const owner: OwnerResult | null = quick ? null : await attempt('owner', () => measureOwner(ctx, brains.home));
  ctx.log(`MCP part took ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { initialize, seek, refs, owner, notMeasured };
}
