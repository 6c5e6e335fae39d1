/**
 * Every brain of the home, for the page: the open ones as the owner describes them, and the
 * ones the registry lists that the owner has not opened (evicted from the LRU, or never asked
 * for since it started). A closed brain is read from its own store, read-only, and is not
 * opened in the owner, armed or ticked: a person looking at the page changes nothing.
 *
 * The page asks every BRAINS_SAMPLE_MS while it listens, so a closed brain's facts are read
 * again only when its store files changed (size and mtime of brain.db and its WAL), and the
 * registry only when its file changed.
 */
import { statSync } from 'node:fs';
import { allRootsGone, brainFile, readStoreFacts, Registry, type BrainEntry } from '../brain/index.js';
import type { OwnerBrains } from './owner-brains.js';

export interface ClosedBrainFacts {
  id: string;
  roots: readonly string[];
  open: false;
  armed: boolean;
  backlog: number | null;
  last_tick_at: string | null;
  /** When the map last advanced (what recall answers call fresh_as_of). */
  fresh_as_of: string | null;
  ticking: false;
  watch_backend: 'none';
  sessions: 0;
  files: number | null;
  symbols: number | null;
  alerts: number | null;
  /** Every root of the brain is gone from the disk (`gardener brains --prune` removes it). */
  gone: boolean;
}

const stamp = (file: string) => {
  try {
    const s = statSync(file);
    return `${s.size}:${s.mtimeMs}`;
  } catch {
    return '-';
  }
};

export class HomeBrains {
  #home: string;
  #owner: OwnerBrains;
  #registry: { stamp: string; list: readonly BrainEntry[] } = { stamp: '', list: [] };
  #closed = new Map<string, { stamp: string; facts: Omit<ClosedBrainFacts, 'gone'> }>();

  constructor(home: string, owner: OwnerBrains) {
    this.#home = home;
    this.#owner = owner;
  }

  /** The open brains first (as `GET /api/brains` says them), then the closed ones by root. */
  describe(): unknown[] {
    const open = this.#owner.describe().map((b) => ({ ...b, open: true, gone: allRootsGone(b.roots) }));
    const openIds = new Set(open.map((b) => b.id));
    const closed: ClosedBrainFacts[] = [];
    const entries = this.#entries();
    for (const entry of entries) {
      if (openIds.has(entry.id)) continue;
      // Gone is read at each ask, not kept with the store's facts: a folder goes without its store changing.
      closed.push({ ...this.#closedFacts(entry), gone: allRootsGone(entry.roots) });
    }
    closed.sort((a, b) => (a.roots[0] ?? a.id).localeCompare(b.roots[0] ?? b.id));
    // Facts kept only for closed brains still registered (a removed brain's go with it).
    const listed = new Set(entries.map((e) => e.id));
    for (const id of this.#closed.keys()) if (openIds.has(id) || !listed.has(id)) this.#closed.delete(id);
    return [...open, ...closed];
  }

  #entries(): readonly BrainEntry[] {
    const s = stamp(`${this.#home}/registry.json`);
    if (s !== this.#registry.stamp) {
      let list: readonly BrainEntry[] = [];
      try {
        list = new Registry(this.#home).list();
      } catch {
        // A registry being replaced or unreadable: the open brains are still shown.
      }
      this.#registry = { stamp: s, list };
    }
    return this.#registry.list;
  }

  #closedFacts(entry: BrainEntry): Omit<ClosedBrainFacts, 'gone'> {
    const file = brainFile(this.#home, entry.id);
    const s = `${stamp(file)}|${stamp(`${file}-wal`)}`;
    const hit = this.#closed.get(entry.id);
    if (hit && hit.stamp === s) return hit.facts;
    const facts: Omit<ClosedBrainFacts, 'gone'> = { id: entry.id, roots: entry.roots, open: false, armed: false, backlog: null, last_tick_at: null, fresh_as_of: null, ticking: false, watch_backend: 'none', sessions: 0, files: null, symbols: null, alerts: null };
    if (s !== '-|-') {
      try {
        Object.assign(facts, readStoreFacts(file));
      } catch {
        // A store that will not open read-only (too new, corrupt): its registry entry is still shown.
      }
    }
    this.#closed.set(entry.id, { stamp: s, facts });
    return facts;
  }
}
