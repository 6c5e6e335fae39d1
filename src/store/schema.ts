/**
 * The brain's schema, as an ordered list of migrations keyed by `PRAGMA user_version`.
 * A migration only ever adds: state written by an older Gardener must still load, with
 * missing fields taking their defaults (an armed brain stays armed). Never edit a shipped
 * migration; append a new one.
 */

/** Marks a SQLite file as a Gardener brain ('GDNR'), so a foreign database is never mistaken for one. */
export const APPLICATION_ID = 0x47444e52;

export const MIGRATIONS: readonly string[] = [
  // 1: code map, full-text index, backlog, vigil state, alerts.
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE roots (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    backend TEXT,
    since_ref TEXT,
    dirty TEXT NOT NULL DEFAULT '[]',
    fallback TEXT,
    added_at INTEGER NOT NULL
  );
  -- Definitions and imports live on the file row as JSON: one row per file instead of ~30
  -- (the per-row inserts cost more than the full-text index; measured in docs/benchmarks.md).
  -- Names are found through the full-text index's \`symbols\` column.
  CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    root_id INTEGER NOT NULL REFERENCES roots(id),
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ms REAL NOT NULL,
    hash TEXT NOT NULL,
    language TEXT,
    lines INTEGER NOT NULL DEFAULT 0,
    indexed INTEGER NOT NULL DEFAULT 0,
    symbol_count INTEGER NOT NULL DEFAULT 0,
    symbols TEXT NOT NULL DEFAULT '[]',
    imports TEXT NOT NULL DEFAULT '[]',
    ingested_at INTEGER NOT NULL,
    UNIQUE (root_id, path)
  );
  -- Contentless: the text is indexed, not stored a second time (the file on disk is the text;
  -- a hit's line is read from it). Rows are deleted by rowid (contentless_delete).
  CREATE VIRTUAL TABLE fts USING fts5(
    path, symbols, content,
    content = '', contentless_delete = 1,
    tokenize = "unicode61 tokenchars '_'"
  );
  CREATE TABLE backlog (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    root_id INTEGER NOT NULL,
    path TEXT NOT NULL,
    queued_at INTEGER NOT NULL,
    UNIQUE (root_id, path)
  );
  CREATE TABLE vigil (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    armed INTEGER NOT NULL DEFAULT 0,
    armed_at INTEGER,
    last_tick_at INTEGER,
    last_advanced_at INTEGER,
    ticks INTEGER NOT NULL DEFAULT 0,
    files_ingested INTEGER NOT NULL DEFAULT 0,
    last_detected INTEGER NOT NULL DEFAULT 0,
    last_drained INTEGER NOT NULL DEFAULT 0,
    tick_in_flight INTEGER NOT NULL DEFAULT 0,
    tick_owner_pid INTEGER,
    tick_started_at INTEGER
  );
  INSERT INTO vigil (id) VALUES (1);
  CREATE TABLE alerts (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL,
    message TEXT NOT NULL,
    path TEXT,
    created_at INTEGER NOT NULL,
    acked_at INTEGER
  );
  `,
  // 2: notes (what agents chose to remember), with their own full-text index.
  `
  CREATE TABLE notes (
    id INTEGER PRIMARY KEY,
    text TEXT NOT NULL,
    tags TEXT NOT NULL DEFAULT '[]',
    files TEXT NOT NULL DEFAULT '[]',
    pinned INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
  );
  CREATE VIRTUAL TABLE notes_fts USING fts5(text, tags, files, tokenize = "unicode61 tokenchars '_'");
  `,
  // The skeleton (src/skeleton/): a candidate and a ratified room list with what was derived
  // for each, and one row of shared state: the store_version every skeleton write bumps, the
  // persisted reconcile deadline, and the advisory candidate lease.
  `
  CREATE TABLE skeleton (
    state TEXT PRIMARY KEY CHECK (state IN ('candidate', 'ratified')),
    rooms TEXT NOT NULL,
    derived TEXT NOT NULL,
    written_at INTEGER NOT NULL,
    derived_at INTEGER NOT NULL
  );
  CREATE TABLE skeleton_state (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    store_version INTEGER NOT NULL DEFAULT 0,
    reconcile_due_at INTEGER,
    reconciled_at INTEGER,
    lease_holder TEXT,
    lease_until INTEGER
  );
  INSERT INTO skeleton_state (id) VALUES (1);
  `,
  // 4: the map keeps secrets out (docs/secrets.md). Each root remembers the fingerprint of
  // the .gardenerignore its last detection applied (a change makes the next one an inventory).
  // And every mapped file is ingested once more: text indexed before secret-bearing files and
  // token formats were kept out is replaced, not left findable until the file next changes.
  // Clearing the hash makes the drain re-read a file even when its bytes did not change.
  `
  ALTER TABLE roots ADD COLUMN ignore_fingerprint TEXT;
  UPDATE files SET hash = '';
  INSERT OR IGNORE INTO backlog (root_id, path, queued_at)
    SELECT root_id, path, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) FROM files ORDER BY id;
  `,
  // 5: references (src/ingest/reference-codec.ts), one text column per file; NULL = mapped before they
  // were kept. Source files (a language with definitions: scanned or tree-sitter, both emit
  // references; not the data and markup labels, which have none) are queued again with their
  // hash forgotten, so the re-ingest extracts instead of calling them unchanged: the first
  // tick after the upgrade re-reads them, and until it has, they are pending like any edit.
  // A store coming from 3 was already re-queued whole by 4.
  `
  ALTER TABLE files ADD COLUMN refs TEXT;
  INSERT OR IGNORE INTO backlog (root_id, path, queued_at)
    SELECT root_id, path, 0 FROM files
    WHERE language IS NOT NULL AND language NOT IN ('markdown', 'json', 'yaml', 'toml', 'css', 'html', 'sql');
  UPDATE files SET hash = ''
    WHERE language IS NOT NULL AND language NOT IN ('markdown', 'json', 'yaml', 'toml', 'css', 'html', 'sql');
  `,
  // 6: what a note was written against (note-ties.ts): one row per tied file, with the file's
  // content hash when the note was written; a definition tie also names the definition (and its
  // line then). Notes written before carry no ties: nothing is known of what they saw, so they
  // are never marked stale (a guess from today's map would mark them for changes made before).
  `
  CREATE TABLE note_ties (
    note_id INTEGER NOT NULL,
    root_id INTEGER NOT NULL,
    path TEXT NOT NULL,
    hash TEXT NOT NULL,
    name TEXT,
    line INTEGER
  );
  CREATE INDEX note_ties_by_note ON note_ties (note_id);
  `,
  // 7: history lists (src/history/): the commits mined up to the map's head, per root, the paths
  // each touched, and their messages in a full-text index of their own (rowid = commit id).
  // A commit's id grows with its age order within a root (oldest inserted first). Nothing is
  // mined yet: the first tick of a git root builds it.
  `
  CREATE TABLE history_state (
    root_id INTEGER PRIMARY KEY,
    status TEXT NOT NULL,
    head TEXT,
    commits INTEGER NOT NULL DEFAULT 0,
    bounded INTEGER NOT NULL DEFAULT 0,
    built_at INTEGER NOT NULL,
    note TEXT
  );
  CREATE TABLE history_commits (
    id INTEGER PRIMARY KEY,
    root_id INTEGER NOT NULL,
    sha TEXT NOT NULL,
    time INTEGER NOT NULL,
    files INTEGER NOT NULL
  );
  CREATE INDEX history_commits_root ON history_commits (root_id, id);
  CREATE TABLE history_paths (
    id INTEGER PRIMARY KEY,
    root_id INTEGER NOT NULL,
    path TEXT NOT NULL,
    UNIQUE (root_id, path)
  );
  CREATE TABLE history_touches (
    commit_id INTEGER NOT NULL,
    path_id INTEGER NOT NULL,
    PRIMARY KEY (commit_id, path_id)
  ) WITHOUT ROWID;
  CREATE INDEX history_touches_path ON history_touches (path_id, commit_id);
  CREATE VIRTUAL TABLE history_fts USING fts5(
    message,
    content = '', contentless_delete = 1,
    tokenize = "unicode61 tokenchars '_'"
  );
  `,
  // 8: team notes (team-notes.ts): a note that is a file in a root's notes folder. The file is
  // the note's truth; the row says which note it is, so an edit of the file updates that note
  // (same id) and a removal removes it.
  `
  CREATE TABLE team_notes (
    note_id INTEGER PRIMARY KEY,
    root_id INTEGER NOT NULL,
    path TEXT NOT NULL,
    uid TEXT NOT NULL,
    author TEXT,
    UNIQUE (root_id, path)
  );
  `,
  // 9: build manifests' facts (src/ingest/manifest.ts) for resolution (src/resolve/): a
  // package.json's name and exports, a tsconfig's paths, go.mod, Cargo.toml, pyproject.toml.
  // The files that may be manifests are read again (hash forgotten) so the column fills on the
  // next tick; nothing else is re-read.
  `
  ALTER TABLE files ADD COLUMN manifest TEXT;
  CREATE INDEX files_with_manifest ON files (root_id) WHERE manifest IS NOT NULL;
  INSERT OR IGNORE INTO backlog (root_id, path, queued_at)
    SELECT root_id, path, 0 FROM files
    WHERE path GLOB '*package.json' OR path GLOB '*tsconfig*.json' OR path GLOB '*jsconfig*.json' OR path GLOB '*go.mod'
       OR path GLOB '*go.work' OR path GLOB '*Cargo.toml' OR path GLOB '*pyproject.toml';
  UPDATE files SET hash = ''
    WHERE path GLOB '*package.json' OR path GLOB '*tsconfig*.json' OR path GLOB '*jsconfig*.json' OR path GLOB '*go.mod'
       OR path GLOB '*go.work' OR path GLOB '*Cargo.toml' OR path GLOB '*pyproject.toml';
  `,
  // 10: the team notes folder each root's notes were last read from (src/detect/notes-dir.ts);
  // NULL is the default, '.gardener/notes'. A detection applying another reclassifies both
  // folders' files (backlog.ts).
  `
  ALTER TABLE roots ADD COLUMN notes_dir TEXT;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
