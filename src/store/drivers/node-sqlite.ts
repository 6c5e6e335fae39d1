/**
 * `node:sqlite`, the SQLite built into Node (unflagged from 22.13 and 23.4): no native build,
 * no ABI to match, so a Node upgraded under Gardener keeps working. Node 22 still prints an
 * ExperimentalWarning when the module loads; that one warning (and no other) is dropped here,
 * because it would land on the stderr of every CLI run and MCP session.
 */
import { StatementCache, DEFAULT_BUSY_TIMEOUT_MS, type Database, type Driver, type ModuleLoader, type SqlValue } from './types.js';

/** The part of `node:sqlite` we use (@types/node 20 does not describe it). */
interface StatementSync {
  run(...p: SqlValue[]): { changes: number | bigint };
  get(...p: SqlValue[]): unknown;
  all(...p: SqlValue[]): unknown[];
}
interface DatabaseSync {
  exec(sql: string): void;
  prepare(sql: string): StatementSync;
  close(): void;
}
type DatabaseSyncClass = new (file: string, options?: { readOnly?: boolean }) => DatabaseSync;

export function loadNodeSqlite(load: ModuleLoader): Driver {
  const { DatabaseSync } = withoutSqliteWarning(() => load('node:sqlite')) as { DatabaseSync: DatabaseSyncClass };
  const probe = new DatabaseSync(':memory:');
  const sqliteVersion = (probe.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  probe.close();
  return {
    name: 'node:sqlite',
    sqliteVersion,
    open(file, options): Database {
      const db = new DatabaseSync(file, { readOnly: options.readonly ?? false });
      try {
        db.exec(`PRAGMA busy_timeout = ${options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS}`);
      } catch (err) {
        db.close();
        throw err;
      }
      let depth = 0;
      const rollback = (savepoint: string) => {
        try {
          db.exec(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
        } catch {
          // SQLite already rolled back (a failed COMMIT, say): the first error is the story.
        }
      };
      const statements = new StatementCache((sql) => {
        const raw = db.prepare(sql);
        return {
          run: (...p: SqlValue[]) => ({ changes: Number(raw.run(...p).changes) }),
          get: <T>(...p: SqlValue[]) => raw.get(...p) as T | undefined,
          all: <T>(...p: SqlValue[]) => raw.all(...p) as T[],
        };
      });
      return {
        file,
        driver: 'node:sqlite',
        sqliteVersion,
        exec: (sql) => db.exec(sql),
        prepare: (sql) => statements.get(sql),
        get statementsHeld() {
          return statements.size;
        },
        transaction(fn) {
          // The outermost call takes the write lock at once; a nested call is a savepoint, as
          // better-sqlite3 and bun:sqlite do it.
          return (...args) => {
            const savepoint = `gardener_${depth}`;
            db.exec(depth === 0 ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${savepoint}`);
            depth++;
            let result: ReturnType<typeof fn>;
            try {
              result = fn(...args);
            } catch (err) {
              depth--;
              rollback(savepoint);
              throw err;
            }
            depth--;
            try {
              db.exec(depth === 0 ? 'COMMIT' : `RELEASE ${savepoint}`);
            } catch (err) {
              rollback(savepoint);
              throw err;
            }
            return result;
          };
        },
        close: () => db.close(),
      };
    },
  };
}

/** Loads with Node 22's "SQLite is an experimental feature" warning dropped, and only it. */
export function withoutSqliteWarning<T>(fn: () => T): T {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    const name = warning instanceof Error ? warning.name : type;
    const text = warning instanceof Error ? warning.message : warning;
    if (name === 'ExperimentalWarning' && /^SQLite\b/.test(text)) return;
    return (emitWarning as (...a: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return fn();
  } finally {
    process.emitWarning = emitWarning;
  }
}
