/**
 * Edits of a candidate skeleton, as pure functions over a room list. A batch of edits is
 * applied in order and checked as a whole (names unique, `may_use` naming rooms that exist)
 * before anything is stored; a bad edit throws an InvalidArgumentError naming its field
 * (`edits[1].room`), and nothing is written.
 */
import { InvalidArgumentError } from '../errors.js';
import { checkPurpose, checkRoomName, checkRooms, type Room } from './rooms.js';

export type SkeletonEdit =
  | { op: 'rename'; room: string; to: string }
  | { op: 'merge'; rooms: string[]; into: string }
  | { op: 'split'; room: string; into: { name: string; globs: string[]; purpose?: string }[] }
  | { op: 'move_globs'; globs: string[]; to: string }
  | { op: 'set_purpose'; room: string; purpose: string }
  | { op: 'set_may_use'; room: string; may_use: string[] | null }
  | { op: 'add_room'; name: string; globs: string[]; purpose?: string; may_use?: string[] | null; before?: string }
  | { op: 'remove_room'; room: string };

export function applyEdits(rooms: readonly Room[], edits: readonly SkeletonEdit[]): Room[] {
  let out: Room[] = rooms.map((r) => ({ ...r, globs: [...r.globs], may_use: r.may_use ? [...r.may_use] : r.may_use }));
  edits.forEach((edit, i) => {
    out = applyOne(out, edit, `edits[${i}]`);
  });
  try {
    checkRooms(out);
  } catch (err) {
    throw new InvalidArgumentError(`after the edits, ${(err as Error).message}`);
  }
  return out;
}

function find(rooms: Room[], name: string, field: string): number {
  const i = rooms.findIndex((r) => r.name.toLowerCase() === name.toLowerCase());
  if (i < 0) throw new InvalidArgumentError(`${field}: "${name}" is not a room of the candidate (rooms: ${rooms.map((r) => r.name).join(', ') || 'none'})`);
  return i;
}

function mustBeFree(rooms: Room[], name: string, field: string, except = -1): void {
  checkRoomName(name, field);
  const i = rooms.findIndex((r) => r.name.toLowerCase() === name.toLowerCase());
  if (i >= 0 && i !== except) throw new InvalidArgumentError(`${field}: "${name}" collides with the existing room "${rooms[i]!.name}"; pick another name`);
}

/** Rewrites `may_use` references: renamed rooms (to a name) or removed ones (to null). */
function rewriteUses(rooms: Room[], from: string[], to: string | null): void {
  const gone = new Set(from.map((n) => n.toLowerCase()));
  for (const r of rooms) {
    if (!r.may_use) continue;
    const next = r.may_use.filter((n) => !gone.has(n.toLowerCase()));
    if (to !== null && next.length !== r.may_use.length && r.name !== to && !next.includes(to)) next.push(to);
    r.may_use = next;
  }
}

function applyOne(rooms: Room[], edit: SkeletonEdit, field: string): Room[] {
  switch (edit.op) {
    case 'rename': {
      const i = find(rooms, edit.room, `${field}.room`);
      mustBeFree(rooms, edit.to, `${field}.to`, i);
      const old = rooms[i]!.name;
      rooms[i]!.name = edit.to;
      rewriteUses(rooms, [old], edit.to);
      return rooms;
    }
    case 'merge': {
      if (edit.rooms.length < 2) throw new InvalidArgumentError(`${field}.rooms: name at least two rooms to merge`);
      const idx = edit.rooms.map((n, j) => find(rooms, n, `${field}.rooms[${j}]`));
      const first = rooms[idx[0]!]!;
      const merged = idx.map((i) => rooms[i]!);
      const names = merged.map((r) => r.name);
      const rest = rooms.filter((r) => !merged.includes(r));
      mustBeFree(rest, edit.into, `${field}.into`);
      const uses = merged.some((r) => r.may_use) ? [...new Set(merged.flatMap((r) => r.may_use ?? []))].filter((n) => !names.includes(n)) : null;
      const room: Room = { name: edit.into, globs: [...new Set(merged.flatMap((r) => r.globs))], purpose: first.purpose, draft: first.draft, may_use: uses };
      const out = rooms.filter((r) => !merged.includes(r) || r === first).map((r) => (r === first ? room : r));
      rewriteUses(out, names, edit.into);
      return out;
    }
    case 'split': {
      const i = find(rooms, edit.room, `${field}.room`);
      if (edit.into.length === 0) throw new InvalidArgumentError(`${field}.into: name at least one new room with its globs`);
      const source = rooms[i]!;
      const added: Room[] = edit.into.map((n, j) => {
        mustBeFree(rooms, n.name, `${field}.into[${j}].name`);
        if (n.purpose !== undefined) checkPurpose(n.purpose, `${field}.into[${j}].purpose`);
        return { name: n.name, globs: [...n.globs], purpose: n.purpose ?? `split from ${source.name}`, draft: n.purpose === undefined, may_use: source.may_use ? [...source.may_use] : null };
      });
      const moved = new Set(added.flatMap((r) => r.globs));
      source.globs = source.globs.filter((g) => !moved.has(g));
      // The new rooms go first: overlapping globs resolve to the first room, so they take
      // their files from the room they were split from.
      const out = [...rooms.slice(0, i), ...added, ...(source.globs.length > 0 ? [source] : []), ...rooms.slice(i + 1)];
      if (source.globs.length === 0) rewriteUses(out, [source.name], null);
      return out;
    }
    case 'move_globs': {
      const to = find(rooms, edit.to, `${field}.to`);
      const moving = new Set(edit.globs);
      for (const r of rooms) r.globs = r.globs.filter((g) => !moving.has(g));
      rooms[to]!.globs = [...edit.globs, ...rooms[to]!.globs];
      // A room left without globs is refused by the final check, unless a later edit of the
      // same batch removes or refills it.
      return rooms;
    }
    case 'set_purpose': {
      const i = find(rooms, edit.room, `${field}.room`);
      checkPurpose(edit.purpose, `${field}.purpose`);
      rooms[i]!.purpose = edit.purpose;
      delete rooms[i]!.draft;
      return rooms;
    }
    case 'set_may_use': {
      const i = find(rooms, edit.room, `${field}.room`);
      (edit.may_use ?? []).forEach((n, j) => find(rooms, n, `${field}.may_use[${j}]`));
      rooms[i]!.may_use = edit.may_use === null ? null : [...new Set(edit.may_use)];
      return rooms;
    }
    case 'add_room': {
      mustBeFree(rooms, edit.name, `${field}.name`);
      if (edit.purpose !== undefined) checkPurpose(edit.purpose, `${field}.purpose`);
      const at = edit.before === undefined ? rooms.length : find(rooms, edit.before, `${field}.before`);
      const room: Room = { name: edit.name, globs: [...edit.globs], purpose: edit.purpose ?? '', may_use: edit.may_use ?? null };
      return [...rooms.slice(0, at), room, ...rooms.slice(at)];
    }
    case 'remove_room': {
      const i = find(rooms, edit.room, `${field}.room`);
      const name = rooms[i]!.name;
      const out = rooms.filter((_, j) => j !== i);
      rewriteUses(out, [name], null);
      return out;
    }
  }
}
