/**
 * What the skeleton derives from the code map for a list of rooms: each room's files, key
 * files and symbols, the imports between rooms (with counts), the files in no room, the
 * imports that break a `may_use` rule, and the globs that match nothing. Pure over the store:
 * the same function serves the reconciler (in the store writer), `skeleton check` and tests.
 */
import type { Database } from '../store/index.js';
import { assignRooms, type Room } from './rooms.js';
import { exportedNames, loadCodeGraph, type CodeGraph } from './code-graph.js';

/** Key files listed per room: the ones most imported, what a reader should open first. */
export const KEY_FILES_PER_ROOM = 3;
/** Key symbols listed per room: exported names of its key files. */
export const KEY_SYMBOLS_PER_ROOM = 6;

export interface RoomDerived {
  name: string;
  files: number;
  key_files: string[];
  key_symbols: string[];
  /** Imports from this room's files into other rooms' files, by target room. */
  uses: { room: string; imports: number }[];
}

export interface Violation {
  /** The importing file, its line and the module as written. */
  file: string;
  line: number;
  module: string;
  /** The imported file. */
  target: string;
  from_room: string;
  to_room: string;
}

export interface Derived {
  files: number;
  rooms: RoomDerived[];
  unroomed: string[];
  violations: Violation[];
  empty_globs: { room: string; glob: string }[];
  /** Resolved imports between files that are both in a room, and the share staying inside one. */
  imports_between_roomed_files: number;
  inside_share: number;
}

export function deriveSkeleton(db: Database, rooms: readonly Room[], graph: CodeGraph = loadCodeGraph(db)): Derived {
  const assign = assignRooms(rooms);
  const roomOf = new Map<string, number>();
  const members: string[][] = rooms.map(() => []);
  const unroomed: string[] = [];
  for (const f of graph.files) {
    const r = assign.roomOf(f.path);
    roomOf.set(f.path, r);
    if (r < 0) unroomed.push(f.path);
    else members[r]!.push(f.path);
  }
  const allowed = rooms.map((r) => (r.may_use ? new Set(r.may_use.map((n) => n.toLowerCase())) : null));
  const uses = rooms.map(() => new Map<number, number>());
  const violations: Violation[] = [];
  let between = 0;
  let inside = 0;
  for (const f of graph.files) {
    const from = roomOf.get(f.path)!;
    if (from < 0) continue;
    for (const imp of f.imports) {
      const to = roomOf.get(imp.target) ?? -1;
      if (to < 0) continue;
      between++;
      if (to === from) {
        inside++;
        continue;
      }
      uses[from]!.set(to, (uses[from]!.get(to) ?? 0) + 1);
      const rule = allowed[from];
      if (rule && !rule.has(rooms[to]!.name.toLowerCase())) {
        violations.push({ file: f.path, line: imp.line, module: imp.module, target: imp.target, from_room: rooms[from]!.name, to_room: rooms[to]!.name });
      }
    }
  }
  return {
    files: graph.files.length,
    rooms: rooms.map((room, i) => {
      const keyFiles = [...members[i]!]
        .sort((a, b) => (graph.importedBy.get(b) ?? 0) - (graph.importedBy.get(a) ?? 0) || a.localeCompare(b))
        .slice(0, KEY_FILES_PER_ROOM);
      const keySymbols: string[] = [];
      for (const file of keyFiles) {
        for (const name of exportedNames(db, graph.byPath.get(file)!, KEY_SYMBOLS_PER_ROOM)) {
          if (keySymbols.length < KEY_SYMBOLS_PER_ROOM && !keySymbols.includes(name)) keySymbols.push(name);
        }
      }
      return {
        name: room.name,
        files: members[i]!.length,
        key_files: keyFiles,
        key_symbols: keySymbols,
        uses: [...uses[i]!.entries()].sort((a, b) => b[1] - a[1]).map(([to, n]) => ({ room: rooms[to]!.name, imports: n })),
      };
    }),
    unroomed,
    violations,
    empty_globs: assign.emptyGlobs(),
    imports_between_roomed_files: between,
    inside_share: between === 0 ? 1 : Math.round((inside / between) * 1000) / 1000,
  };
}

/** What is new in `next` against `previous`: breaking imports and unroomed files not seen before. */
export function driftBetween(previous: Derived | null, next: Derived): { violations: Violation[]; unroomed: string[] } {
  const key = (v: Violation) => `${v.file}\0${v.module}\0${v.target}`;
  const seenViolations = new Set((previous?.violations ?? []).map(key));
  const seenUnroomed = new Set(previous?.unroomed ?? []);
  return {
    violations: next.violations.filter((v) => !seenViolations.has(key(v))),
    unroomed: next.unroomed.filter((p) => !seenUnroomed.has(p)),
  };
}
