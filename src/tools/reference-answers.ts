/**
 * What `refs` and `impact` answer, shared by the MCP tools and the CLI: both read the map and
 * never tick (recall verbs), so the same function serves a session's reader and the CLI's.
 *
 * Uses are found by name (src/store/references.ts), then resolved with the import graph where a
 * language makes that sound: a top-level definition of TypeScript, JavaScript or Python can be
 * used from another file only through an import, so a file counts as a use when it is the
 * definition's own file, or imports it, or imports a file that imports the name from it (a
 * barrel, one level). The files left out are counted (`by_name_only`), never dropped silently.
 * Methods, and the languages whose files see each other without an import (Go's package, Java's,
 * Rust's crate paths), keep every use by name.
 *
 * `impact` walks outward from a file (or a name's files): distance 1 is every file that uses
 * one of its exported names or imports it; each further step adds the importers of the last.
 * Past a cap the files are counted per room, so a hub imported by everything answers in a few
 * lines.
 */
import { dirname } from 'node:path/posix';
import type { Database } from '../store/index.js';
import { definitionsOf, nearestNames, usesOf, type DefinitionHit, type FileUses } from '../store/index.js';
import { loadCodeGraph, roomsOfPaths, type CodeGraph } from '../skeleton/index.js';
import { A_METHOD, NOT_THIS_NAME, UseDefinitions, type UseDefinition } from './use-definitions.js';
import type { SymbolDef } from '../ingest/extract/types.js';

/** Definitions listed one by one; past this they are counted per folder. */
export const MAX_LISTED_DEFINITIONS = 20;
/** Uses listed per file; the rest are counted (`more`). */
export const MAX_USES_PER_FILE = 20;
/** Files listed by `impact` before the rest are counted per room. */
export const MAX_IMPACT_FILES = 100;
/** Test files listed by `impact` (all are counted). */
export const MAX_IMPACT_TESTS = 100;
/** Exported names of a file whose uses `impact` follows. */
export const MAX_IMPACT_NAMES = 24;
export const DEFAULT_IMPACT_DEPTH = 2;
export const MAX_IMPACT_DEPTH = 4;

