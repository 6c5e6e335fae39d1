/**
 * How many file paths hold each word (split identifiers of every path segment), for the path
 * list's IDF: "tests" or the package's own name sit in most paths and must count for little
 * there, whatever their count in content. Built from the files table once per connection and
 * rebuilt when the map changed (file count or newest ingest time moved); ~5 ms for 5000 paths.
 */
import type { Database } from '../store/index.js';
import { splitWords } from './words.js';

interface PathVocabulary {
  stamp: string;
  total: number;
  df: Map<string, number>;
}

const cache = new WeakMap<Database, PathVocabulary>();

export function pathVocabulary(db: Database): PathVocabulary {
  const s = db.prepare('SELECT count(*) AS n, max(id) AS id, max(ingested_at) AS t FROM files').get<{ n: number; id: number | null; t: number | null }>()!;
  const stamp = `${s.n}:${s.id}:${s.t}`;
  const hit = cache.get(db);
  if (hit && hit.stamp === stamp) return hit;
  const df = new Map<string, number>();
  for (const { path } of db.prepare('SELECT path FROM files').all<{ path: string }>()) {
    for (const w of new Set(splitWords(path))) df.set(w, (df.get(w) ?? 0) + 1);
  }
  const vocab = { stamp, total: s.n, df };
  cache.set(db, vocab);
  return vocab;
}
