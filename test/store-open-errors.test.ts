/**
 * Failing to open a store is told honestly (issue 6): only a file that is not a database, or is
 * another application's, is GDN_STORE_CORRUPT with "move it aside". Permission, lock and disk
 * failures name the file and the errno and never suggest moving a healthy store aside; a native
 * module built for another Node names the module, both ABIs and `npm rebuild`; a missing or too
 * old driver says what to install.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { sourceFiles } from './helpers/brains.js';
import { CLI } from './helpers/mcp-client.js';
import { chooseDriver } from '../src/store/drivers/choose-driver.js';
import { withoutSqliteWarning } from '../src/store/drivers/node-sqlite.js';
import { openFailure } from '../src/store/open-failure.js';
import {
  GardenerError, NativeModuleAbiError, SqliteDriverMissingError, SqliteUnsupportedError, StoreCorruptError,
  StoreIoError, StoreLockedError, StorePermissionError,
} from '../src/errors.js';

const NODE_24 = fileURLToPath(new URL('../../node_modules/node/bin/node', import.meta.url));
const BETTER_SQLITE3_GYPI = fileURLToPath(new URL('../../node_modules/better-sqlite3/build/config.gypi', import.meta.url));
const readIfThere = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
/** Root reads every file; these take that away from one child (uid 0 stays, so it can still enter the clone). */
const DROP_READ_ALL = ['--inh-caps=-dac_override,-dac_read_search', '--bounding-set=-dac_override,-dac_read_search'];
const MOVE_ASIDE = /move it aside|mv "|rebuild/;

function run(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const r = spawnSync(command, args, { env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, error: r.error };
}

async function initialisedBrain() {
  const home = await makeTempDir('gardener-home-');
  const repo = await makeGitRepo(sourceFiles(2));
  const env = { ...process.env, GARDENER_HOME: home.dir };
  const init = run(process.execPath, [CLI, 'init', repo.dir, '--json'], env);
  assert.equal(init.code, 0, init.stderr);
  const store = JSON.parse(init.stdout).store as string;
  return { home, repo, env, store, cleanup: async () => { await home.cleanup(); await repo.cleanup(); } };
}

test('an unreadable brain.db is a permission error naming the file and errno, never "corrupt"', async (t) => {
  const asRoot = process.getuid?.() === 0;
  if (asRoot && run('setpriv', [...DROP_READ_ALL, 'true'], process.env).code !== 0) {
    t.skip('running as root and setpriv cannot drop dac_override here, so root would read a mode 000 file anyway');
    return;
  }
  const b = await initialisedBrain();
  try {
    chmodSync(b.store, 0o000);
    const argv = [process.execPath, CLI, 'status', b.repo.dir];
    const r = asRoot ? run('setpriv', [...DROP_READ_ALL, ...argv], b.env) : run(argv[0]!, argv.slice(1), b.env);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /GDN_STORE_PERMISSION/);
    assert.ok(r.stderr.includes(b.store), r.stderr);
    assert.match(r.stderr, /EACCES|EPERM/);
    assert.doesNotMatch(r.stderr, MOVE_ASIDE);
    assert.doesNotMatch(r.stderr, /GDN_STORE_CORRUPT/);
  } finally {
    chmodSync(b.store, 0o644);
    await b.cleanup();
  }
});

test('a corrupt brain.db found by the writer keeps its code across the worker boundary', async () => {
  const b = await initialisedBrain();
  try {
    writeFileSync(b.store, 'garbage '.repeat(1000));
    for (const ext of ['-wal', '-shm']) writeFileSync(b.store + ext, '');
    const r = run(process.execPath, [CLI, 'init', b.repo.dir], b.env);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /GDN_STORE_CORRUPT/);
    assert.doesNotMatch(r.stderr, /unexpected error/);
    assert.equal(readFileSync(b.store, 'utf8'), 'garbage '.repeat(1000), 'left untouched');
  } finally {
    await b.cleanup();
  }
});

