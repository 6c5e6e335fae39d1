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
  /** Prepared statements the connection holds (at most MAX_CACHED_STATEMENTS). */
  readonly statementsHeld: number;
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

/**
 * Most prepared statements one connection keeps. The store's own SQL is a few dozen fixed
 * texts; the bound is for texts built per call (an `IN (?, ?, …)` of each batch's length, once
 * 500 texts a connection), which an owner that lives for weeks would otherwise keep for ever.
 */
export const MAX_CACHED_STATEMENTS = 128;

/** A driver's statement, and how to let it go at once (bun:sqlite) rather than at collection. */
export type OwnedStatement = Statement & { dispose?(): void };

/** One prepared statement per SQL text per connection, the least recently used let go past `max`. */
export class StatementCache {
  readonly #prepare: (sql: string) => OwnedStatement;
  readonly #max: number;
  readonly #held = new Map<string, OwnedStatement>();

  constructor(prepare: (sql: string) => OwnedStatement, max = MAX_CACHED_STATEMENTS) {
    this.#prepare = prepare;
    this.#max = max;
  }

  get size(): number {
    return this.#held.size;
  }

  get(sql: string): Statement {
    let st = this.#held.get(sql);
    if (st) {
      // Most recently used last: a Map iterates in insertion order.
      this.#held.delete(sql);
    } else {
      st = this.#prepare(sql);
      if (this.#held.size >= this.#max) {
        const [oldest, dropped] = this.#held.entries().next().value as [string, OwnedStatement];
        this.#held.delete(oldest);
        dropped.dispose?.();
      }
    }
    this.#held.set(sql, st);
    return st;
  }
}
