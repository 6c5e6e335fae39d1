/**
 * The one place that knows which runtime we are on. Node gets better-sqlite3 (v12: v13 needs
 * Node 22), Bun gets `bun:sqlite` (better-sqlite3 does not load in Bun). Both are wrapped to
 * the small synchronous surface the store uses: positional parameters only, `get` returns
 * `undefined` when there is no row, `transaction(fn)` returns a function that runs `fn` in
 * BEGIN/COMMIT (IMMEDIATE when asked) and rolls back on a throw.
 */
import { createRequire } from 'node:module';

export type SqlValue = string | number | bigint | null | Uint8Array;

export interface Statement {
  run(...params: SqlValue[]): { changes: number };
  get<T = Record<string, unknown>>(...params: SqlValue[]): T | undefined;
  all<T = Record<string, unknown>>(...params: SqlValue[]): T[];
}

export interface Database {
  readonly file: string;
  readonly driver: 'better-sqlite3' | 'bun:sqlite';
  exec(sql: string): void;
  prepare(sql: string): Statement;
  /** Runs `fn` inside one write transaction (BEGIN IMMEDIATE), rolled back if it throws. */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
  close(): void;
}

export interface OpenOptions {
  /** Open without write access. @default false */
  readonly?: boolean;
  /** How long a statement waits on another writer's lock, in ms. @default 5000 */
  busyTimeoutMs?: number;
}

export const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined';

export function openDatabase(file: string, options: OpenOptions = {}): Database {
  return isBun ? openBun(file, options) : openBetterSqlite(file, options);
}

const require = createRequire(import.meta.url);

function openBetterSqlite(file: string, options: OpenOptions): Database {
  const BetterSqlite = require('better-sqlite3') as typeof import('better-sqlite3');
  const db = new BetterSqlite(file, {
    readonly: options.readonly ?? false,
    fileMustExist: options.readonly ?? false,
    timeout: options.busyTimeoutMs ?? 5000,
  });
  const cache = new Map<string, Statement>();
  return {
    file,
    driver: 'better-sqlite3',
    exec: (sql) => void db.exec(sql),
    prepare(sql) {
      let st = cache.get(sql);
      if (st) return st;
      const raw = db.prepare(sql);
      const returnsRows = raw.reader;
      st = {
        run: (...p) => ({ changes: returnsRows ? (raw.all(...p), 0) : raw.run(...p).changes }),
        get: <T>(...p: SqlValue[]) => raw.get(...p) as T | undefined,
        all: <T>(...p: SqlValue[]) => raw.all(...p) as T[],
      };
      cache.set(sql, st);
      return st;
    },
    transaction(fn) {
      const tx = db.transaction(fn);
      return (...args) => tx.immediate(...args);
    },
    close: () => void db.close(),
  };
}

interface BunStatement {
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

function openBun(file: string, options: OpenOptions): Database {
  const { Database: BunDb } = require('bun:sqlite') as {
    Database: new (f: string, o: Record<string, boolean>) => BunDatabase;
  };
  const db = options.readonly
    ? new BunDb(file, { readonly: true, strict: true })
    : new BunDb(file, { create: true, readwrite: true, strict: true });
  db.exec(`PRAGMA busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  const cache = new Map<string, Statement>();
  return {
    file,
    driver: 'bun:sqlite',
    exec: (sql) => db.exec(sql),
    prepare(sql) {
      let st = cache.get(sql);
      if (st) return st;
      const raw = db.prepare(sql);
      st = {
        run: (...p) => ({ changes: raw.run(...p).changes }),
        get: <T>(...p: SqlValue[]) => (raw.get(...p) ?? undefined) as T | undefined,
        all: <T>(...p: SqlValue[]) => raw.all(...p) as T[],
      };
      cache.set(sql, st);
      return st;
    },
    transaction(fn) {
      const tx = db.transaction(fn as never) as unknown as { immediate: typeof fn };
      return (...args) => tx.immediate(...args);
    },
    close: () => db.close(),
  };
}
