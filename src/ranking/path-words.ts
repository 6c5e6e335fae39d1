/**
 * The map's paths as words (split identifiers of every segment), held in memory per reader
 * connection: how many paths hold each word (the path list's IDF: "tests" or the package's own
 * name sit in most paths and must count for little there), and which files hold it, so a file
 * whose path names the task is a candidate even when the full-text index cannot see the word
 * (`zsh_completions.go` is one token there). Rebuilt when the set of paths may have changed
 * (file count, newest id or the vigil's tick count moved: paths never change in place, a rename
 * is a delete and an insert), never by a scan of the files table. A rebuild splits only the
 * paths the last one had not: splitting is most of the build (in a soak of `gardener serve` the
 * first `delegate` after each burst rebuilt it on the main thread, ~9 ms of a ~20 ms call on
 * 3,800 paths), and a burst adds a few paths to thousands. 5000 paths (Node 20, medians of 15):
 * the first build 46 ms, a rebuild after a tick that added one path 8 ms (all split: 50 ms).
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

/** A path's words and stem as a build split them: a path's text never changes, so neither do they. */
type SplitPath = Pick<PathFile, 'words' | 'nameWords'> & { stem: string };
/** Each connection's split paths, those of its last build (a removed path leaves with the next). */
const splits = new WeakMap<Database, Map<string, SplitPath>>();

export function pathVocabulary(db: Database, split: (text: string) => string[] = splitWords): PathVocabulary {
  const s = db.prepare('SELECT count(*) AS n, max(id) AS id, (SELECT ticks FROM vigil) AS t FROM files').get<{ n: number; id: number | null; t: number | null }>()!;
  const stamp = `${s.n}:${s.id}:${s.t}`;
  const hit = cache.get(db);
  if (hit && hit.stamp === stamp) return hit;
  const files: PathFile[] = [];
  const postings = new Map<string, number[]>();
  const byId = new Map<number, number>();
  const byStem = new Map<string, number>();
  const before = splits.get(db);
  const now = new Map<string, SplitPath>();
  for (const { id, path } of db.prepare('SELECT id, path FROM files').all<{ id: number; path: string }>()) {
    let known = before?.get(path);
    if (known === undefined) known = { words: [...new Set(split(path))], nameWords: new Set(split(path.slice(path.lastIndexOf('/') + 1))), stem: stemOf(path) };
    now.set(path, known);
    for (const w of known.words) {
      let list = postings.get(w);
      if (!list) postings.set(w, (list = []));
      list.push(files.length);
    }
    byId.set(id, files.length);
    if (!byStem.has(known.stem)) byStem.set(known.stem, files.length);
    files.push({ id, path, words: known.words, nameWords: known.nameWords });
  }
  splits.set(db, now);
  const vocab = { stamp, files, postings, byId, byStem };
  cache.set(db, vocab);
  return vocab;
}
