/**
 * `gardener daemon start|stop|status [dir]`: the per-brain opt-in, kept in the brain's own
 * store. Honest: an armed brain advances when seen (traffic, a tick), never claims to be
 * watched continuously.
 */
import { readVigil, type VigilState } from '../../store/index.js';
import { daemonView } from '../../tools/daemon-view.js';
import { printJson, printLine } from '../output.js';
import { withBrains } from './with-brains.js';
import { ownerWatchBackend } from '../../owner/owner-watch-status.js';

export async function daemon(action: 'start' | 'stop' | 'status', dir: string, opts: { json?: boolean }): Promise<void> {
  await withBrains(async (brains) => {
    const brain = brains.resolve(dir);
    let vigil: VigilState;
    if (action === 'status') vigil = readVigil(brain.reader);
    else vigil = await brain.writer.setArmed(action === 'start', Date.now());
    // Arming from here reaches a running owner at its next registry read (ARMED_RESCAN_MS).
    // The tools' view, with what watches the brain asked of the live owner.
    const out = daemonView(brain, vigil, await ownerWatchBackend(brains.home, brain.id));
    if (opts.json) return printJson(out);
    printLine(`brain ${brain.id}: ${vigil.armed ? 'armed' : 'not armed'}`);
    printLine(`  fresh as of ${out.fresh_as_of ?? 'never'}; ${out.backlog} paths waiting; watched: ${out.watch_backend}`);
    printLine(`  freshness ${out.freshness}`);
  });
}
