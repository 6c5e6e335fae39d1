// Maintainer script behind the store row of docs/dependencies.md: how long the runtime's SQLite
// driver (through Gardener's adapter, so node:sqlite, better-sqlite3 or bun:sqlite, whichever
// this runtime gets) takes to insert 1000 documents of 8 KB into a contentless FTS5 table like
// the code map's, in one transaction, in WAL mode. Prints the median of SAMPLES runs after
// WARMUP unmeasured ones, each on a fresh database file. Run it on each runtime:
//
//   node scripts/measure-sqlite-insert.mjs                        # Node 20: better-sqlite3
//   node_modules/node/bin/node scripts/measure-sqlite-insert.mjs  # Node 24: node:sqlite
//   node_modules/.bin/bun scripts/measure-sqlite-insert.mjs       # Bun: bun:sqlite
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteDriver } from '../dist/src/store/sqlite-adapter.js';

const DOCS = 1000;
const DOC_BYTES = 8 * 1024;
const WARMUP = 3;
const SAMPLES = Number(process.env.SAMPLES ?? 21);

/** Code-like text from a fixed seed: identifiers, keywords, punctuation; the same every run. */
function makeDocs() {
  let seed = 0x9e3779b9;
  const next = () => ((seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32);
  const words = Array.from({ length: 5000 }, (_, i) => `${['get', 'set', 'parse', 'load', 'make', 'check'][i % 6]}${i.toString(36)}_${Math.floor(next() * 1e4)}`);
  const keywords = ['export', 'function', 'const', 'return', 'import', 'from', 'if', 'else', 'class', 'interface'];
  return Array.from({ length: DOCS }, () => {
    let text = '';
    while (text.length < DOC_BYTES) text += `${keywords[Math.floor(next() * keywords.length)]} ${words[Math.floor(next() * words.length)]}(${words[Math.floor(next() * words.length)]});\n`;
    return text.slice(0, DOC_BYTES);
  });
}

const driver = sqliteDriver();
const docs = makeDocs();
const dir = mkdtempSync(join(tmpdir(), 'gardener-insert-'));
const times = [];
try {
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const db = driver.open(join(dir, `s${i}.db`), {});
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec(`CREATE VIRTUAL TABLE fts USING fts5(path, content, content = '', contentless_delete = 1, tokenize = "unicode61 tokenchars '_'")`);
    const insert = db.prepare('INSERT INTO fts (rowid, path, content) VALUES (?, ?, ?)');
    const t0 = performance.now();
    db.transaction(() => {
      for (let d = 0; d < DOCS; d++) insert.run(d + 1, `src/f${d}.ts`, docs[d]);
    })();
    const ms = performance.now() - t0;
    db.close();
    if (i >= WARMUP) times.push(ms);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
const runtime = process.versions.bun ? `bun ${process.versions.bun}` : `node ${process.version}`;
console.log(JSON.stringify({ runtime, driver: driver.name, sqlite: driver.sqliteVersion, docs: DOCS, doc_bytes: DOC_BYTES, samples: SAMPLES, median_ms: +median.toFixed(1), min_ms: +times[0].toFixed(1), max_ms: +times.at(-1).toFixed(1) }));
