/**
 * better-sqlite3 (v12: v13 needs Node 22), for Node without `node:sqlite` (20, and 22 before
 * 22.13). It is an optional dependency with a native binding built for one Node ABI, so it is
 * loaded only here, only when chosen. Its binding loads on the first `new Database`, so loading
 * the driver opens an in-memory database at once: a binding built for another Node fails here,
 * before any brain is touched.
 */
import { StatementCache, DEFAULT_BUSY_TIMEOUT_MS, type Database, type Driver, type ModuleLoader, type SqlValue } from './types.js';

type BetterSqlite = typeof import('better-sqlite3');

export function loadBetterSqlite3(load: ModuleLoader): Driver {
  const BetterSqlite = load('better-sqlite3') as BetterSqlite;
  const probe = new BetterSqlite(':memory:');
  const sqliteVersion = (probe.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  probe.close();
  return {
    name: 'better-sqlite3',
    sqliteVersion,
    open(file, options): Database {
      const db = new BetterSqlite(file, {
        readonly: options.readonly ?? false,
        fileMustExist: options.readonly ?? false,
        timeout: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
      });
      const statements = new StatementCache((sql) => {
        const raw = db.prepare(sql);
        // better-sqlite3 refuses run() on a statement that returns rows (a PRAGMA, say).
        const returnsRows = raw.reader;
        return {
          run: (...p: SqlValue[]) => ({ changes: returnsRows ? (raw.all(...p), 0) : raw.run(...p).changes }),
          get: <T>(...p: SqlValue[]) => raw.get(...p) as T | undefined,
          all: <T>(...p: SqlValue[]) => raw.all(...p) as T[],
        };
      });
      return {
        file,
        driver: 'better-sqlite3',
        sqliteVersion,
        exec: (sql) => void db.exec(sql),
        prepare: (sql) => statements.get(sql),
        get statementsHeld() {
          return statements.size;
        },
        transaction(fn) {
          const tx = db.transaction(fn);
          return (...args) => tx.immediate(...args);
        },
        close: () => void db.close(),
      };
    },
  };
}
