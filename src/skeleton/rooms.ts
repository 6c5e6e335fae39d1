/**
 * Rooms: the named blocks of a skeleton, and the one rule for which room a file belongs to.
 *
 * Overlapping globs are allowed and resolved by order: a file belongs to the FIRST room (in
 * the skeleton's list) with a glob that matches it. That keeps a room like `core: src/**`
 * usable after a narrower `store: src/store/**` placed before it, the way .gitignore-style
 * lists read. A glob that matches nothing is accepted (the code may not exist yet) and
 * reported in the derived data as `empty_globs`.
 */
import { InvalidArgumentError } from '../errors.js';
import { compileGlob, globProblem, type GlobMatcher } from './glob.js';

export interface Room {
  name: string;
  /** Root-relative globs (glob.ts); order inside a room does not matter. */
  globs: string[];
  /** One line saying what the room is for. */
  purpose: string;
  /** True while the purpose is a machine-drafted guess nobody has confirmed. */
  draft?: boolean;
  /** The rooms this room may import from; absent or null means no rule. */
  may_use?: string[] | null;
}

/** A room name: short, stable, usable on a command line and in a glob-free message. */
const ROOM_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** Longest purpose, in characters: one line, not a document. */
export const MAX_PURPOSE_CHARS = 240;
/** Most rooms in a skeleton: a map a model and a person can read at a glance. */
export const MAX_ROOMS = 200;
/** Most globs in one room. */
export const MAX_GLOBS_PER_ROOM = 500;

/** Throws an InvalidArgumentError naming the field when the name is unusable. */
export function checkRoomName(name: string, field: string): void {
  if (!ROOM_NAME.test(name)) {
    throw new InvalidArgumentError(`${field}: "${name}" is not a usable room name (letters, digits, "_", "." or "-", starting with a letter or digit, at most 64 characters)`);
  }
}

/** Checks a whole room list; every message names the field (`rooms[2].may_use[0]`). */
export function checkRooms(rooms: readonly Room[]): void {
  if (rooms.length > MAX_ROOMS) throw new InvalidArgumentError(`rooms: at most ${MAX_ROOMS} rooms, got ${rooms.length}`);
  const seen = new Map<string, number>();
  rooms.forEach((room, i) => {
    checkRoomName(room.name, `rooms[${i}].name`);
    const other = seen.get(room.name.toLowerCase());
    if (other !== undefined) throw new InvalidArgumentError(`rooms[${i}].name: "${room.name}" collides with rooms[${other}].name "${rooms[other]!.name}"; room names must be unique (case-insensitive)`);
    seen.set(room.name.toLowerCase(), i);
    if (room.globs.length === 0) throw new InvalidArgumentError(`rooms[${i}].globs: room "${room.name}" needs at least one glob`);
    if (room.globs.length > MAX_GLOBS_PER_ROOM) throw new InvalidArgumentError(`rooms[${i}].globs: at most ${MAX_GLOBS_PER_ROOM} globs, got ${room.globs.length}`);
    room.globs.forEach((g, j) => {
      const problem = globProblem(g);
      if (problem) throw new InvalidArgumentError(`rooms[${i}].globs[${j}]: "${g}" ${problem}`);
    });
    checkPurpose(room.purpose, `rooms[${i}].purpose`);
  });
  rooms.forEach((room, i) => {
    (room.may_use ?? []).forEach((target, j) => {
      if (!seen.has(target.toLowerCase())) {
        throw new InvalidArgumentError(`rooms[${i}].may_use[${j}]: "${target}" is not a room of this skeleton (rooms: ${rooms.map((r) => r.name).join(', ')})`);
      }
    });
  });
}

export function checkPurpose(purpose: string, field: string): void {
  if (purpose.length > MAX_PURPOSE_CHARS) throw new InvalidArgumentError(`${field}: at most ${MAX_PURPOSE_CHARS} characters, got ${purpose.length}`);
  if (/[\r\n]/.test(purpose)) throw new InvalidArgumentError(`${field}: a purpose is one line (no line breaks)`);
}

export interface RoomAssignment {
  /** Room index of each path, or -1 for a file in no room. */
  roomOf(path: string): number;
  /** Globs that matched no path assigned so far (a glob shadowed by an earlier room still counts as matching). */
  emptyGlobs(): { room: string; glob: string }[];
}

/**
 * Assigns paths to rooms, first room wins; remembers which globs matched something.
 *
 * Most room globs name a folder (`src/store/**`, a plain path) or a folder's own files
 * (`src/*`): those are looked up by the path's folders, so a path costs its depth, not the
 * number of globs; only the other globs are tried one by one.
 */
export function assignRooms(rooms: readonly Room[]): RoomAssignment {
  interface Entry { room: number; glob: string; hits: number }
  const under = new Map<string, Entry>(); // `x/**` and plain `x`: x itself or anything below
  const direct = new Map<string, Entry>(); // `x/*`: files directly in x
  const others: { e: Entry; match: GlobMatcher }[] = [];
  const all: Entry[] = [];
  rooms.forEach((r, i) => {
    for (const glob of r.globs) {
      const t = glob.replace(/\/+$/, '');
      const e: Entry = { room: i, glob, hits: 0 };
      all.push(e);
      let key: string | null = null;
      let map: Map<string, Entry> | null = null;
      if (t === '**') [key, map] = ['', under];
      else if (!/[*?]/.test(t)) [key, map] = [t, under];
      else if (t.endsWith('/**') && !/[*?]/.test(t.slice(0, -3))) [key, map] = [t.slice(0, -3), under];
      else if (t.endsWith('/*') && !/[*?]/.test(t.slice(0, -2))) [key, map] = [t.slice(0, -2), direct];
      else if (t === '*') [key, map] = ['', direct];
      if (key === null || map === null) others.push({ e, match: compileGlob(glob) });
      // The same glob twice: the first room keeps it; the later one is reported as matching nothing.
      else if (!map.has(key)) map.set(key, e);
    }
  });
  return {
    roomOf(path) {
      let best: Entry | undefined;
      const consider = (e: Entry | undefined) => {
        if (!e) return;
        e.hits++;
        if (!best || e.room < best.room) best = e;
      };
      consider(under.get(''));
      consider(under.get(path));
      const slash = path.lastIndexOf('/');
      consider(direct.get(slash < 0 ? '' : path.slice(0, slash)));
      for (let at = path.indexOf('/'); at >= 0; at = path.indexOf('/', at + 1)) consider(under.get(path.slice(0, at)));
      for (const { e, match } of others) {
        // Past the winner only globs that never matched are tried: each needs one hit to
        // leave the empty list, so the extra cost fades after the first few paths.
        if (best && e.room >= best.room && e.hits > 0) continue;
        if (match(path)) consider(e);
      }
      return best ? best.room : -1;
    },
    emptyGlobs: () => all.filter((e) => e.hits === 0).map((e) => ({ room: rooms[e.room]!.name, glob: e.glob })),
  };
}
