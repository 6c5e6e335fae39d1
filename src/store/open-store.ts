/**
 * Opens a brain's SQLite file, checks it is ours, and brings its schema up to date.
 *
 * A file that is not SQLite, or a SQLite database that is not a Gardener brain, is never
 * altered or deleted: the caller gets a StoreCorruptError naming the file and how to rebuild.
 * Any other failure (permission, lock, disk, driver) keeps its own error (open-failure.ts).
 * WAL lets recall readers run beside the one writer; synchronous=NORMAL is durable across a
 * process crash (only an OS crash can lose the last commits), which is the failure we design for.
 */
import { InvalidArgumentError, StoreCorruptError, StoreTooNewError } from '../errors.js';
import { openFailure } from './open-failure.js';
import { makeStoreFilesPrivate } from './private-files.js';
import { openDatabase, type Database } from './sqlite-adapter.js';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from './schema.js';

/** The WAL file is truncated back to this after a checkpoint, so a burst's WAL does not stay. */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

export interface OpenStoreOptions {
  /**
   * Open a read-only connection for recall (an older schema is migrated first). It keeps
   * SQLite's default `mmap_size` and the STORE_CACHE_KIB cache every connection has: every
   * commit of the writer empties a reader's page cache, and on a 5000-file brain neither a
   * 256 MB mmap (cold queries took ~5% more CPU) nor a 64 MB cache (no change) made `seek`
   * cheaper, where a merged full-text index did (maintenance.ts). @default false
   */
  readonly?: boolean;
  /** How long to wait on another connection's lock, in ms. @default 5000 */
  busyTimeoutMs?: number;
}

/**
 * SQLite's page cache per connection (the writer's and each reader's), in KiB: SQLite's own
 * default, which node:sqlite and bun:sqlite keep, while better-sqlite3 is built with 16 MB. A
 * reader's cache is emptied by every commit of the writer anyway, and the writer re-reads a
 * page from the OS's cache in microseconds. Measured on the bench (5000 files, a 1000-file
 * burst, the tree-sitter burst, the skeleton; Node 20, interleaved against the 16 MB build in
 * one sitting on a loaded 2-core machine): peak RSS 214 -> 194 MB (medians of 3; malloc outside
 * the heaps 45 -> 24 MB); 1000-file burst tick 518 -> 469 ms, writer transactions 1.03x, 5000-file
 * first ingest 0.98x the CPU (medians of 5). A 4 MB cache peaked 4 MB higher for no speed.
 * `seek` beside it (bench/seek-latency.ts, medians of 3): idle p50 1.28 ms with a 2 MB reader
 * cache and 1.16 ms with 16 MB, during a drain 1.48 and 1.50 ms, p99s within the noise; an
 * owner keeps a reader per brain, so 14 MB more per brain is not worth that.
 */
export const STORE_CACHE_KIB = 2000;

export function openStore(file: string, options: OpenStoreOptions = {}): Database {
  const t = options.busyTimeoutMs;
  if (t !== undefined && (!Number.isInteger(t) || t < 0)) {
    throw new InvalidArgumentError(`options.busyTimeoutMs must be a non-negative integer, got ${String(t)} (${typeof t})`);
  }
  if (options.readonly) {
    try {
      return openVerified(file, true, options);
    } catch (err) {
      if (!(err instanceof NeedsMigration)) throw err;
      // A store written by an older Gardener: migrate it once (a short write), then read.
      openVerified(file, false, options).close();
      return openVerified(file, true, options);
    }
  }
  return openVerified(file, false, options);
}

/** Internal: a read-only open found an older schema. */
class NeedsMigration extends Error {}

function openVerified(file: string, readonly: boolean, options: OpenStoreOptions): Database {
  let db: Database;
  try {
    makeStoreFilesPrivate(file, !readonly);
    db = openDatabase(file, { readonly, busyTimeoutMs: options.busyTimeoutMs });
  } catch (err) {
    throw openFailure(file, err);
  }
  try {
    verifyAndMigrate(db, file, readonly);
    db.exec(`PRAGMA cache_size = -${STORE_CACHE_KIB}`);
    return db;
  } catch (err) {
    db.close();
    if (err instanceof NeedsMigration) throw err;
    throw openFailure(file, err);
  }
}

function verifyAndMigrate(db: Database, file: string, readonly: boolean): void {
  const appId = pragmaNumber(db, 'application_id');
  const version = pragmaNumber(db, 'user_version');
  if (appId !== APPLICATION_ID) {
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master").get<{ n: number }>()!.n;
    if (appId !== 0 || tables > 0) throw new StoreCorruptError(file, 'it is a SQLite database of another application');
  }
  if (version > SCHEMA_VERSION) throw new StoreTooNewError(file, version, SCHEMA_VERSION);
  if (readonly) {
    if (version < SCHEMA_VERSION) throw new NeedsMigration(`${file}: schema ${version} < ${SCHEMA_VERSION}`);
    return;
  }
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  db.exec('PRAGMA foreign_keys = OFF');
  if (version === SCHEMA_VERSION) return;
  const migrate = db.transaction(() => {
    // Re-read inside the write lock: another process may have migrated meanwhile.
    const current = pragmaNumber(db, 'user_version');
    for (let v = current; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]!);
    db.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  });
  migrate();
}

function pragmaNumber(db: Database, name: string): number {
  const row = db.prepare(`PRAGMA ${name}`).get<Record<string, number>>();
  return row ? Number(Object.values(row)[0]) : 0;
}
