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

export async function measureMcp(ctx: BenchContext, brains: Brains, tempDir: string): Promise<McpResult> {
  const notMeasured: string[] = [];
  let initialize: InitializeResult | null = null;
  let seek: SeekResult | null = null;
  let refs: RefsResult | null = null;
  let owner: OwnerResult | null = null;
  ctx.log('MCP: cold initialize against a minimal SDK stdio server, then server-side seek');
  const t0 = performance.now();
  try {
    initialize = await measureInitialize({ dir: join(tempDir, 'mcp'), repoDir: ctx.repo.dir, home: brains.home, log: ctx.log });
  } catch (err) {
    notMeasured.push(`initialize: ${(err as Error).message}`);
    ctx.log(`initialize not measured: ${(err as Error).message}`);
  }
  try {
    seek = await measureSeek(ctx, brains);
  } catch (err) {
    notMeasured.push(`seek: ${(err as Error).message}`);
    ctx.log(`seek not measured: ${(err as Error).message}`);
  }
  try {
    refs = await measureRefs(ctx, brains);
  } catch (err) {
    notMeasured.push(`refs: ${(err as Error).message}`);
    ctx.log(`refs not measured: ${(err as Error).message}`);
  }
  try {
    owner = await measureOwner(ctx, brains.home);
  } catch (err) {
    notMeasured.push(`owner: ${(err as Error).message}`);
    ctx.log(`owner not measured: ${(err as Error).message}`);
  }
  ctx.log(`MCP part took ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { initialize, seek, refs, owner, notMeasured };
}
