/**
 * Proposes rooms from the code map: a candidate skeleton.
 *
 *   1. Folders: start from the whole tree and split the largest folder into its subfolders
 *      (its own files become a room of their own) while a room holds more than
 *      1/TARGET_ROOMS of the files, so rooms are of useful size: not one per file, not one
 *      for everything. A chain of single subfolders (`java/x/src/main/java/com`) is walked
 *      through, keeping the shallow folder as the glob.
 *   2. Small rooms join: a room under MIN_ROOM_FILES, or a small one whose every import
 *      edge goes to one other room (it only serves that room), joins the room it shares
 *      most imports with (else its nearest folder).
 *   3. The import graph refines: Louvain communities (graphology) over the file graph; a room
 *      whose files fall into large communities that (almost) do not import each other is split
 *      along them.
 *   4. Purposes are drafted (marked `draft`): a README's first line or a package.json
 *      description inside the room, else its size, language and most-imported exports.
 *
 * Deterministic: the same code map gives the same candidate (Louvain runs on a seeded rng).
 */
import { UndirectedGraph } from 'graphology';
import louvainModule from 'graphology-communities-louvain';
import type { Database } from '../store/index.js';
import { loadCodeGraph, type CodeGraph } from './code-graph.js';
import type { Room } from './rooms.js';
import { nameRooms } from './room-names.js';
import { draftPurpose, type CandidateOptions } from './purpose-draft.js';

/** Rooms aimed at: a map a model reads in one glance. A folder above N/TARGET_ROOMS files is split. */
export const TARGET_ROOMS = 16;
/** Fewer files than this is not a room (not one room per file). */
export const MIN_ROOM_FILES = 3;
/**
 * Most rooms a candidate proposes, however large the tree: past it, folders stay whole. A
 * monorepo's packages are its natural rooms (the 5000-file bench repository has ~140), and a
 * cap below that would leave one arbitrary folder unsplit beside its split siblings.
 */
export const MAX_CANDIDATE_ROOMS = 160;
/** Rooms smaller than this are not split by the import graph: too small to hold two blocks. */
export const SPLIT_MIN_FILES = 12;
/** A community must hold this share of a room's files to become a room of its own. */
export const SPLIT_GROUP_MIN_SHARE = 0.2;
/** Groups "do not import each other" when imports across them are at most this share of the imports inside them. */
export const SPLIT_MAX_CROSS_SHARE = 0.1;
/** The Louvain rng's seed: a fixed seed makes the candidate reproducible. */
const LOUVAIN_SEED = 0x5eed;
/** The package is CommonJS (`module.exports = fn`) with a `default` in its types: one cast, here. */
const louvain = louvainModule as unknown as (typeof louvainModule)['default'];
export interface Unit {
  /** The folder the glob and name come from ('' = the whole tree). */
  folder: string;
  /** Where splitting continues (deeper than `folder` after a chain of single subfolders). */
  at: string;
  /** Only the files directly in `folder` (glob `folder/*`). */
  direct: boolean;
  files: string[];
  globs: string[];
  name?: string;
  noSplit?: boolean;
  /** Set on a room cut out of another by the import graph; named after its first file. */
  splitFrom?: Unit;
}

export type { CandidateOptions };

export function proposeRooms(db: Database, options: CandidateOptions = {}, graph: CodeGraph = loadCodeGraph(db)): Room[] {
  const paths = graph.files.map((f) => f.path);
  if (paths.length === 0) return [];
  const tree = folderTree(paths);
  const units = splitFolders(tree, paths.length);
  const adjacency = fileAdjacency(graph);
  joinSmall(units, adjacency);
  const refined = splitByCommunities(units, adjacency);
  nameRooms(refined);
  // Folder order reads like the tree; a room cut out of another stays before it (first room wins).
  refined.sort((a, b) => (a.folder === b.folder ? 0 : a.folder < b.folder ? -1 : 1));
  return refined.map((u) => ({
    name: u.name!,
    globs: u.globs,
    purpose: draftPurpose(db, u, graph, options.readText),
    draft: true,
  }));
}

interface Tree {
  /** Files directly in each folder. */
  direct: Map<string, string[]>;
  children: Map<string, Set<string>>;
  /** Files under each folder, recursively. */
  total: Map<string, number>;
}

