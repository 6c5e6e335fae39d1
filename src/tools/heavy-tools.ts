/**
 * Heavy verbs: they ingest anyway, so they skip the inline traffic tick. Each runs its own tick
 * through the brain's vigil (still one tick at a time), reports progress when asked, and stops
 * between batches when the caller cancels (nothing is lost: the backlog keeps the rest).
 */
import { z } from 'zod';
import { pathArg } from './input-bounds.js';
import { defineTool, type ToolContext } from '../dispatch/index.js';
import { GardenerError } from '../errors.js';
import { checkFolder, type Brain } from '../brain/index.js';
import type { TickOptions, TickReport } from '../vigil/index.js';

async function tickFor(brain: Brain, ctx: ToolContext, what: string, options: TickOptions): Promise<TickReport> {
  const outcome = await ctx.session.vigils.get(brain).run({
    ...options,
    signal: ctx.signal,
    onProgress: (done, total) => ctx.progress(done, total, `${what}: ${done}/${total} files`),
  });
  if (!outcome.ok) throw new GardenerError(outcome.error.code, `${what} of brain ${brain.id} did not finish: ${outcome.error.message}`);
  return outcome.report;
}

const summary = (r: TickReport) => ({
  detected: r.detected,
  drained: r.drained,
  batches: r.batches,
  detect_ms: Math.round(r.detectMs),
  drain_ms: Math.round(r.drainMs),
  backlog_left: r.backlogLeft,
  backend: r.backend,
  ...(r.fallback ? { fallback: r.fallback } : {}),
  ...(r.busyOwnerPid ? { busy_owner_pid: r.busyOwnerPid, note: 'another process is ticking this brain; it will finish the work' } : {}),
});

export const ingestTool = defineTool({
  name: 'ingest',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  description: 'Create or refresh the brain for a folder (default: the session folder) and anchor the session to it.',
  traffic: 'heavy',
  input: z.object({ path: pathArg().optional() }).strict(),
  handler: async ({ path }, ctx) => {
    const folder = checkFolder(path ?? ctx.session.anchor, ctx.session.anchor);
    const { brain, created, root } = await ctx.session.brains.ensure(folder);
    const report = await tickFor(brain, ctx, 'ingest', { inventory: true });
    ctx.session.anchorTo(folder);
    return { brain: brain.id, root, created, ...summary(report) };
  },
});

export const scanTool = defineTool({
  name: 'scan',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  description: 'Detect and drain changes now (optionally re-checking given paths); returns what changed.',
  traffic: 'heavy',
  input: z.object({ paths: z.array(pathArg()).max(10_000).optional() }).strict(),
  handler: async ({ paths }, ctx) => {
    const brain = ctx.session.requireBrain();
    const recheck: Record<string, string[]> = {};
    for (const p of paths ?? []) {
      const { root, rel } = ctx.session.resolvePath(brain, p);
      (recheck[root] ??= []).push(rel);
    }
    const report = await tickFor(brain, ctx, 'scan', { recheck, collectChanges: true });
    return { brain: brain.id, ...summary(report), changed: report.changed ?? [] };
  },
});

export const scanAllTool = defineTool({
  name: 'scan_all',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  description: 'Scan every brain this process knows.',
  traffic: 'heavy',
  input: z.object({}).strict(),
  handler: async (_args, ctx) => {
    const results = [];
    for (const brain of ctx.session.brains.all()) {
      try {
        results.push({ brain: brain.id, ...summary(await tickFor(brain, ctx, 'scan', {})) });
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        results.push({ brain: brain.id, error: (err as Error).message });
      }
    }
    return { brains: results };
  },
});
