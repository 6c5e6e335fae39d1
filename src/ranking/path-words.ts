/**
 * The map's paths as words (split identifiers of every segment), held in memory per reader
 * connection: how many paths hold each word (the path list's IDF: "tests" or the package's own
 * name sit in most paths and must count for little there), and which files hold it, so a file
 * whose path names the task is a candidate even when the full-text index cannot see the word
 * (`zsh_completions.go` is one token there). Rebuilt when the set of paths may have changed
 * (file count, newest id or the vigil's tick count moved: paths never change in place, a rename
 * is a delete and an insert), never by a scan of the files table; ~5–10 ms for 5000 paths.
 */
import type { Database } from '../store/index.js';
import { splitWords } from './words.js';

export interface PathFile {
  id: number;
  path: string;
  words: string[];
  /** Words of the last segment (the file's own name). */
  nameWords: Set<string>;
}

export interface PathVocabulary {
  stamp: string;
  files: PathFile[];
  /** Word → indexes into `files` of the paths holding it. */
  postings: Map<string, number[]>;
  /** File id → index into `files`. */
  byId: Map<number, number>;
  /** Path without extension (and without a trailing `/index`) → index into `files`: how a relative import names a file. */
  byStem: Map<string, number>;
}

/** `src/a/index.ts` → `src/a`, `src/b.js` → `src/b`: both sides of an import meet on this. */
export const stemOf = (p: string) => p.replace(/\.[A-Za-z0-9]+$/, '').replace(/\/index$/, '');

const cache = new WeakMap<Database, PathVocabulary>();

export function pathVocabulary(db: Database): PathVocabulary {
  const s = db.prepare('SELECT count(*) AS n, max(id) AS id, (SELECT ticks FROM vigil) AS t FROM files').get<{ n: number; id: number | null; t: number | null }>()!;
  const stamp = `${s.n}:${s.id}:${s.t}`;
  const hit = cache.get(db);
  if (hit && hit.stamp === stamp) return hit;
  const files: PathFile[] = [];
  const postings = new Map<string, number[]>();
  const byId = new Map<number, number>();
  const byStem = new Map<string, number>();
  for (const { id, path } of db.prepare('SELECT id, path FROM files').all<{ id: number; path: string }>()) {
    const words = [...new Set(splitWords(path))];
    for (const w of words) {
      let list = postings.get(w);
      if (!list) postings.set(w, (list = []));
      list.push(files.length);
    }
    byId.set(id, files.length);
    if (!byStem.has(stemOf(path))) byStem.set(stemOf(path), files.length);
    files.push({ id, path, words, nameWords: new Set(splitWords(path.slice(path.lastIndexOf('/') + 1))) });
  }
  const vocab = { stamp, files, postings, byId, byStem };
  cache.set(db, vocab);
  return vocab;
}