const TEST_PATH = [/(^|\/)[_.]?(tests?|__tests__|spec|specs|testdata|__mocks__)\//, /\.(test|spec)\.[^/]+$/, /_test\.go$/, /(^|\/)test_[^/]*\.py$/, /(^|\/)[^/]*Tests?\.java$/];

export function isTestPath(path: string): boolean {
  return TEST_PATH.some((re) => re.test(path));
}

export interface RefsOptions {
  /** Root-relative path: keep only the definitions in this file (and the uses that reach them). */
  path?: string;
  kind?: string;
  /** Most files of uses listed. */
  limit: number;
}

interface ImportIndex {
  importsOf: Map<string, Set<string>>;
  importersOf: Map<string, Set<string>>;
  languageOf: Map<string, string | null>;
}

/** The import graph both ways, built once per code graph (which is kept while the store is unchanged). */
const importIndexes = new WeakMap<CodeGraph, ImportIndex>();

function importIndex(graph: CodeGraph): ImportIndex {
  const known = importIndexes.get(graph);
  if (known !== undefined) return known;
  const importsOf = new Map<string, Set<string>>();
  const importersOf = new Map<string, Set<string>>();
  const languageOf = new Map<string, string | null>();
  for (const f of graph.files) {
    languageOf.set(f.path, f.language);
    if (f.imports.length === 0) continue;
    const targets = new Set<string>();
    for (const imp of f.imports) if (imp.target !== f.path) targets.add(imp.target);
    importsOf.set(f.path, targets);
    for (const t of targets) {
      let set = importersOf.get(t);
      if (!set) importersOf.set(t, (set = new Set()));
      set.add(f.path);
    }
  }
  const index = { importsOf, importersOf, languageOf };
  importIndexes.set(graph, index);
  return index;
}

const byPath = <T extends { path: string }>(a: T, b: T) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

function folderCounts(paths: string[], rooms: Map<string, string>, max = 12): { room?: string; folder?: string; files: number }[] {
  const counts = new Map<string, number>();
  const useRooms = rooms.size > 0;
  for (const p of paths) {
    const key = useRooms ? rooms.get(p) ?? '(no room)' : dirname(p);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, max).map(([key, files]) => (useRooms ? { room: key, files } : { folder: key, files }));
}

export interface RefsAnswer {
  name: string;
  definitions: Record<string, unknown>[];
  references: Record<string, unknown>[];
  [key: string]: unknown;
}

/** The `refs` answer before the budget and freshness: definitions, then uses grouped by file, each with the definition it names. */
export function refsAnswer(db: Database, name: string, options: RefsOptions): RefsAnswer {
  const all = definitionsOf(db, name);
  const defs = options.path === undefined ? all : all.filter((d) => d.path === options.path);
  const found = usesOf(db, name);
  const resolver = all.length > 0 ? new UseDefinitions(db, loadCodeGraph(db), name, all) : null;
  const asked = new Set(defs);
  // Only methods can be named by a member use of an unknown receiver.
  const askedMethods = defs.some((d) => d.parent !== undefined);
  let byNameOnly = 0;
  let files: ResolvedFile[] = [];
  for (const f of found.files) {
    const named = resolver === null ? f.uses.map(() => null) : resolver.of(f);
    const uses: ResolvedUse[] = [];
    f.uses.forEach((u, i) => {
      const d = named[i]!;
      if (d === NOT_THIS_NAME) return;
      if (options.path !== undefined && (d === null || d === A_METHOD) && u.kind === 'member' && !askedMethods) return;
      if (options.path !== undefined && d !== null && d !== A_METHOD && !asked.has(d)) return;
      uses.push({ ...u, definition: d });
    });
    if (uses.length === 0) byNameOnly++;
    else files.push({ ...f, uses });
  }
  if (options.kind !== undefined) {
    const kind = options.kind;
    files = files.map((f) => ({ ...f, uses: f.uses.filter((u) => u.kind === kind) })).filter((f) => f.uses.length > 0);
  }
  // Uses resolved to a definition first, then the unresolved, each in path order.
  const resolvedFirst = (f: ResolvedFile) => (f.uses.some((u) => u.definition !== null && u.definition !== A_METHOD) ? 0 : 1);
  files.sort((a, b) => resolvedFirst(a) - resolvedFirst(b) || byPath(a, b));
  const listedDefs = defs.slice(0, MAX_LISTED_DEFINITIONS);
  const rooms = roomsOfPaths(db, [...listedDefs.map((d) => d.path), ...files.map((f) => f.path)]);
  const answer: RefsAnswer = {
    name,
    definitions: listedDefs.map((d) => definitionItem(d, rooms)),
    references: [],
    files: files.length,
    uses: files.reduce((n, f) => n + f.uses.length, 0),
  };
  if (defs.length > 1) {
    // Several definitions: how many uses each one has, so a reader can pick one with `path`.
    const counts = new Map<DefinitionHit, { files: number; uses: number }>();
    for (const f of files) {
      const seen = new Set<DefinitionHit | null>();
      for (const u of f.uses) {
        const d = u.definition;
        if (d === null || d === NOT_THIS_NAME || d === A_METHOD) continue;
        const c = counts.get(d) ?? { files: 0, uses: 0 };
        c.uses++;
        if (!seen.has(d)) c.files++;
        seen.add(d);
        counts.set(d, c);
      }
    }
    listedDefs.forEach((d, i) => Object.assign(answer.definitions[i]!, counts.get(d) ?? { files: 0, uses: 0 }));
    if (options.path === undefined) answer.pick = 'uses are grouped by the definition they name (definition null: unresolved; with among "methods": a method of an unknown receiver, never a function); pass path (a definition\'s file) to keep one, with the unresolved uses';
  }
  const unresolved = files.reduce((n, f) => n + f.uses.filter((u) => u.definition === null || u.definition === A_METHOD).length, 0);
  if (unresolved > 0 && all.length > 0) answer.unresolved = unresolved;
  if (defs.length > MAX_LISTED_DEFINITIONS) {
    answer.definitions_total = defs.length;
    answer.definitions_by_place = folderCounts(defs.map((d) => d.path), roomsOfPaths(db, defs.map((d) => d.path)));
  }
  if (byNameOnly > 0 && all.length > 0) answer.by_name_only = byNameOnly;
  if (found.truncated) answer.searched_files = found.scanned;
  if (found.unknown > 0) answer.not_yet_read = found.unknown;
  if (files.length > options.limit) answer.references_by_place = folderCounts(files.map((f) => f.path), roomsOfPaths(db, files.map((f) => f.path)));
  answer.references = files.slice(0, options.limit).map((f) => referenceItem(f, rooms.get(f.path), all.length > 0));
  if (defs.length === 0 && files.length === 0) {
    answer.why = options.path !== undefined && all.length > 0
      ? `${name} is not defined in ${options.path}; it is defined in ${[...new Set(all.map((d) => d.path))].slice(0, 5).join(', ')}`
      : `no definition or use of ${name} is mapped (names are exact and case-sensitive)`;
    const nearest = nearestNames(db, name);
    if (nearest.length > 0) answer.nearest = nearest;
    if (options.path !== undefined && all.length > 0) answer.definitions = all.slice(0, MAX_LISTED_DEFINITIONS).map((d) => definitionItem(d, rooms));
  } else if (defs.length === 0) {
    answer.why = options.path !== undefined && all.length > 0
      ? `${name} is not defined in ${options.path}; it is defined in ${[...new Set(all.map((d) => d.path))].slice(0, 5).join(', ')}`
      : `no definition of ${name} is mapped: these are uses by name (a builtin, a dependency's, or a language without definitions)`;
  }
  return answer;
}

interface ResolvedUse {
  line: number;
  kind: string;
  in?: string;
  definition: UseDefinition;
}
interface ResolvedFile {
  fileId: number;
  rootId: number;
  path: string;
  uses: ResolvedUse[];
}

const where = (d: UseDefinition) => (d === null || d === NOT_THIS_NAME || d === A_METHOD ? null : { path: d.path, line: d.line });

/** One file of uses: its `definition` once when every use names the same one, else on each use. */
function referenceItem(f: ResolvedFile, room: string | undefined, known: boolean): Record<string, unknown> {
  const uses = f.uses.slice(0, MAX_USES_PER_FILE);
  const first = f.uses[0]!.definition;
  const uniform = f.uses.every((u) => u.definition === first);
  const item: Record<string, unknown> = { path: f.path };
  if (room !== undefined) item.room = room;
  if (known && uniform) item.definition = where(first);
  if (known && uniform && first === A_METHOD) item.among = 'methods';
  item.uses = uses.map((u) => {
    const use: Record<string, unknown> = u.in === undefined ? { line: u.line, kind: u.kind } : { line: u.line, in: u.in, kind: u.kind };
    if (known && !uniform) use.definition = where(u.definition);
    if (known && !uniform && u.definition === A_METHOD) use.among = 'methods';
    return use;
  });
  if (f.uses.length > uses.length) item.more = f.uses.length - uses.length;
  return item;
}

function definitionItem(d: DefinitionHit, rooms: Map<string, string>): Record<string, unknown> {
  const item: Record<string, unknown> = { path: d.path, line: d.line, kind: d.kind };
  if (d.parent !== undefined) item.parent = d.parent;
  const room = rooms.get(d.path);
  if (room !== undefined) item.room = room;
  return item;
}

export type ImpactTarget = { path: string } | { name: string };

export interface ImpactFile {
  path: string;
  distance: number;
  /** How it was reached at its distance: by a use of a name, or by an import. */
  via: 'refs' | 'imports';
  room?: string;
  test?: true;
}

/** The `impact` answer before freshness: the files that may break, nearest first, and the tests among them. */
export function impactAnswer(db: Database, target: ImpactTarget, depth: number): Record<string, unknown> {
  const graph = loadCodeGraph(db);
  const index = importIndex(graph);
  let homes: string[];
  let names: string[];
  if ('path' in target) {
    homes = isMapped(db, target.path) ? [target.path] : [];
    names = homes.length > 0 ? exportedNamesOf(db, target.path) : [];
  } else {
    const defs = definitionsOf(db, target.name);
    homes = [...new Set(defs.map((d) => d.path))];
    names = [target.name];
  }
  const distance = new Map<string, ImpactFile>();
  for (const h of homes) distance.set(h, { path: h, distance: 0, via: 'imports' });
  // Distance 1: the files that use one of the names (resolved like refs) …
  let frontier: string[] = [];
  const reach = (path: string, d: number, via: ImpactFile['via']) => {
    if (distance.has(path)) return;
    distance.set(path, { path, distance: d, via });
    frontier.push(path);
  };
  const homeSet = new Set(homes);
  for (const name of names) {
    const found = usesOf(db, name);
    const defs = definitionsOf(db, name);
    const resolver = new UseDefinitions(db, graph, name, defs, false);
    // A use resolved to a definition in one of the homes first; an unresolved one after.
    const unresolved: string[] = [];
    for (const f of found.files) {
      const named = resolver.of(f);
      if (named.some((d) => d !== null && d !== NOT_THIS_NAME && d !== A_METHOD && homeSet.has(d.path))) reach(f.path, 1, 'refs');
      else if (named.some((d) => d === null)) unresolved.push(f.path);
    }
    for (const p of unresolved) reach(p, 1, 'refs');
  }
  // … and the files that import one of the homes; then importers of importers.
  for (const h of homes) for (const i of index.importersOf.get(h) ?? []) reach(i, 1, 'imports');
  for (let d = 2; d <= depth; d++) {
    const last = frontier;
    frontier = [];
    for (const p of last) for (const i of index.importersOf.get(p) ?? []) reach(i, d, 'imports');
    if (frontier.length === 0) break;
  }
  const affected = [...distance.values()].filter((f) => f.distance > 0).sort((a, b) => a.distance - b.distance || byPath(a, b));
  const rooms = roomsOfPaths(db, [...homes, ...affected.map((f) => f.path)]);
  const listed = affected.slice(0, MAX_IMPACT_FILES).map((f) => {
    const item: ImpactFile = { path: f.path, distance: f.distance, via: f.via };
    const room = rooms.get(f.path);
    if (room !== undefined) item.room = room;
    if (isTestPath(f.path)) item.test = true;
    return item;
  });
  const tests = affected.filter((f) => isTestPath(f.path)).map((f) => f.path);
  const answer: Record<string, unknown> = {
    target: 'path' in target ? { path: target.path, names } : { name: target.name, defined_in: homes.slice(0, MAX_LISTED_DEFINITIONS) },
    depth,
    total: affected.length,
    files: listed,
    tests: tests.slice(0, MAX_IMPACT_TESTS),
    tests_total: tests.length,
  };
  if (affected.length > MAX_IMPACT_FILES) {
    answer.by_place = placeCounts(affected, rooms);
  }
  if (homes.length === 0) {
    answer.why = 'path' in target ? `${target.path} is not in the map` : `no definition of ${target.name} is mapped`;
    if ('name' in target) {
      const nearest = nearestNames(db, target.name);
      if (nearest.length > 0) answer.nearest = nearest;
    }
  }
  return answer;
}

function placeCounts(files: ImpactFile[], rooms: Map<string, string>): Record<string, unknown>[] {
  const useRooms = rooms.size > 0;
  const counts = new Map<string, { files: number; tests: number; nearest: number }>();
  for (const f of files) {
    const key = useRooms ? rooms.get(f.path) ?? '(no room)' : dirname(f.path);
    const c = counts.get(key) ?? { files: 0, tests: 0, nearest: f.distance };
    c.files++;
    if (isTestPath(f.path)) c.tests++;
    c.nearest = Math.min(c.nearest, f.distance);
    counts.set(key, c);
  }
  return [...counts].sort((a, b) => b[1].files - a[1].files || (a[0] < b[0] ? -1 : 1)).slice(0, 20)
    .map(([key, c]) => ({ [useRooms ? 'room' : 'folder']: key, files: c.files, tests: c.tests, nearest: c.nearest }));
}

/**
 * The exported top-level names of a mapped file, in line order; empty when it is not mapped.
 * (The map's key is (root_id, path): naming the roots lets SQLite search it where `path = ?`
 * alone scans every row, 0.2 ms on a 3000-file brain.)
 */
export function exportedNamesOf(db: Database, path: string): string[] {
  const row = db.prepare('SELECT symbols FROM files WHERE root_id IN (SELECT id FROM roots) AND path = ? LIMIT 1').get<{ symbols: string }>(path);
  if (!row) return [];
  const out: string[] = [];
  for (const s of (JSON.parse(row.symbols) as SymbolDef[]).sort((a, b) => a.line - b.line)) {
    if (s.exported && s.parent === undefined && !out.includes(s.name)) out.push(s.name);
    if (out.length >= MAX_IMPACT_NAMES) break;
  }
  return out;
}

/** Whether `path` is a mapped file (impact of an unmapped path says so). */
export function isMapped(db: Database, path: string): boolean {
  return db.prepare('SELECT 1 AS x FROM files WHERE root_id IN (SELECT id FROM roots) AND path = ? LIMIT 1').get(path) !== undefined;
}
