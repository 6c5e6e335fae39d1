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
import { MAX_GLOB_CHARS, MAX_PURPOSE_CHARS, MAX_ROOMS } from './input-bounds.js';
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
const globs = z.array(z.string().min(1, 'a glob must not be empty').max(MAX_GLOB_CHARS)).min(1, 'give at least one glob').max(500);

const purpose = z.string().max(MAX_PURPOSE_CHARS);

const edit = z.discriminatedUnion('op', [
  z.object({ op: z.literal('rename'), room: roomName, to: roomName }).strict(),
  z.object({ op: z.literal('merge'), rooms: z.array(roomName).min(2, 'name at least two rooms to merge').max(MAX_ROOMS), into: roomName }).strict(),
  z.object({ op: z.literal('split'), room: roomName, into: z.array(z.object({ name: roomName, globs, purpose: purpose.optional() }).strict()).min(1).max(MAX_ROOMS) }).strict(),
  z.object({ op: z.literal('move_globs'), globs, to: roomName }).strict(),
  z.object({ op: z.literal('set_purpose'), room: roomName, purpose }).strict(),
  z.object({ op: z.literal('set_may_use'), room: roomName, may_use: z.array(roomName).max(MAX_ROOMS).nullable() }).strict(),
  z.object({ op: z.literal('add_room'), name: roomName, globs, purpose: purpose.optional(), may_use: z.array(roomName).max(MAX_ROOMS).nullable().optional(), before: roomName.optional() }).strict(),
  z.object({ op: z.literal('remove_room'), room: roomName }).strict(),
]);

/**
 * skeleton_edit as listed: one object shape with `op` and the fields the ops use (the union of
 * eight strict shapes cost 2.7k characters of every session's tool list). `edit` above still
 * checks each call exactly, naming the field.
 */
const listedEditInput = (() => {
  const str = (max: number) => ({ type: 'string', maxLength: max });
  const list = (items: unknown, max: number) => ({ type: 'array', items, maxItems: max });
  const names = list(str(64), MAX_ROOMS);
  const globList = list(str(MAX_GLOB_CHARS), 500);
  return {
    type: 'object' as const,
    properties: {
      store_version: { type: 'integer', minimum: 0 },
      edits: list({
        type: 'object',
        properties: {
          op: { enum: ['rename', 'merge', 'split', 'move_globs', 'set_purpose', 'set_may_use', 'add_room', 'remove_room'] },
          room: str(64), rooms: names, name: str(64), to: str(64), before: str(64), globs: globList, purpose: str(MAX_PURPOSE_CHARS),
          may_use: { anyOf: [names, { type: 'null' }] },
          into: { anyOf: [str(64), list({ type: 'object', properties: { name: str(64), globs: globList, purpose: str(MAX_PURPOSE_CHARS) }, required: ['name', 'globs'] }, MAX_ROOMS)] },
        },
        required: ['op'],
      }, 50),
    },
    required: ['store_version', 'edits'],
    additionalProperties: false,
  };
})();

export const skeletonTool = defineTool({
  name: 'skeleton',
  annotations: READ_ONLY,
  description: 'The architecture map: rooms (globs, purpose, may_use) with files, key symbols and imports between rooms; files in no room; imports breaking may_use; store_version. Default: ratified, else the candidate.',
  traffic: 'recall',
  input: z.object({ which: z.enum(['auto', 'ratified', 'candidate']).default('auto') }).strict(),
  handler: async ({ which }, { session }) => skeletonView(session.requireBrain().reader, which),
});

export const skeletonCandidateTool = defineTool({
  name: 'skeleton_candidate',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  description: 'Propose a candidate skeleton from the code map (folders refined by imports; draft purposes), replacing any candidate; from:"ratified" copies the ratified one.',
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
  description: 'Advisory lease on editing the candidate: take, renew, release. Never blocks; says who holds it and until when. The reconciler yields to it.',
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
  description: 'Edit the candidate skeleton: edits apply in order as one change, keyed on the store_version you read. Ops: rename{room,to} merge{rooms,into} split{room,into:[{name,globs,purpose?}]} move_globs{globs,to} set_purpose{room,purpose} set_may_use{room,may_use|null} add_room{name,globs,purpose?,may_use?,before?} remove_room{room}. A file goes to the first room whose glob matches. Returns the candidate.',
  traffic: 'tick',
  listedInput: listedEditInput,
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
  description: 'Make the candidate the ratified skeleton (keyed on store_version); the reconciler then keeps it fresh and alerts on drift.',
  traffic: 'tick',
  input: z.object({ store_version: storeVersion }).strict(),
  handler: async ({ store_version }, { session }) => {
    const brain = session.requireBrain();
    unrefused(await brain.writer.skeletonRatify(store_version, Date.now()));
    return skeletonView(brain.reader, 'ratified');
  },
});