function folderTree(paths: readonly string[]): Tree {
  const tree: Tree = { direct: new Map(), children: new Map(), total: new Map() };
  for (const p of paths) {
    let dir = parentOf(p);
    const list = tree.direct.get(dir) ?? [];
    list.push(p);
    tree.direct.set(dir, list);
    for (;;) {
      tree.total.set(dir, (tree.total.get(dir) ?? 0) + 1);
      if (dir === '') break;
      const up = parentOf(dir);
      let kids = tree.children.get(up);
      if (!kids) tree.children.set(up, (kids = new Set()));
      kids.add(dir);
      dir = up;
    }
  }
  return tree;
}

const parentOf = (p: string) => {
  const at = p.lastIndexOf('/');
  return at < 0 ? '' : p.slice(0, at);
};

function filesUnder(tree: Tree, folder: string): string[] {
  const out = [...(tree.direct.get(folder) ?? [])];
  for (const kid of tree.children.get(folder) ?? []) out.push(...filesUnder(tree, kid));
  return out;
}

const globOf = (folder: string, direct: boolean) => (folder === '' ? (direct ? '*' : '**') : `${folder}/${direct ? '*' : '**'}`);

function splitFolders(tree: Tree, total: number): Unit[] {
  const maxFiles = Math.max(SPLIT_MIN_FILES, Math.ceil(total / TARGET_ROOMS));
  const units: Unit[] = [{ folder: '', at: '', direct: false, files: filesUnder(tree, ''), globs: [globOf('', false)] }];
  for (;;) {
    const big = units
      .filter((u) => !u.direct && !u.noSplit && u.files.length > maxFiles && (tree.children.get(u.at)?.size ?? 0) > 0)
      .sort((a, b) => b.files.length - a.files.length)[0];
    if (!big) return units;
    const kids = [...tree.children.get(big.at)!].sort();
    const direct = tree.direct.get(big.at) ?? [];
    if (kids.length === 1 && direct.length === 0) {
      big.at = kids[0]!; // a chain of single subfolders: walk through, keep the shallow glob
      continue;
    }
    if (units.length - 1 + kids.length + (direct.length > 0 ? 1 : 0) > MAX_CANDIDATE_ROOMS) {
      big.noSplit = true;
      continue;
    }
    units.splice(units.indexOf(big), 1);
    for (const kid of kids) units.push({ folder: kid, at: kid, direct: false, files: filesUnder(tree, kid), globs: [globOf(kid, false)] });
    if (direct.length > 0) units.push({ folder: big.at, at: big.at, direct: true, files: direct, globs: [globOf(big.at, true)] });
  }
}

/** Undirected import counts between files (both directions summed). */
function fileAdjacency(graph: CodeGraph): Map<string, Map<string, number>> {
  const adj = new Map<string, Map<string, number>>();
  const add = (a: string, b: string) => {
    let m = adj.get(a);
    if (!m) adj.set(a, (m = new Map()));
    m.set(b, (m.get(b) ?? 0) + 1);
  };
  for (const f of graph.files) {
    for (const imp of f.imports) {
      add(f.path, imp.target);
      add(imp.target, f.path);
    }
  }
  return adj;
}

