/**
 * Names for proposed rooms: the folder's last meaningful segment (`src/store` → `store`,
 * `java/x/src/main/java` → `x`), with more segments only where two rooms would collide, and
 * `-files` for a folder's own files beside its split subfolders. A room cut out by the import
 * graph adds its first file's stem. Names stay unique (case-insensitive).
 */
import { posix } from 'node:path';
import type { Unit } from './candidate.js';

/** Folder names that say nothing about what is inside; a room is named after the next one up. */
const GENERIC_FOLDERS = new Set(['src', 'lib', 'main', 'java', 'kotlin', 'internal', 'pkg', 'app', 'com', 'org', 'net', 'io', 'source', 'sources', 'code']);


/** Names every unit in place. */
export function nameRooms(units: Unit[]): void {
  const base = (u: Unit): string[] => {
    if (u.folder === '') return u.direct ? ['root'] : ['all'];
    const segs = u.folder.split('/').map(slug).filter(Boolean);
    const meaningful = segs.filter((s) => !GENERIC_FOLDERS.has(s));
    return meaningful.length > 0 ? meaningful : segs;
  };
  const taken = new Set<string>();
  const wanted = units.map((u) => {
    const segs = base(u);
    const extra = u.splitFrom ? slug(stemOf(u.files[0]!)) : null;
    return { u, segs, extra };
  });
  for (const depth of [1, 2, 3]) {
    const counts = new Map<string, number>();
    const label = (w: (typeof wanted)[number]) => [...w.segs.slice(-depth), ...(w.extra ? [w.extra] : [])].join('-') + (w.u.direct && w.u.folder !== '' ? '-files' : '');
    for (const w of wanted) if (!w.u.name) counts.set(label(w), (counts.get(label(w)) ?? 0) + 1);
    for (const w of wanted) {
      const l = label(w).slice(0, 60);
      if (!w.u.name && counts.get(label(w)) === 1 && !taken.has(l.toLowerCase())) {
        w.u.name = l;
        taken.add(l.toLowerCase());
      }
    }
  }
  for (const w of wanted) {
    if (w.u.name) continue;
    const l = [...w.segs.slice(-3), ...(w.extra ? [w.extra] : [])].join('-').slice(0, 56) || 'room';
    let n = 2;
    while (taken.has(`${l}-${n}`.toLowerCase())) n++;
    w.u.name = `${l}-${n}`;
    taken.add(w.u.name.toLowerCase());
  }
}

const slug = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').toLowerCase();
const stemOf = (p: string) => posix.basename(p).replace(/\.[^.]*$/, '');

