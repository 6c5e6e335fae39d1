/**
 * The small synchronous surface the store uses, whichever SQLite driver serves it: positional
 * parameters only, `get` returns `undefined` when there is no row, `transaction(fn)` returns a
 * function that runs `fn` in BEGIN IMMEDIATE/COMMIT and rolls back on a throw.
 */

export type SqlValue = string | number | bigint | null | Uint8Array;

export type DriverName = 'node:sqlite' | 'bun:sqlite' | 'better-sqlite3';

export interface Statement {
  run(...params: SqlValue[]): { changes: number };
  get<T = Record<string, unknown>>(...params: SqlValue[]): T | undefined;
  all<T = Record<string, unknown>>(...params: SqlValue[]): T[];
}

export interface Database {
  readonly file: string;
  readonly driver: DriverName;
  /** The version of the SQLite library behind the driver, e.g. "3.53.4". */
  readonly sqliteVersion: string;
  exec(sql: string): void;
  prepare(sql: string): Statement;
  /** Runs `fn` inside one write transaction (BEGIN IMMEDIATE), rolled back if it throws. */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
  close(): void;
}

export interface OpenOptions {
  /** Open without write access; the file must exist. @default false */
  readonly?: boolean;
  /** How long a statement waits on another writer's lock, in ms. @default 5000 */
  busyTimeoutMs?: number;
}

/** A loaded driver: its name and how to open a file with it. */
export interface Driver {
  readonly name: DriverName;
  readonly sqliteVersion: string;
  open(file: string, options: OpenOptions): Database;
}

/** How a driver module is loaded (`require` by default; tests inject failures). */
export type ModuleLoader = (specifier: string) => unknown;

export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** One prepared statement per SQL text per connection: the store reuses a few dozen. */
export function statementCache(prepare: (sql: string) => Statement): (sql: string) => Statement {
  const cache = new Map<string, Statement>();
  return (sql) => {
    let st = cache.get(sql);
    if (!st) {
      st = prepare(sql);
      cache.set(sql, st);
    }
    return st;
  };
}
