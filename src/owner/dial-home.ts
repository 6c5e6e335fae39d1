/**
 * Reaching the owner of a Gardener home: its socket where this process would put it, else the
 * one its owner.json names (an owner started with another XDG_RUNTIME_DIR, as a service
 * manager's is). Used by the proxy, `serve --status/--stop` and the CLI's watch status.
 */
import { dialOwner, type ClientHello, type Dialed } from './hello.js';
import { readOwnerFile } from './owner-file.js';
import { runPaths } from './run-paths.js';

export async function dialOwnerOf(home: string, hello: ClientHello, timeoutMs: number): Promise<(Dialed & { socketPath: string }) | null> {
  const paths = runPaths(home);
  const first = await dialOwner(paths.socket, hello, timeoutMs);
  if (first) return { ...first, socketPath: paths.socket };
  const named = readOwnerFile(paths.ownerFile)?.socket;
  if (!named || named === paths.socket) return null;
  const second = await dialOwner(named, hello, timeoutMs);
  return second && { ...second, socketPath: named };
}
