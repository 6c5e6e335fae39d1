/**
 * The bench's temporary folder: made under the OS temp folder (its real path, so paths compare
 * with what git and the store report), removed on SIGINT/SIGTERM (exit 130/143) and by
 * `remove()` once the bench ends.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempFolder {
  path: string;
  /** Stops listening for signals and removes the folder. */
  remove(): void;
}

export function benchTempFolder(prefix: string, log: (line: string) => void): TempFolder {
  const path = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const removeTemp = () => rmSync(path, { recursive: true, force: true });
  const onSignal = (signal: NodeJS.Signals) => {
    log(`${signal}: removing ${path}`);
    removeTemp();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    path,
    remove() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      removeTemp();
    },
  };
}
