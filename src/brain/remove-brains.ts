/**
 * Removing brains from a home: the registry entries first (atomically, so no folder resolves
 * to a brain being removed), then each brain's folder. A crash between the two leaves a folder
 * no entry names, which `listHomeBrains` reports as an orphan and the next prune removes.
 *
 * Whoever removes holds the home: `gardener brains` with no owner running takes the owner lock
 * (cli/commands/brains.ts); a running owner removes them itself, closing each brain between
 * the two steps (owner/owner-brains.ts), since it keeps a brain's store open and would find it
 * again under the same id if the folder came back. The folders the brains map are never touched.
 */
import { rmSync } from 'node:fs';
import { basename } from 'node:path';
import { InvalidArgumentError } from '../errors.js';
import { allRootsGone, folderBytes, orphanFolders } from './home-brains-list.js';
import { brainDir } from './home.js';
import { Registry, type BrainEntry } from './registry.js';

/** What to remove: every brain whose folders are gone and every orphan, or brains by id. */
export type RemovalChoice = { prune: true } | { ids: readonly string[] };

export interface Removal {
  /** Ids unregistered, with their folders removed. */
  removed: string[];
  /** Orphan folders removed. */
  orphans: string[];
}

export interface RemovalPlan extends Removal {
  /** What each chosen brain's folder (by id) and each orphan (by path) weighs, counted before removing. */
  bytes: Map<string, number>;
  /** Each chosen brain's roots, joined, for a person reading what went. */
  roots: Map<string, string>;
  /** The chosen brains whose folders are all gone. */
  gone: Set<string>;
}

/** Most brains one removal names (a request over the socket or the page is bounded). */
export const MAX_REMOVAL_IDS = 1000;

/** A removal choice from a request (the owner's socket): `{"prune":true}` or `{"ids":["…"]}`. */
export function removalChoiceOf(value: unknown): RemovalChoice {
  const v = value as { prune?: unknown; ids?: unknown } | null;
  if (v && typeof v === 'object' && v.prune === true && v.ids === undefined) return { prune: true };
  if (v && typeof v === 'object' && v.prune === undefined && Array.isArray(v.ids) && v.ids.length <= MAX_REMOVAL_IDS && v.ids.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 200)) {
    return { ids: v.ids as string[] };
  }
  throw new InvalidArgumentError(`what to remove must be {"prune":true} or {"ids":[…]} (at most ${MAX_REMOVAL_IDS} brain ids), got ${JSON.stringify(value)?.slice(0, 200)}`);
}

/**
 * What a removal would take, read from the home now (also a dry run's answer): the registry,
 * the chosen brains' roots (are they gone) and folders (what they weigh), and for a prune the
 * folders no entry names. No store is opened: the owner plans on its main thread.
 */
export function planRemoval(home: string, choice: RemovalChoice, entries: readonly BrainEntry[] = new Registry(home).list()): RemovalPlan {
  const withGone = (e: BrainEntry) => ({ e, gone: allRootsGone(e.roots) });
  let chosen: { e: BrainEntry; gone: boolean }[];
  if ('prune' in choice) chosen = entries.map(withGone).filter((c) => c.gone);
  else {
    const byId = new Map(entries.map((e) => [e.id, e]));
    chosen = [...new Set(choice.ids)].map((id) => {
      const e = byId.get(id);
      if (!e) throw new InvalidArgumentError(`no brain "${id}" in ${home}: \`gardener brains\` lists them`);
      return withGone(e);
    });
  }
  const orphans = 'prune' in choice ? orphanFolders(home, new Set(entries.map((e) => e.id))) : [];
  return {
    removed: chosen.map((c) => c.e.id),
    orphans,
    bytes: new Map([...chosen.map((c) => [c.e.id, folderBytes(brainDir(home, c.e.id))] as const), ...orphans.map((dir) => [dir, folderBytes(dir)] as const)]),
    roots: new Map(chosen.map((c) => [c.e.id, c.e.roots.join(', ')])),
    gone: new Set(chosen.filter((c) => c.gone).map((c) => c.e.id)),
  };
}

/** What a removal freed (or a dry run would), from what its plan weighed. */
export function bytesFreed(plan: RemovalPlan, removal: Removal): number {
  return [...removal.removed, ...removal.orphans].reduce((s, key) => s + (plan.bytes.get(key) ?? 0), 0);
}

/** Step one: the registry entries (one atomic rewrite); the ids that were there. */
export function unregisterBrains(home: string, ids: readonly string[]): string[] {
  return new Registry(home).remove(ids).map((e) => e.id);
}

/**
 * Step two: the folders of the brains unregistered, and the orphans still orphans now: a brain
 * being created registers before it makes its folder, so a folder that became a brain since
 * the plan was made is named by the registry here, and kept. The orphans removed.
 */
export function removeBrainFolders(home: string, removed: readonly string[], orphans: readonly string[]): string[] {
  const known = new Set(new Registry(home).list().map((e) => e.id));
  const strays = orphans.filter((dir) => !known.has(basename(dir)));
  for (const dir of [...removed.map((id) => brainDir(home, id)), ...strays]) rmSync(dir, { recursive: true, force: true });
  return strays;
}

/** Both steps, for a process that holds the home and has none of these brains open. */
export function removeBrains(home: string, ids: readonly string[], orphans: readonly string[] = []): Removal {
  const removed = unregisterBrains(home, ids);
  return { removed, orphans: removeBrainFolders(home, removed, orphans) };
}
