/**
 * The write floor: what the burst's rows cost SQLite with nothing else around them, measured in
 * the same run right after the tick and its floor. One transaction inserts, for each present
 * file of the burst, its code-map row and its full-text row into a scratch store of the same
 * schema (a fresh file opened with openStore: the same migrations, WAL, synchronous=NORMAL),
 * in file-id order. The rows are the pipeline's own (hashAndExtract on this thread, not timed),
 * so the text and fields written are the tick's; they are made a chunk at a time while the
 * transaction is open, so the bench's own memory does not grow with the burst.
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

const FILE_SQL = `INSERT INTO files (id, root_id, path, size, mtime_ms, hash, language, lines, indexed, symbol_count, symbols, imports, refs, ingested_at)
                  VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`;
const FTS_SQL = 'INSERT INTO fts (rowid, path, symbols, content) VALUES (?, ?, ?, ?)';

/** Files made into rows at a time: the bench's own heap stays small (its peak RSS is a target). */
const ROWS_PER_CHUNK = 32;

/**
 * The write floor of the burst whose present files are `paths` under `root`, in ms: the time
 * of one transaction's statements and its COMMIT. The rows are made a chunk at a time inside
 * the open transaction with the clock stopped, so the bench never holds the whole burst.
 */
export async function measureWriteFloor(root: string, paths: readonly string[]): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'gardener-write-floor-'));
  try {
    const db = openStore(join(dir, 'brain.db'));
    try {
      db.exec("INSERT INTO roots (id, path, added_at) VALUES (1, '/scratch', 0)");
      const file = db.prepare(FILE_SQL);
      const fts = db.prepare(FTS_SQL);
      let ms = 0;
      let id = 0;
      db.exec('BEGIN IMMEDIATE');
      try {
        for (let at = 0; at < paths.length; at += ROWS_PER_CHUNK) {
          const items = paths.slice(at, at + ROWS_PER_CHUNK).map((path, i) => ({ id: at + i + 1, rootId: 1, path, knownHash: null }));
          const results = await hashAndExtract({ roots: { 1: root }, items, maxIndexBytes: DEFAULT_MAX_INDEX_BYTES });
          const t0 = performance.now();
          for (const r of results) {
            if (r.status !== 'ingested') continue;
            id++;
            file.run(id, r.path, r.size, r.mtimeMs, r.hash, r.language, r.lines, r.text === null ? 0 : 1, r.symbolCount, r.symbolsJson, r.importsJson, r.refsText);
            fts.run(id, r.path, r.symbolNames, r.text === null ? '' : Buffer.from(r.text.buffer, r.text.byteOffset, r.text.byteLength).toString('utf8'));
          }
          ms += performance.now() - t0;
        }
        const t0 = performance.now();
        db.exec('COMMIT');
        return ms + (performance.now() - t0);
      } catch (err) {
        db.exec('ROLLBACK');
        throw err;
      }
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
