/**
 * The one place that knows which SQLite driver runs (see drivers/choose-driver.ts for the
 * choice: node:sqlite, bun:sqlite or better-sqlite3). The driver is chosen on the first open
 * and kept for the life of the process; every driver is wrapped to the same small surface
 * (drivers/types.ts), so nothing outside this folder knows which one serves a store.
 */
import { chooseDriver, isBun } from './drivers/choose-driver.js';
import type { Database, Driver, OpenOptions } from './drivers/types.js';

export type { Database, Statement, SqlValue, OpenOptions, DriverName } from './drivers/types.js';
export { isBun };

let driver: Driver | undefined;

/** The driver of this process, loaded (and its SQLite checked) on first use. */
export function sqliteDriver(): Driver {
  driver ??= chooseDriver();
  return driver;
}

export function openDatabase(file: string, options: OpenOptions = {}): Database {
  return sqliteDriver().open(file, options);
}
