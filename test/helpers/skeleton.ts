/** Puts a chosen skeleton into a brain through the store writer, as an agent would: propose, edit, ratify. */
import type { Brain } from '../../src/brain/index.js';
import { unrefused, type Room, type SkeletonEdit } from '../../src/skeleton/index.js';

export async function writeCandidate(brain: Brain, rooms: Room[], now = Date.now()): Promise<number> {
  const proposed = unrefused(await brain.writer.skeletonPropose(now, 'code'));
  const edits: SkeletonEdit[] = [
    ...proposed.skeleton.rooms.map((r): SkeletonEdit => ({ op: 'remove_room', room: r.name })),
    ...rooms.map((r): SkeletonEdit => ({ op: 'add_room', name: r.name, globs: r.globs, purpose: r.purpose, may_use: r.may_use ?? null })),
  ];
  return unrefused(await brain.writer.skeletonEdit(proposed.storeVersion, edits, now)).storeVersion;
}

export async function writeRatified(brain: Brain, rooms: Room[], now = Date.now()): Promise<number> {
  const v = await writeCandidate(brain, rooms, now);
  return unrefused(await brain.writer.skeletonRatify(v, now)).storeVersion;
}