function joinSmall(units: Unit[], adj: Map<string, Map<string, number>>): void {
  const unitOf = new Map<string, Unit>();
  for (const u of units) for (const f of u.files) unitOf.set(f, u);
  const servesOneMax = Math.max(MIN_ROOM_FILES * 2, Math.ceil(units.reduce((n, u) => n + u.files.length, 0) / TARGET_ROOMS / 4));
  for (const u of [...units].sort((a, b) => a.files.length - b.files.length)) {
    if (u.folder === '' && u.direct) continue; // the top-level files (READMEs, configs) keep their own room
    if (u.files.length >= servesOneMax) break;
    const weights = new Map<Unit, number>();
    for (const f of u.files) {
      for (const [other, n] of adj.get(f) ?? []) {
        const v = unitOf.get(other);
        if (v && v !== u) weights.set(v, (weights.get(v) ?? 0) + n);
      }
    }
    const small = u.files.length < MIN_ROOM_FILES;
    if (!small && weights.size !== 1) continue;
    let into: Unit | undefined = [...weights.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
    if (!into && small) into = nearestFolder(u, units);
    if (!into) continue;
    // A lone top-level folder with no imports (`.ci/`, `.github/`) is closer to the top-level
    // files than to whichever big room shares no folder with it.
    if (!u.folder.includes('/') && !weights.size) into = units.find((v) => v.folder === '' && v.direct) ?? into;
    if (!into) continue;
    into.globs.push(...u.globs);
    into.files.push(...u.files);
    for (const f of u.files) unitOf.set(f, into);
    units.splice(units.indexOf(u), 1);
  }
}

function nearestFolder(u: Unit, units: readonly Unit[]): Unit | undefined {
  const depth = (a: string, b: string) => {
    const x = a.split('/');
    const y = b.split('/');
    let i = 0;
    while (i < x.length && i < y.length && x[i] === y[i]) i++;
    return i;
  };
  return units
    .filter((v) => v !== u && !(v.folder === '' && v.direct))
    .sort((a, b) => depth(b.folder, u.folder) - depth(a.folder, u.folder) || b.files.length - a.files.length)[0];
}

function splitByCommunities(units: Unit[], adj: Map<string, Map<string, number>>): Unit[] {
  const g = new UndirectedGraph({ allowSelfLoops: false });
  for (const [a, neighbours] of adj) {
    for (const [b, n] of neighbours) {
      if (a >= b) continue;
      g.mergeNode(a);
      g.mergeNode(b);
      g.addEdge(a, b, { weight: n });
    }
  }
  if (g.order === 0) return units;
  const community = louvain(g, { getEdgeWeight: 'weight', rng: mulberry32(LOUVAIN_SEED) });
  const out: Unit[] = [];
  for (const u of units) {
    if (u.files.length < SPLIT_MIN_FILES) {
      out.push(u);
      continue;
    }
    const byCommunity = new Map<number, string[]>();
    for (const f of u.files) {
      const c = community[f];
      if (c === undefined) continue;
      const list = byCommunity.get(c) ?? [];
      list.push(f);
      byCommunity.set(c, list);
    }
    const minGroup = Math.max(MIN_ROOM_FILES, Math.ceil(u.files.length * SPLIT_GROUP_MIN_SHARE));
    const big = joinLinked([...byCommunity.values()], adj).filter((g2) => g2.length >= minGroup).sort((a, b) => b.length - a.length);
    if (big.length < 2) {
      out.push(u);
      continue;
    }
    const inUnit = new Set(u.files);
    for (const group of big.slice(1)) {
      const members = new Set(group);
      out.push({ folder: u.folder, at: u.at, direct: false, files: group, globs: compressGlobs(members, inUnit), noSplit: true, splitFrom: u });
      for (const f of group) inUnit.delete(f);
    }
    out.push({ ...u, files: [...inUnit] });
  }
  return out;
}

/**
 * Louvain cuts where modularity gains, which inside one folder can be a chain of files that
 * all import each other in turn. Communities that import each other more than
 * SPLIT_MAX_CROSS_SHARE of the smaller one's inside imports are joined again, so only groups
 * that (almost) do not import each other remain apart.
 */
function joinLinked(groups: string[][], adj: Map<string, Map<string, number>>): string[][] {
  const groupOf = new Map<string, number>();
  groups.forEach((g, i) => g.forEach((f) => groupOf.set(f, i)));
  const inside = groups.map(() => 0);
  const across = new Map<string, number>();
  for (const [f, i] of groupOf) {
    for (const [other, n] of adj.get(f) ?? []) {
      const j = groupOf.get(other);
      if (j === undefined) continue;
      if (j === i) inside[i]! += n;
      else if (i < j) across.set(`${i} ${j}`, (across.get(`${i} ${j}`) ?? 0) + n);
      else across.set(`${j} ${i}`, (across.get(`${j} ${i}`) ?? 0) + n);
    }
  }
  const parent = groups.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  for (const [pair, n] of across) {
    const [i, j] = pair.split(' ').map(Number) as [number, number];
    if (n > SPLIT_MAX_CROSS_SHARE * Math.min(inside[i]!, inside[j]!)) parent[root(i)] = root(j);
  }
  const joined = new Map<number, string[]>();
  groups.forEach((g, i) => {
    const r = root(i);
    joined.set(r, [...(joined.get(r) ?? []), ...g]);
  });
  return [...joined.values()];
}

/** The fewest globs naming exactly `group` among `all`: whole folders where they can, files elsewhere. */
function compressGlobs(group: ReadonlySet<string>, all: ReadonlySet<string>): string[] {
  const outside = new Set<string>();
  for (const f of all) {
    if (group.has(f)) continue;
    for (let d = parentOf(f); d !== ''; d = parentOf(d)) outside.add(d);
  }
  const globs = new Set<string>();
  for (const f of group) {
    let best: string | null = null;
    for (let d = parentOf(f); d !== '' && !outside.has(d); d = parentOf(d)) best = d;
    globs.add(best === null ? f : `${best}/**`);
  }
  return [...globs].sort();
}

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    let t = (state = (state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
