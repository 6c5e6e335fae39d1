/**
 * What the store needs from SQLite, checked once per driver before any brain is opened: FTS5,
 * with `contentless_delete` (SQLite 3.43.0) because the code map's full-text index stores no
 * text and deletes rows by rowid. A driver without them is refused with the version found and
 * the version needed; it must never surface later as a "corrupt" store.
 */
import { SqliteUnsupportedError } from '../../errors.js';
import type { Driver } from './types.js';

export const SQLITE_NEEDED = 'SQLite >= 3.43.0 with FTS5 (contentless_delete)';

export function checkSqliteFeatures(driver: Driver): void {
  const db = driver.open(':memory:', {});
  try {
    db.exec("CREATE VIRTUAL TABLE temp.gardener_probe USING fts5(x, content = '', contentless_delete = 1)");
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw new SqliteUnsupportedError(driver.name, `SQLite ${driver.sqliteVersion}`, SQLITE_NEEDED, detail, { cause: err });
  } finally {
    db.close();
  }
}
