/**
 * `gardener daemon start|stop|status [dir]`: the per-brain opt-in, kept in the brain's own
 * store. Honest: an armed brain advances when seen (traffic, a tick), never claims to be
 * watched continuously.
 */
import { readStatus, readVigil, type VigilState } from '../../store/index.js';
import { printJson, printLine } from '../output.js';
import { iso, withBrains } from './with-brains.js';
import { ownerWatchBackend } from '../../owner/owner-watch-status.js';

export async function daemon(action: 'start' | 'stop' | 'status', dir: string, opts: { json?: boolean }): Promise<void> {
  await withBrains(async (brains) => {
    const brain = brains.resolve(dir);
    let vigil: VigilState;
    if (action === 'status') vigil = readVigil(brain.reader);
    else vigil = await brain.writer.setArmed(action === 'start', Date.now());
    const backlog = readStatus(brain.reader).backlog;
    // Arming from here reaches a running owner at its next registry read (ARMED_RESCAN_MS).
    const watchBackend = await ownerWatchBackend(brains.home, brain.id);
    const out = {
      brain: brain.id,
      armed: vigil.armed,
      armed_at: iso(vigil.armedAt),
      last_tick_at: iso(vigil.lastTickAt),
      fresh_as_of: iso(vigil.lastAdvancedAt),
      backlog,
      watch_backend: watchBackend,
      freshness: watchBackend === 'none'
        ? 'advances when seen: on traffic and on ticks; no live owner watches this brain'
        : `advances on file events (${watchBackend}) through the owner, and on traffic`,
    };
    if (opts.json) return printJson(out);
    printLine(`brain ${brain.id}: ${vigil.armed ? 'armed' : 'not armed'}`);
    printLine(`  fresh as of ${out.fresh_as_of ?? 'never'}; ${backlog} paths waiting; watched: ${watchBackend}`);
    printLine(`  freshness ${out.freshness}`);
  });
}
