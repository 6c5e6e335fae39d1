/**
 * What watches a brain, asked of the live owner: the CLI runs in its own process, so only the
 * owner can say whether one of its watchers holds a brain. No verified owner, or no answer within
 * OWNER_STATUS_TIMEOUT_MS, is `none`: a dead owner's watcher never survives it in a status.
 */
import { VERSION } from '../version.js';
import { dialOwnerOf } from './dial-home.js';

/** Bound on asking the owner, in ms: a status must not hang on a hung owner. */
export const OWNER_STATUS_TIMEOUT_MS = 500;

export async function ownerWatchBackend(home: string, brainId: string): Promise<string> {
  const d = await dialOwnerOf(home, { gardener: VERSION, op: 'status', pid: process.pid }, OWNER_STATUS_TIMEOUT_MS);
  if (!d.socket) return 'none';
  d.socket.destroy();
  const watched = (d.reply.status?.watched ?? []) as { id: string; watch_backend: string }[];
  return watched.find((w) => w.id === brainId)?.watch_backend ?? 'none';
}
