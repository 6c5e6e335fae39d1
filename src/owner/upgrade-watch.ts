/**
 * An owner outlives installs of its own code. Under a service manager it runs for weeks, and
 * `npm install -g gardener` (or a package manager's update) meanwhile replaces the files it was
 * started from. The process keeps the old code in memory, but every thread it starts afterwards
 * loads the new files: a pool thread (Piscina ends idle ones after 30 s), a store writer
 * restarted after its idle time or for a brain opened again. Old main thread, new workers: a
 * writer of a newer schema migrates a store its own owner's read connection then refuses.
 *
 * So the owner reads its package.json every UPGRADE_CHECK_MS; once it names another version
 * than the one running, and says the same (version, size, mtime) at the next check too (an
 * install writes package.json first and the rest after, so the owner waits for it to settle),
 * the owner stops as on SIGTERM and exits EXIT_UPGRADED. The service units restart an owner that
 * exits non-zero (systemd `Restart=on-failure`, launchd `KeepAlive` with `SuccessfulExit`
 * false), so the new version serves; run by hand, it says to start it again.
 */
import { readFileSync, statSync } from 'node:fs';
import { realTimers, type Timers } from '../timers.js';

/** How often the owner reads its package.json. */
export const UPGRADE_CHECK_MS = 60_000;
/** The owner's exit code after its code was replaced on disk (EX_TEMPFAIL: start it again). */
export const EXIT_UPGRADED = 75;
/** The package.json the running code was read from (src/version.ts reads the same file). */
export const PACKAGE_FILE = new URL('../../../package.json', import.meta.url);

export interface UpgradeWatchOptions {
  /** @default PACKAGE_FILE */
  file?: string | URL;
  /** The version this process runs. */
  running: string;
  /** @default UPGRADE_CHECK_MS */
  everyMs?: number;
  timers?: Timers;
  /** Called once, with the version on disk, when it has settled. */
  onUpgrade: (version: string) => void;
}

/** Starts checking; returns what stops it. */
export function watchForUpgrade(o: UpgradeWatchOptions): () => void {
  const timers = o.timers ?? realTimers;
  const every = o.everyMs ?? UPGRADE_CHECK_MS;
  const file = o.file ?? PACKAGE_FILE;
  let seen: string | null = null;
  let timer: unknown;
  const check = () => {
    timer = undefined;
    const now = readPackage(file);
    if (now && now.version !== o.running) {
      if (seen === now.stamp) return o.onUpgrade(now.version);
      seen = now.stamp;
    } else seen = null;
    timer = timers.setTimeout(check, every);
  };
  timer = timers.setTimeout(check, every);
  return () => timers.clearTimeout(timer);
}

/** The version package.json names and a stamp of the file; null while it cannot be read (mid-install). */
function readPackage(file: string | URL): { version: string; stamp: string } | null {
  try {
    const st = statSync(file);
    const version = (JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' ? { version, stamp: `${version}|${st.size}|${st.mtimeMs}` } : null;
  } catch {
    return null;
  }
}