test('better-sqlite3 built for another Node: the CLI names the module, both ABIs and npm rebuild', async (t) => {
  if (!existsSync(NODE_24)) assert.fail(`${NODE_24} is missing: it is a dev dependency, run npm install`);
  const n24 = run(NODE_24, ['-p', 'process.versions.modules'], process.env).stdout.trim();
  // Node 24 without node:sqlite falls back to better-sqlite3, built at install for some Node's ABI.
  const builtFor = /"node_module_version":\s*(\d+)/.exec(readIfThere(BETTER_SQLITE3_GYPI))?.[1];
  if (builtFor === undefined) {
    t.skip(`no ${BETTER_SQLITE3_GYPI} (better-sqlite3 not built here, or a prebuilt binary): its ABI is unknown`);
    return;
  }
  if (builtFor === n24) {
    t.skip(`better-sqlite3 here was built for Node 24's own ABI (${n24}): nothing mismatches`);
    return;
  }
  const b = await initialisedBrain();
  try {
    const r = run(NODE_24, ['--no-experimental-sqlite', CLI, 'init', b.repo.dir], b.env);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /GDN_NATIVE_MODULE_ABI/);
    assert.match(r.stderr, /better-sqlite3/);
    assert.match(r.stderr, new RegExp(`NODE_MODULE_VERSION ${builtFor}\\b`));
    assert.match(r.stderr, new RegExp(`needs ${n24}\\b`));
    assert.match(r.stderr, /npm rebuild/);
    assert.doesNotMatch(r.stderr, /GDN_STORE_CORRUPT|unexpected error/);
  } finally {
    await b.cleanup();
  }
});

/** A loader where node:sqlite does not exist (Node 20) and better-sqlite3 fails as given. */
function node20Loader(betterSqlite3: () => unknown) {
  return (name: string) => {
    if (name === 'node:sqlite') throw Object.assign(new Error(`No such built-in module: ${name}`), { code: 'ERR_UNKNOWN_BUILTIN_MODULE' });
    if (name === 'better-sqlite3') return betterSqlite3();
    throw new Error(`unexpected module ${name}`);
  };
}

test('a binding compiled against another Node.js is GDN_NATIVE_MODULE_ABI, with the fix', () => {
  const load = node20Loader(() => {
    throw Object.assign(
      new Error(
        "The module '/x/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\n" +
          'NODE_MODULE_VERSION 127. This version of Node.js requires\nNODE_MODULE_VERSION 115. Please try re-compiling or re-installing\n' +
          'the module (for instance, using `npm rebuild` or `npm install`).',
      ),
      { code: 'ERR_DLOPEN_FAILED' },
    );
  });
  assert.throws(() => chooseDriver({ load, bun: false }), (err: unknown) => {
    assert.ok(err instanceof NativeModuleAbiError, String(err));
    assert.equal(err.code, 'GDN_NATIVE_MODULE_ABI');
    assert.equal(err.module, 'better-sqlite3');
    assert.match(err.message, /NODE_MODULE_VERSION 127/);
    assert.match(err.message, /needs 115/);
    assert.match(err.message, /npm rebuild better-sqlite3/);
    assert.match(err.message, /22\.13/);
    return true;
  });
});

test('Node without node:sqlite and without better-sqlite3: the error names the module and both fixes', () => {
  for (const failure of [
    Object.assign(new Error("Cannot find module 'better-sqlite3'"), { code: 'MODULE_NOT_FOUND' }),
    new Error('Could not locate the bindings file. Tried:\n → /x/node_modules/better-sqlite3/build/better_sqlite3.node'),
  ]) {
    assert.throws(() => chooseDriver({ load: node20Loader(() => { throw failure; }), bun: false }), (err: unknown) => {
      assert.ok(err instanceof SqliteDriverMissingError, String(err));
      assert.equal(err.code, 'GDN_SQLITE_DRIVER_MISSING');
      assert.match(err.message, /better-sqlite3/);
      assert.match(err.message, /compiler/);
      assert.match(err.message, /Node >= 22\.13/);
      return true;
    });
  }
});

/** A SQLite module that answers like an old SQLite built without FTS5, for either Node driver's shape. */
class OldSqlite {
  constructor(_file: string, _options?: unknown) {}
  prepare(_sql: string) {
    return { get: () => ({ v: '3.31.1' }), all: () => [], run: () => ({ changes: 0 }) };
  }
  exec(sql: string) {
    if (/fts5/i.test(sql)) throw new Error('no such module: fts5');
  }
  close() {}
}

test('a driver whose SQLite lacks FTS5 is refused with the version found and needed, never "corrupt"', () => {
  const loads = [
    (name: string) => { if (name === 'node:sqlite') return { DatabaseSync: OldSqlite }; throw new Error(name); },
    node20Loader(() => OldSqlite),
  ];
  for (const load of loads) {
    assert.throws(() => chooseDriver({ load, bun: false }), (err: unknown) => {
      assert.ok(err instanceof SqliteUnsupportedError, String(err));
      assert.equal(err.code, 'GDN_SQLITE_UNSUPPORTED');
      assert.match(err.message, /SQLite 3\.31\.1/);
      assert.match(err.message, /3\.43\.0/);
      assert.match(err.message, /FTS5/);
      assert.doesNotMatch(err.message, MOVE_ASIDE);
      return true;
    });
  }
  const bun = (name: string) => { if (name === 'bun:sqlite') return { Database: OldSqlite }; throw new Error(name); };
  assert.throws(() => chooseDriver({ load: bun, bun: true }), SqliteUnsupportedError);
});

