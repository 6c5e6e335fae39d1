/**
 * A full disk, injected where the machine will not mount a small tmpfs: preloaded with
 * `node --require` (which, unlike --import, also runs in every worker thread), it makes
 * better-sqlite3 fail the way a full disk does, with SQLITE_FULL "database or disk is full",
 * once this thread has run its allowance of INSERT statements (the statements that grow the
 * store). The allowance is read, once per thread, from the file named by FAULTS_FULL_FILE; no
 * such file means no injection. Only the store writer thread runs INSERTs.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const { readFileSync } = require('node:fs') as typeof import('node:fs');

const allowanceFile = process.env.FAULTS_FULL_FILE;
if (allowanceFile) {
  const BetterSqlite3 = require('better-sqlite3') as typeof import('better-sqlite3') & { SqliteError: new (message: string, code: string) => Error };
  const probe = new BetterSqlite3(':memory:');
  const Statement = Object.getPrototypeOf(probe.prepare('SELECT 1')) as { run: (...a: unknown[]) => unknown; source: string };
  probe.close();
  const run = Statement.run;
  let left: number | undefined;
  Statement.run = function (this: { source: string }, ...args: unknown[]) {
    if (/^\s*INSERT/i.test(this.source)) {
      if (left === undefined) {
        try {
          left = Number(readFileSync(allowanceFile, 'utf8').trim());
        } catch {
          left = Infinity;
        }
      }
      if (left <= 0) throw new BetterSqlite3.SqliteError('database or disk is full', 'SQLITE_FULL');
      left--;
    }
    return run.apply(this, args);
  };
}
