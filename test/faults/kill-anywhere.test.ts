/**
 * Kill -9 anywhere: a child ingesting and draining a burst is SIGKILLed at seeded points
 * (during detection, while the changed set is pushed, inside a commit, between batches, while
 * a note is written, during a schema migration). Bursts alternate between edits left in the
 * work tree and edits committed (so HEAD moves and the brain's since_ref matters). After each kill one more tick (another
 * process) must end with an empty backlog, every file of the burst in the map with its new
 * content, no duplicated rows, and `PRAGMA integrity_check` = ok.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeGitRepo } from '../helpers/git-repo.js';
import { makeTestBrains, sourceFiles } from '../helpers/brains.js';
import { runTick } from '../../src/vigil/index.js';
import { openDatabase, openStore, type Database } from '../../src/store/index.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/schema.js';
import { FAULTS_SEED, recordFigures, scaled, seededRandom } from './fault-config.js';

const KILL_CHILD = fileURLToPath(new URL('./kill-child.js', import.meta.url));
const TICK_CHILD = fileURLToPath(new URL('../fixtures/tick-child.js', import.meta.url));

/** Kill points per run at FAULTS_SCALE=1 (spread over the phases in turn). */
const KILL_POINTS = 24;
/** Files rewritten by every round's burst: over one commit's worth, so a drain has several. */
const BURST_FILES = 300;
const PHASES = ['detect', 'push', 'commit', 'batch', 'note', 'migrate'] as const;
/** Upper bound of the seeded delay after a kill point is reached, in ms, per phase. */
const MAX_DELAY_MS: Record<(typeof PHASES)[number], number> = { detect: 60, push: 30, commit: 40, batch: 0, note: 2, migrate: 250 };

