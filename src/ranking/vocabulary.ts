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

/** Endings that make another form of the same word (route/routes/routed/routing, compress/compression). */
const SUFFIXES = ['', 's', 'es', 'e', 'd', 'ed', 'er', 'ers', 'ing', 'ion', 'ions', 'ation', 'ations'];
const BASE_ENDINGS = /(ations|ation|ions|ion|ings|ing|ers|er|es|ed|s|e|d)$/;

/**
 * The forms of each word to ask the full-text index for (route → route, routes, routed,
 * routing…), as exact terms: a term the index lacks costs one b-tree probe, while a prefix
 * query on a word that starts many compound identifiers (`local*`) costs tens of milliseconds
 * on a 5000-file brain, and a range read of the vocabulary reads every matching doclist.
 */
export function wordForms(words: readonly string[], minChars: number): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const w of words) {
    if (w.length < minChars) {
      out.set(w, [w]);
      continue;
    }
    const stripped = w.replace(BASE_ENDINGS, '');
    const base = stripped.length >= minChars - 1 ? stripped : w;
    out.set(w, [...new Set([w, ...SUFFIXES.map((s) => base + s)])]);
  }
  return out;
}
