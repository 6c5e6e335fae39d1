/**
 * Which ratified room each path is in: for `delegate` (name the rooms of the files it packs,
 * boost files of a room the task names) and any reader that wants rooms beside paths.
 * Reads only; an empty map when the brain has no ratified skeleton.
 */
import type { Database } from '../store/index.js';
import { assignRooms } from './rooms.js';
import { readSkeleton } from './skeleton-store.js';

export function roomsOfPaths(db: Database, paths: Iterable<string>): Map<string, string> {
  const out = new Map<string, string>();
  const ratified = readSkeleton(db, 'ratified');
  if (!ratified) return out;
  const assign = assignRooms(ratified.rooms);
  for (const p of paths) {
    const i = assign.roomOf(p);
    if (i >= 0) out.set(p, ratified.rooms[i]!.name);
  }
  return out;
}