function run(file: string, args: string[]): Promise<{ code: number | null; signal: string | null; stdout: string }> {
  const child = spawn(process.execPath, [file, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  return once(child, 'exit').then(([code, signal]) => ({ code: code as number | null, signal: signal as string | null, stdout }));
}

function burstContent(round: number, i: number): string {
  return `import { x } from './x.js';\n\nexport function fn_r${round}_${i}(a: number): number {\n  return a + ${round * 1000 + i};\n}\n`;
}

/**
 * Sets the store back to schema 1 (before notes), as an older Gardener left it: every table a
 * later migration made is dropped (virtual tables first: their shadow tables go with them).
 */
function downgradeToSchema1(file: string): void {
  const v1 = openDatabase(':memory:');
  v1.exec(MIGRATIONS[0]!);
  const keep = new Set(v1.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all<{ name: string }>().map((r) => r.name));
  const keepIndexes = new Set(v1.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all<{ name: string }>().map((r) => r.name));
  const columnsOf = (db: Database, table: string) => db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all<{ name: string }>().map((c) => c.name);
  const v1Columns = new Map([...keep].map((t) => [t, new Set(columnsOf(v1, t))]));
  v1.close();
  const db = openStore(file);
  const later = () => db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all<{ name: string; sql: string }>().filter((t) => !keep.has(t.name));
  for (const t of later().filter((t) => /CREATE VIRTUAL TABLE/i.test(t.sql))) db.exec(`DROP TABLE "${t.name}"`);
  for (const t of later()) db.exec(`DROP TABLE "${t.name}"`);
  // Indexes later migrations made on schema 1's own tables go before their columns can.
  const laterIndexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").all<{ name: string }>().filter((i) => !keepIndexes.has(i.name));
  for (const i of laterIndexes) db.exec(`DROP INDEX "${i.name}"`);
  // Columns later migrations added to schema 1's own tables go too (ALTER TABLE … ADD COLUMN).
  for (const [table, cols] of v1Columns) {
    for (const c of columnsOf(db, table)) if (!cols.has(c)) db.exec(`ALTER TABLE "${table}" DROP COLUMN "${c}"`);
  }
  db.exec('PRAGMA user_version = 1');
  db.close();
}

function one<T>(db: Database, sql: string): T {
  return Object.values(db.prepare(sql).get<Record<string, T>>()!)[0]!;
}

test('kill -9 at seeded points of an ingest and drain: one more tick leaves a whole, exact map', { timeout: 900_000 }, async () => {
  const rand = seededRandom(FAULTS_SEED, 2);
  const repo = await makeGitRepo(sourceFiles(2));
  const t = await makeTestBrains();
  const tried: Record<string, number> = Object.fromEntries(PHASES.map((p) => [p, 0]));
  let committedRounds = 0;
  const notReached: Record<string, number> = Object.fromEntries(PHASES.map((p) => [p, 0]));
  const notes = { lost: 0, kept: 0 };
  const migrations = { before: 0, after: 0 };
  let notesBefore = 0;
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    await t.brains.close(); // the children own the brain from here
    const total = scaled(KILL_POINTS);
    for (let round = 0; round < total; round++) {
      const phase = PHASES[round % PHASES.length]!;
      const index = phase === 'commit' || phase === 'batch' ? rand.int(2) : 0;
      const delay = Math.round(rand.next() * MAX_DELAY_MS[phase] * 10) / 10;
      const point = `${phase}:${index}:${delay}`;
      for (let i = 0; i < BURST_FILES; i++) repo.write(`burst/b${i}.ts`, burstContent(round, i));
      // Every other cycle the burst is committed: the work tree is clean, and only the diff
      // from the brain's since_ref to HEAD names the files (a cursor moved too early loses them).
      const committed = Math.floor(round / PHASES.length) % 2 === 1;
      if (committed) repo.commit(`burst of round ${round}`);
      if (phase === 'migrate') downgradeToSchema1(brain.file);

      if (committed) committedRounds++;
      const died = await run(KILL_CHILD, [t.home, repo.dir, point]);
      tried[phase]!++;
      if (died.signal !== 'SIGKILL') {
        assert.equal(died.code, 0, `round ${round} (${point}) neither died nor finished`);
        notReached[phase]!++;
      }
      if (phase === 'migrate' && died.signal === 'SIGKILL') {
        // A migration is all or nothing: schema 1 without notes, or the new schema with them.
        const raw = openDatabase(brain.file, { readonly: true });
        const version = one<number>(raw, 'PRAGMA user_version');
        const hasNotes = one<number>(raw, "SELECT count(*) FROM sqlite_master WHERE name = 'notes'");
        raw.close();
        assert.ok((version === 1 && hasNotes === 0) || (version === SCHEMA_VERSION && hasNotes === 1), `${point}: schema ${version} with notes=${hasNotes}`);
        migrations[version === 1 ? 'before' : 'after']++;
      }

      const after = await run(TICK_CHILD, [t.home, repo.dir, 'tick']);
      assert.equal(after.code, 0, `the tick after kill point ${point} (round ${round}) finished`);
      const report = JSON.parse(after.stdout);
      assert.equal(report.busyOwnerPid, undefined, `${point}: the dead owner does not wedge the tick`);
      assert.equal(report.backlogLeft, 0, `${point}: the backlog is empty`);

      const db = openStore(brain.file, { readonly: true });
      try {
        assert.equal(one<string>(db, 'PRAGMA integrity_check'), 'ok', `${point}: integrity_check`);
        assert.equal(one<number>(db, 'PRAGMA user_version'), SCHEMA_VERSION, `${point}: schema up to date`);
        assert.equal(one<number>(db, 'SELECT count(*) FROM backlog'), 0);
        assert.equal(one<number>(db, 'SELECT count(*) FROM files'), BURST_FILES + 2, `${point}: every file mapped once`);
        assert.equal(one<number>(db, 'SELECT count(*) FROM fts'), one<number>(db, 'SELECT count(*) FROM files WHERE indexed = 1'), `${point}: one full-text row per indexed file`);
        assert.equal(one<number>(db, 'SELECT count(*) FROM notes'), one<number>(db, 'SELECT count(*) FROM notes_fts'), `${point}: one full-text row per note`);
        assert.equal(one<number>(db, "SELECT count(*) FROM vigil WHERE tick_in_flight = 0"), 1, `${point}: the lease was released`);
        const rows = db.prepare("SELECT path, size, symbols FROM files WHERE path LIKE 'burst/%'").all<{ path: string; size: number; symbols: string }>();
        for (const row of rows) {
          const i = Number(/b(\d+)\.ts$/.exec(row.path)![1]);
          assert.ok(row.symbols.includes(`fn_r${round}_${i}`), `${point}: ${row.path} has its new content`);
          assert.equal(row.size, statSync(join(repo.dir, row.path)).size);
        }
        const noteCount = one<number>(db, 'SELECT count(*) FROM notes');
        if (phase === 'note') {
          assert.ok(noteCount === notesBefore || noteCount === notesBefore + 1, `${point}: the note is there once or not at all`);
          if (noteCount > notesBefore) notes.kept++;
          else notes.lost++;
        }
        notesBefore = noteCount;
      } finally {
        db.close();
      }
    }
    const killed = total - Object.values(notReached).reduce((a, b) => a + b, 0);
    recordFigures('kill-anywhere', { kill_points: total, committed_bursts: committedRounds, killed, by_phase: tried, not_reached: notReached, notes_committed_before_kill: notes.kept, notes_not_yet_committed: notes.lost, migrations_killed_before_commit: migrations.before, migrations_killed_after_commit: migrations.after, burst_files: BURST_FILES });
    assert.ok(killed >= total / 2, `most kill points were reached (${killed}/${total})`);
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
});
