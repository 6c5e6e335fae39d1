/**
 * The write floor: what the burst's rows cost SQLite with nothing else around them, measured in
 * the same run right after the tick and its floor. One transaction inserts, for each present
 * file of the burst, its code-map row and its full-text row into a scratch store of the same
 * schema (a fresh file opened with openStore: the same migrations, WAL, synchronous=NORMAL),
 * in file-id order. The rows are the pipeline's own (hashAndExtract on this thread, not timed),
 * so the text and fields written are the tick's.
 *
 * What the tick does beyond it is the law's and the map's work: replacing rows that are there
 * (deleting the old full-text rows), removing each item from the backlog in the same
 * transaction, and a 5000-file index to add to instead of an empty one. The tick is judged
 * against floor + write floor: the least that reading, hashing and writing the burst can cost.
 *
 * The bench may block its own main thread here: this is the yardstick, not the product.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashAndExtract } from '../src/ingest/index.js';
import { openStore } from '../src/store/index.js';
import { DEFAULT_MAX_INDEX_BYTES } from '../src/vigil/index.js';
import type { IngestedResult } from '../workers/types.js';

const FILE_SQL = `INSERT INTO files (id, root_id, path, size, mtime_ms, hash, language, lines, indexed, symbol_count, symbols, imports, refs, ingested_at)
                  VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`;
const FTS_SQL = 'INSERT INTO fts (rowid, path, symbols, content) VALUES (?, ?, ?, ?)';

/** The burst's rows as the pool makes them (untimed), for `root`'s `paths`. */
export async function burstRows(root: string, paths: readonly string[]): Promise<IngestedResult[]> {
  const items = paths.map((path, i) => ({ id: i + 1, rootId: 1, path, knownHash: null }));
  const results = await hashAndExtract({ roots: { 1: root }, items, maxIndexBytes: DEFAULT_MAX_INDEX_BYTES });
  return results.filter((r): r is IngestedResult => r.status === 'ingested');
}

/** Wall time of one transaction writing `rows` into a fresh store of the brain's schema, in ms. */
export function timeWrite(rows: readonly IngestedResult[]): number {
  const dir = mkdtempSync(join(tmpdir(), 'gardener-write-floor-'));
  try {
    const db = openStore(join(dir, 'brain.db'));
    try {
      db.exec("INSERT INTO roots (id, path, added_at) VALUES (1, '/scratch', 0)");
      const file = db.prepare(FILE_SQL);
      const fts = db.prepare(FTS_SQL);
      const t0 = performance.now();
      db.transaction(() => {
        let id = 0;
        for (const r of rows) {
          id++;
          file.run(id, r.path, r.size, r.mtimeMs, r.hash, r.language, r.lines, r.text === null ? 0 : 1, r.symbolCount, r.symbolsJson, r.importsJson, r.refsText);
          fts.run(id, r.path, r.symbolNames, r.text === null ? '' : Buffer.from(r.text.buffer, r.text.byteOffset, r.text.byteLength).toString('utf8'));
        }
      })();
      return performance.now() - t0;
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The write floor of the burst whose present files are `paths` under `root`, in ms. */
export async function measureWriteFloor(root: string, paths: readonly string[]): Promise<number> {
  return timeWrite(await burstRows(root, paths));
}
