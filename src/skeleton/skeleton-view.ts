/**
 * The skeleton as a tool (and `--json`) answers it: compact, one entry per room with its
 * derived data beside its rules, long lists capped with exact counts, and a freshness stamp
 * (when the derived data was last refreshed, whether a reconcile is due).
 */
import type { Database } from '../store/index.js';
import { readSkeleton, readSkeletonMeta, type StoredSkeleton } from './skeleton-store.js';

/** Unroomed files and violations listed in an answer; the counts stay exact. */
export const VIEW_MAX_ITEMS = 20;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function skeletonView(db: Database, which: 'ratified' | 'candidate' | 'auto' = 'auto', now: number = Date.now()) {
  const meta = readSkeletonMeta(db);
  const ratified = which === 'candidate' ? null : readSkeleton(db, 'ratified');
  const candidate = which === 'ratified' || ratified ? null : readSkeleton(db, 'candidate');
  const hasCandidate = candidate !== null || (ratified !== null && readSkeleton(db, 'candidate') !== null);
  const lease = meta.lease && meta.lease.until > now ? { holder: meta.lease.holder, until: iso(meta.lease.until) } : null;
  const s = ratified ?? candidate;
  if (!s) {
    return {
      state: 'none' as const,
      store_version: meta.storeVersion,
      ...(which === 'ratified' && hasCandidate ? { has_candidate: true } : {}),
      hint: which === 'ratified' && hasCandidate
        ? 'no ratified skeleton yet; a candidate exists: read it with which: "candidate", then skeleton_ratify'
        : 'no skeleton yet: call skeleton_candidate to propose one from the code map',
    };
  }
  return {
    state: s.state,
    store_version: meta.storeVersion,
    ...viewOf(s),
    ...(s.state === 'ratified'
      ? { reconciled_at: iso(meta.reconciledAt ?? s.derivedAt), reconcile_due: meta.reconcileDueAt !== null, reconcile_due_at: iso(meta.reconcileDueAt), has_candidate: hasCandidate }
      : { derived_at: iso(s.derivedAt), lease }),
  };
}

export function viewOf(s: StoredSkeleton) {
  const d = s.derived;
  return {
    files: d.files,
    inside_share: d.inside_share,
    rooms: s.rooms.map((room, i) => {
      const r = d.rooms[i];
      return {
        name: room.name,
        purpose: room.purpose,
        ...(room.draft ? { draft: true } : {}),
        globs: room.globs,
        ...(room.may_use ? { may_use: room.may_use } : {}),
        files: r?.files ?? 0,
        key_files: r?.key_files ?? [],
        key_symbols: r?.key_symbols ?? [],
        uses: r?.uses ?? [],
      };
    }),
    unroomed: { count: d.unroomed.length, paths: d.unroomed.slice(0, VIEW_MAX_ITEMS) },
    violations: {
      count: d.violations.length,
      items: d.violations.slice(0, VIEW_MAX_ITEMS).map((v) => ({ file: v.file, line: v.line, module: v.module, from: v.from_room, to: v.to_room })),
    },
    ...(d.empty_globs.length ? { empty_globs: d.empty_globs } : {}),
  };
}

/** The ratified rooms, one short entry each (globs and derived data are in `skeleton`), for `north`; null without one. */
export function northRooms(db: Database): { name: string; purpose: string; files: number }[] | null {
  const r = readSkeleton(db, 'ratified');
  if (!r) return null;
  return r.rooms.map((room, i) => ({ name: room.name, purpose: room.purpose, files: r.derived.rooms[i]?.files ?? 0 }));
}
