/**
 * An owner (the same startOwner `gardener serve` runs, without HTTP) that SIGKILLs itself
 * right after the first commit of a drain lands, for the owner-resume fault test: the kill
 * leaves a saved backlog and the tick lease set, as a crash mid-drain does.
 *
 * It prints `watching` on stdout once its watcher holds the armed brain (and any work it does
 * at start is over); from then on the first `commitResults` that lands is the kill point. Its
 * log lines go to stderr.
 *
 *   node owner-kill-child.js <home>
 */
import { startOwner } from '../../src/owner/owner.js';
import { createLogger } from '../../src/log.js';
import { StoreWriterClient } from '../../src/pool/store-writer-client.js';

const [home] = process.argv.slice(2) as [string];

let armed = false;
const call = StoreWriterClient.prototype.call;
StoreWriterClient.prototype.call = function (this: StoreWriterClient, method: string, args: unknown[]) {
  const p = call.call(this, method, args);
  if (armed && method === 'commitResults') {
    armed = false;
    void p.then(() => process.kill(process.pid, 'SIGKILL'));
  }
  return p;
};

const stderr = createLogger('debug');
let watchingSaid: () => void;
const watching = new Promise<void>((r) => (watchingSaid = r));
const log = {
  ...stderr,
  info(msg: string, fields?: Record<string, unknown>) {
    stderr.info(msg, fields);
    if (msg === 'watching') watchingSaid();
  },
};

const outcome = await startOwner({ home, port: null, log });
if (!outcome.started) throw new Error(`another owner runs this home (pid ${outcome.running.pid})`);
await watching;
// The resume of newer owners (a tick at start) is over before the burst is written, so the
// burst's own drain is the one killed. Older owners have nothing to wait for.
const watchers = outcome.owner.brains.watchers as unknown as { resumed?: () => Promise<void> };
await watchers.resumed?.();
armed = true;
process.stdout.write('watching\n');
await outcome.owner.closed;
