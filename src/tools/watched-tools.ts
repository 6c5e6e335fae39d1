/**
 * Late-armed verbs, for a folder that resolves to a brain: they are listed only once the
 * folder probe says so (appended at the tail). `changes` also needs a git work tree.
 * A folder unwatched later keeps them listed; they then answer with a clear refusal.
 */
import { z } from 'zod';
import { defineTool } from '../dispatch/index.js';
import { READ_ONLY } from './answer-schemas.js';
import { InvalidArgumentError } from '../errors.js';
import { listRoots, readVigil, compareWithMap } from '../store/index.js';
import { daemonView } from './daemon-view.js';
import { freshnessOf } from './freshness.js';
import { loadGardenerIgnore } from '../detect/index.js';

export const daemonStartTool = defineTool({
  name: 'daemon_start',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  description: "Arm this folder's brain: tool traffic advances its freshness (persisted in the brain's store).",
  traffic: 'skip',
  late: 'watched',
  input: z.object({}).strict(),
  handler: async (_args, { session }) => {
    const brain = session.requireBrain();
    const v = await brain.writer.setArmed(true, Date.now());
    await session.watch.armedChanged(brain, true);
    return daemonView(brain, v, session.watch.backendOf(brain.id));
  },
});

export const daemonStopTool = defineTool({
  name: 'daemon_stop',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  description: "Disarm this folder's brain.",
  traffic: 'skip',
  late: 'watched',
  input: z.object({}).strict(),
  handler: async (_args, { session }) => {
    const brain = session.requireBrain();
    const v = await brain.writer.setArmed(false, Date.now());
    await session.watch.armedChanged(brain, false);
    return daemonView(brain, v, session.watch.backendOf(brain.id));
  },
});

export const daemonStatusTool = defineTool({
  name: 'daemon_status',
  annotations: READ_ONLY,
  description: "Whether this folder's brain is armed, and how fresh it honestly is.",
  traffic: 'skip',
  late: 'watched',
  input: z.object({}).strict(),
  handler: async (_args, { session }) => {
    const brain = session.requireBrain();
    return daemonView(brain, readVigil(brain.reader), session.watch.backendOf(brain.id));
  },
});

/** Most paths `changes` lists; the count stays exact. */
export const MAX_CHANGES_LISTED = 1000;

export const changesTool = defineTool({
  name: 'changes',
  annotations: READ_ONLY,
  description: 'Files changed since the last tick (or since a git ref), and whether each is still pending re-ingest.',
  traffic: 'tick',
  late: 'git',
  input: z.object({ since: z.string().min(1).max(200).regex(/^[\w./@^~{}][\w./@^~{}-]*$/, 'since must be a git ref or commit').optional() }).strict(),
  // Thin on purpose: every git runs in the pool's detect worker under the call's signal (a
  // cancel kills it), and the comparison with the map is the store's (store/changes.ts).
  // Detection keeps out what the root's `.gardenerignore` names, as it does for the map. It
  // lists every file (an inventory) when the rules' fingerprint is not the one it is handed:
  // since the last tick, that is the map's (rules changed since then: newly un-ignored files
  // are pending); since a ref, it is the rules' own, so the answer is git's diff, never the
  // whole root.
  handler: async ({ since }, { session, signal }) => {
    const brain = session.requireBrain();
    const out: { root: string; path: string; deleted: boolean; pending: boolean }[] = [];
    let total = 0;
    for (const root of listRoots(brain.reader)) {
      if (root.backend === 'stat') continue;
      const sinceRef = since ? await brain.pool.resolveCommit(root.path, since, signal) : root.sinceRef;
      if (sinceRef === null && since) throw new InvalidArgumentError(`since: "${since}" is not a commit in ${root.path}`);
      const ignoreFingerprint = since ? (await loadGardenerIgnore(root.path)).fingerprint : root.ignoreFingerprint;
      const detected = await brain.pool.detect(
        { root: root.path, backend: 'git', sinceRef, recheck: root.dirty, skip: brain.skipFor(root.path), ignoreFingerprint, ...(root.notesDir === null ? {} : { notesDir: root.notesDir }) },
        signal,
      );
      for (const c of compareWithMap(brain.reader, root.id, detected.entries)) {
        // Without `since`, only what moved after the last tick counts as a change.
        if (!since && !c.pending) continue;
        total++;
        if (out.length < MAX_CHANGES_LISTED) out.push({ root: root.path, ...c });
      }
    }
    return { since: since ?? 'the last tick', total, changes: out, freshness: freshnessOf(brain, out.filter((c) => c.pending).map((c) => c.path)) };
  },
});