test('node:sqlite is chosen wherever it loads; better-sqlite3 is not even loaded then', () => {
  const loaded: string[] = [];
  class Good extends OldSqlite {
    override prepare(_sql: string) { return { get: () => ({ v: '3.53.4' }), all: () => [], run: () => ({ changes: 0 }) }; }
    override exec(_sql: string) {}
  }
  const driver = chooseDriver({ bun: false, load: (name) => { loaded.push(name); return { DatabaseSync: Good }; } });
  assert.equal(driver.name, 'node:sqlite');
  assert.equal(driver.sqliteVersion, '3.53.4');
  assert.deepEqual(loaded, ['node:sqlite']);
});

test('lock, disk and permission failures from every driver keep their own code and name the file', () => {
  const file = '/brains/b-1/brain.db';
  const cases: [unknown, new (...a: never[]) => GardenerError, string][] = [
    // better-sqlite3 and bun:sqlite carry the SQLite code name; node:sqlite carries the number.
    [Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }), StoreLockedError, 'SQLITE_BUSY'],
    [Object.assign(new Error('database is locked'), { code: 'ERR_SQLITE_ERROR', errcode: 5, errstr: 'database is locked' }), StoreLockedError, 'SQLITE_BUSY'],
    [Object.assign(new Error('database table is locked'), { code: 'SQLITE_LOCKED' }), StoreLockedError, 'SQLITE_LOCKED'],
    [Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }), StoreIoError, 'SQLITE_FULL'],
    [Object.assign(new Error('database or disk is full'), { code: 'ERR_SQLITE_ERROR', errcode: 13 }), StoreIoError, 'SQLITE_FULL'],
    [Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' }), StoreIoError, 'SQLITE_IOERR_WRITE'],
    [Object.assign(new Error('disk I/O error'), { code: 'ERR_SQLITE_ERROR', errcode: 778 }), StoreIoError, 'SQLITE_IOERR'],
    [Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }), StoreIoError, 'ENOSPC'],
    [Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }), StorePermissionError, 'EACCES'],
    [Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' }), StorePermissionError, 'SQLITE_READONLY'],
    [Object.assign(new Error('unable to open database file'), { code: 'ERR_SQLITE_ERROR', errcode: 14 }), StoreIoError, 'ENOENT'],
  ];
  for (const [raw, Class, errno] of cases) {
    const err = openFailure(file, raw) as GardenerError;
    assert.ok(err instanceof Class, `${String(raw)} -> ${String(err)}`);
    assert.ok(err.message.includes(file), err.message);
    assert.ok(err.message.includes(errno), err.message);
    assert.doesNotMatch(err.message, MOVE_ASIDE);
    assert.equal(err.cause, raw);
  }
  for (const raw of [
    Object.assign(new Error('file is not a database'), { code: 'SQLITE_NOTADB' }),
    Object.assign(new Error('file is not a database'), { code: 'ERR_SQLITE_ERROR', errcode: 26 }),
    Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' }),
  ]) {
    assert.ok(openFailure(file, raw) instanceof StoreCorruptError, String(raw));
  }
  const other = new Error('something else entirely');
  assert.equal(openFailure(file, other), other, 'an error we cannot name goes up unchanged');
});

test("loading node:sqlite drops Node 22's SQLite ExperimentalWarning, and only that warning", async () => {
  const seen: string[] = [];
  const onWarning = (w: Error) => seen.push(`${w.name}: ${w.message}`);
  process.on('warning', onWarning);
  try {
    withoutSqliteWarning(() => {
      process.emitWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning');
      process.emitWarning(Object.assign(new Error('SQLite is an experimental feature'), { name: 'ExperimentalWarning' }));
      process.emitWarning('WASI is an experimental feature', 'ExperimentalWarning');
      process.emitWarning('SQLite: some deprecation', 'DeprecationWarning');
    });
    process.emitWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning');
    // Warnings are delivered on a later tick: wait for the three that must arrive.
    while (seen.length < 3) await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(seen, [
      'ExperimentalWarning: WASI is an experimental feature',
      'DeprecationWarning: SQLite: some deprecation',
      'ExperimentalWarning: SQLite is an experimental feature and might change at any time',
    ], 'only the SQLite ExperimentalWarning raised while loading is dropped');
  } finally {
    process.off('warning', onWarning);
  }
});
