/** `bun:sqlite`, Bun's own SQLite (better-sqlite3 does not load in Bun). */
import { StatementCache, DEFAULT_BUSY_TIMEOUT_MS, type Database, type Driver, type ModuleLoader, type SqlValue } from './types.js';

interface BunStatement {
  finalize(): void;
  run(...p: SqlValue[]): { changes: number };
  get(...p: SqlValue[]): unknown;
  all(...p: SqlValue[]): unknown[];
}
interface BunDatabase {
  exec(sql: string): void;
  prepare(sql: string): BunStatement;
  transaction<F extends (...a: never[]) => unknown>(fn: F): F & { immediate: F };
  close(): void;
}
type BunDatabaseClass = new (f: string, o?: Record<string, boolean>) => BunDatabase;

export function loadBunSqlite(load: ModuleLoader): Driver {
  const { Database: BunDb } = load('bun:sqlite') as { Database: BunDatabaseClass };
  const probe = new BunDb(':memory:');
  const sqliteVersion = (probe.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  probe.close();
  return {
    name: 'bun:sqlite',
    sqliteVersion,
    open(file, options): Database {
      const db = options.readonly
        ? new BunDb(file, { readonly: true, strict: true })
        : new BunDb(file, { create: true, readwrite: true, strict: true });
      db.exec(`PRAGMA busy_timeout = ${options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS}`);
      // Bun closes a connection with live statements lazily (it stays open, holding its locks,
      // until they are collected), so close() finalizes every statement it prepared first.
      const prepared = new Set<BunStatement>();
      const statements = new StatementCache((sql) => {
        const raw = db.prepare(sql);
        prepared.add(raw);
        return {
          run: (...p: SqlValue[]) => ({ changes: raw.run(...p).changes }),
          get: <T>(...p: SqlValue[]) => (raw.get(...p) ?? undefined) as T | undefined,
          all: <T>(...p: SqlValue[]) => raw.all(...p) as T[],
          dispose: () => {
            prepared.delete(raw);
            raw.finalize();
          },
        };
      });
      return {
        file,
        driver: 'bun:sqlite',
        sqliteVersion,
        exec: (sql) => db.exec(sql),
        prepare: (sql) => statements.get(sql),
        get statementsHeld() {
          return statements.size;
        },
        transaction(fn) {
          const tx = db.transaction(fn as never) as unknown as { immediate: typeof fn };
          return (...args) => tx.immediate(...args);
        },
        close() {
          for (const st of prepared) st.finalize();
          prepared.clear();
          db.close();
        },
      };
    },
  };
}
