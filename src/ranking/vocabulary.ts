/**
 * How many files hold each term, read from the full-text index itself through an fts5vocab
 * table in the connection's TEMP schema: nothing is stored, the reader connection stays
 * read-only, and a lookup is one index probe per term.
 */
import type { Database } from '../store/index.js';

const prepared = new WeakSet<Database>();

function ensureVocabulary(db: Database): void {
  if (prepared.has(db)) return;
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.gardener_fts_vocab USING fts5vocab(main, 'fts', 'row')");
  prepared.add(db);
}

export function documentFrequencies(db: Database, terms: readonly string[]): { total: number; df: Map<string, number> } {
  ensureVocabulary(db);
  const total = db.prepare('SELECT count(*) AS n FROM files').get<{ n: number }>()!.n;
  const one = db.prepare('SELECT doc FROM temp.gardener_fts_vocab WHERE term = ?');
  const df = new Map<string, number>();
  for (const t of terms) df.set(t, one.get<{ doc: number }>(t)?.doc ?? 0);
  return { total, df };
}
