/**
 * The skeleton's verbs. `skeleton` is a recall verb (reads, never ticks); `skeleton_candidate`
 * is heavy (it runs its own tick, so the proposal reads a current map); the edits, the ratify
 * and the lease tick like every other verb. Writes go through the brain's store writer, keyed
 * on the `store_version` the caller read: a stale one is refused with the current version.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { defineTool } from '../dispatch/index.js';
import { READ_ONLY } from './answer-schemas.js';
import type { Session } from '../session/index.js';
import { MAX_LEASE_TTL_S, skeletonView, unrefused, type SkeletonEdit } from '../skeleton/index.js';

/** Default candidate lease, in seconds: an editing session of a few minutes. */
export const DEFAULT_LEASE_TTL_S = 600;

/** Who holds a lease: one id per session, so two agents on one owner are told apart. */
const holders = new WeakMap<Session, string>();
function holderOf(session: Session): string {
  let id = holders.get(session);
  if (!id) holders.set(session, (id = `session-${randomUUID().slice(0, 8)}`));
  return id;
}

const storeVersion = z.number({ required_error: 'store_version is required: pass the store_version you read with `skeleton`' })
  .int('store_version must be a whole number').min(0, 'store_version must be 0 or more');
const roomName = z.string().min(1, 'a room name must not be empty').max(64, 'a room name is at most 64 characters');
const globs = z.array(z.string().min(1, 'a glob must not be empty')).min(1, 'give at least one glob').max(500);

const edit = z.discriminatedUnion('op', [
  z.object({ op: z.literal('rename'), room: roomName, to: roomName }).strict(),
  z.object({ op: z.literal('merge'), rooms: z.array(roomName).min(2, 'name at least two rooms to merge'), into: roomName }).strict(),
  z.object({ op: z.literal('split'), room: roomName, into: z.array(z.object({ name: roomName, globs, purpose: z.string().optional() }).strict()).min(1) }).strict(),
  z.object({ op: z.literal('move_globs'), globs, to: roomName }).strict(),
  z.object({ op: z.literal('set_purpose'), room: roomName, purpose: z.string() }).strict(),
  z.object({ op: z.literal('set_may_use'), room: roomName, may_use: z.array(roomName).nullable() }).strict(),
  z.object({ op: z.literal('add_room'), name: roomName, globs, purpose: z.string().optional(), may_use: z.array(roomName).nullable().optional(), before: roomName.optional() }).strict(),
  z.object({ op: z.literal('remove_room'), room: roomName }).strict(),
]);

export const skeletonTool = defineTool({
  name: 'skeleton',
  annotations: READ_ONLY,
  description: 'The architecture map: rooms (globs, purpose, may_use) with their files, key symbols, imports between rooms, files in no room and imports breaking may_use; plus store_version and when it was last reconciled. Default: the ratified skeleton, else the candidate.',
  traffic: 'recall',
  input: z.object({ which: z.enum(['auto', 'ratified', 'candidate']).default('auto') }).strict(),
  handler: async ({ which }, { session }) => skeletonView(session.requireBrain().reader, which),
});

export const skeletonCandidateTool = defineTool({
  name: 'skeleton_candidate',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  description: 'Propose a candidate skeleton from the code map (folders refined by the import graph; purposes drafted), replacing any candidate; from: "ratified" starts one from the ratified skeleton instead. Returns it with its store_version.',
  traffic: 'heavy',
  input: z.object({ from: z.enum(['code', 'ratified']).default('code') }).strict(),
  handler: async ({ from }, ctx) => {
    const brain = ctx.session.requireBrain();
    if (from === 'code') {
      // Heavy: a proposal reads a current map, so this runs its own tick first (fail-open: a
      // failed tick leaves the map as it was, and the proposal still comes from it).
      await ctx.session.vigils.get(brain).run({ signal: ctx.signal, onProgress: (done, total) => ctx.progress(done, total, `scan: ${done}/${total} files`) });
    }
    unrefused(await brain.writer.skeletonPropose(Date.now(), from));
    return skeletonView(brain.reader, 'candidate');
  },
});

export const candidateLeaseTool = defineTool({
  name: 'candidate_lease',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  description: 'An advisory lease on editing the candidate skeleton: take, renew or release it. It never blocks anyone; if someone else holds it you are told who and until when. The auto-reconciler yields while it is held.',
  traffic: 'tick',
  input: z.object({
    action: z.enum(['take', 'renew', 'release']),
    ttl_s: z.number().int('ttl_s must be a whole number of seconds')
      .min(1, `ttl_s must be from 1 to ${MAX_LEASE_TTL_S} seconds`).max(MAX_LEASE_TTL_S, `ttl_s must be from 1 to ${MAX_LEASE_TTL_S} seconds`)
      .default(DEFAULT_LEASE_TTL_S),
  }).strict(),
  handler: async ({ action, ttl_s }, { session }) => {
    const brain = session.requireBrain();
    const me = holderOf(session);
    const lease = unrefused(await brain.writer.skeletonLease(action, me, ttl_s, Date.now()));
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return { ...lease, until: iso(lease.until), you: me };
  },
});

export const skeletonEditTool = defineTool({
  name: 'skeleton_edit',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  description: 'Edit the candidate skeleton (rename, merge, split by globs, move_globs, set_purpose, set_may_use, add_room, remove_room), applied in order as one change keyed on the store_version you read. Overlapping globs: the first room in the list wins. Returns the new candidate and store_version.',
  traffic: 'tick',
  input: z.object({ store_version: storeVersion, edits: z.array(edit).min(1, 'give at least one edit').max(50, 'at most 50 edits per call') }).strict(),
  handler: async ({ store_version, edits }, { session }) => {
    const brain = session.requireBrain();
    unrefused(await brain.writer.skeletonEdit(store_version, edits as SkeletonEdit[], Date.now()));
    return skeletonView(brain.reader, 'candidate');
  },
});

export const skeletonRatifyTool = defineTool({
  name: 'skeleton_ratify',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  description: 'Make the candidate the ratified skeleton (keyed on the store_version you read). The auto-reconciler then keeps its derived data fresh and alerts on drift.',
  traffic: 'tick',
  input: z.object({ store_version: storeVersion }).strict(),
  handler: async ({ store_version }, { session }) => {
    const brain = session.requireBrain();
    unrefused(await brain.writer.skeletonRatify(store_version, Date.now()));
    return skeletonView(brain.reader, 'ratified');
  },
});
