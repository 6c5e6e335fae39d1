/** `gardener token`: prints the owner's HTTP bearer token (made now if it does not exist yet). */
import { resolveHome } from '../../brain/home.js';
import { UnsafePermissionsError } from '../../errors.js';
import { makePrivateDir, runPaths, unsafeFolderReason } from '../../owner/run-paths.js';
import { ensureToken } from '../../owner/token.js';
import { printJson, printLine } from '../output.js';

export async function token(opts: { json?: boolean }): Promise<void> {
  const paths = runPaths(resolveHome());
  makePrivateDir(paths.home);
  const why = unsafeFolderReason(paths.home);
  if (why) throw new UnsafePermissionsError(paths.home, why);
  const value = ensureToken(paths.tokenFile);
  if (opts.json) printJson({ token: value, file: paths.tokenFile });
  else printLine(value);
}
