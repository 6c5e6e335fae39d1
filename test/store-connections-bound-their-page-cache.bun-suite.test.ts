/**
 * Every connection to a brain, the writer's and each reader's, holds at most STORE_CACHE_KIB of
 * SQLite page cache, whichever driver the runtime has: better-sqlite3 is built with a 16 MB
 * default where node:sqlite and bun:sqlite keep SQLite's 2 MB (src/store/open-store.ts). Run on
 * every driver.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, STORE_CACHE_KIB, type Database } from '../src/store/index.js';

const cacheSize = (db: Database) => Number(Object.values(db.prepare('PRAGMA cache_size').get<Record<string, number>>()!)[0]);

test('the writer and every reader of a brain hold at most STORE_CACHE_KIB of page cache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gardener-page-cache-'));
  try {
    const file = join(dir, 'brain.db');
    const writer = openStore(file);
    const reader = openStore(file, { readonly: true });
    try {
      // Negative: a size in KiB, not in pages (SQLite's convention).
      assert.equal(cacheSize(writer), -STORE_CACHE_KIB, 'the writer connection');
      assert.equal(cacheSize(reader), -STORE_CACHE_KIB, 'a reader connection');
    } finally {
      reader.close();
      writer.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
