/**
 * Which SQLite driver serves the stores of this process, chosen once:
 *
 *   Bun                      -> bun:sqlite
 *   Node with node:sqlite    -> node:sqlite      (22.13+, 23.4+; no native build)
 *   any other Node           -> better-sqlite3   (optional dependency, loaded only here)
 *
 * Loading is lazy and injectable (`load`), so a missing module or a binding built for another
 * ABI can be shown to produce its own error, naming the module and the fix.
 */
import { createRequire } from 'node:module';
import { NativeModuleAbiError, SqliteDriverMissingError } from '../../errors.js';
import { loadBetterSqlite3 } from './better-sqlite3.js';
import { loadBunSqlite } from './bun-sqlite.js';
import { loadNodeSqlite } from './node-sqlite.js';
import { checkSqliteFeatures } from './sqlite-features.js';
import type { Driver, ModuleLoader } from './types.js';

export const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined';

export interface ChooseDriverOptions {
  /** How modules are loaded. @default require */
  load?: ModuleLoader;
  /** Whether this is Bun. @default the running runtime */
  bun?: boolean;
}

const defaultLoad: ModuleLoader = createRequire(import.meta.url);

/** Loads the runtime's driver and checks its SQLite has what the store needs. */
export function chooseDriver(options: ChooseDriverOptions = {}): Driver {
  const load = options.load ?? defaultLoad;
  const driver = (options.bun ?? isBun) ? loadBunSqlite(load) : loadNodeDriver(load);
  checkSqliteFeatures(driver);
  return driver;
}

function loadNodeDriver(load: ModuleLoader): Driver {
  try {
    return loadNodeSqlite(load);
  } catch (err) {
    // Node 20, or 22.0-22.12 without --experimental-sqlite: no node:sqlite here.
    if (!isUnknownBuiltin(err)) throw err;
  }
  try {
    return loadBetterSqlite3(load);
  } catch (err) {
    throw nativeLoadFailure('better-sqlite3', err);
  }
}

function isUnknownBuiltin(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ERR_UNKNOWN_BUILTIN_MODULE' || code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND';
}

/** Turns a failure to load a native module into the error that says what to do, if we know it. */
export function nativeLoadFailure(module: string, err: unknown): unknown {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown } | null)?.code;
  const notInstalled = (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') && message.includes(module);
  // Installed, but its native build failed or was skipped: no binding to load.
  const notBuilt = /Could not locate the bindings file/i.test(message);
  if (notInstalled || notBuilt) {
    return new SqliteDriverMissingError({ cause: err });
  }
  const abi = abiMismatch(message);
  if (abi) return new NativeModuleAbiError(module, abi.builtFor, abi.running, { cause: err });
  return err;
}

/** "compiled against a different Node.js version using NODE_MODULE_VERSION 115. This version of Node.js requires NODE_MODULE_VERSION 137." */
export function abiMismatch(message: string): { builtFor: string; running: string } | undefined {
  if (!/NODE_MODULE_VERSION|compiled against a different Node\.js version/i.test(message)) return undefined;
  const versions = [...message.matchAll(/NODE_MODULE_VERSION (\d+)/g)].map((m) => m[1]!);
  return {
    builtFor: versions[0] ?? 'unknown',
    running: versions[1] ?? process.versions.modules,
  };
}
