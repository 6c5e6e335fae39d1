/**
 * Child process (not a thread): the native file watcher, kept out of the owner's process so a
 * native crash (seen on macOS and Windows) kills only this child.
 *
 *   owner ── stdin: {op:'subscribe'|'unsubscribe', id, root} ──► [this process] ── @parcel/watcher
 *         ◄── stdout: {op:'subscribed'|'failed'|'events', id, ...} ──┘
 *
 * One JSON object per line each way. It reports what changed under a root (events capped at
 * WATCH_EVENTS_SENT, with the total), never reads a file and never opens a store.
 */
import { createInterface } from 'node:readline';
import { loadNativeBackend, NATIVE_WATCHER_OFF, type RootSubscription, type WatchBackend, type WatchEvent } from '../src/watch/native-backend.js';
import { fsWatchBackend, fsWatchSupport } from '../src/watch/fs-watch-backend.js';
import { WATCH_EVENTS_SENT, type HostReply, type HostRequest } from '../src/watch/host-protocol.js';

/** The native watcher; where it cannot load, recursive fs.watch on a runtime where that is sound. */
async function chooseBackend(): Promise<WatchBackend | Error> {
  const native = await loadNativeBackend();
  if (!(native instanceof Error)) return native;
  const unsound = fsWatchSupport();
  const code = (native as NodeJS.ErrnoException).code;
  return unsound
    ? Object.assign(new Error(`${native.message}; no fallback watcher: ${unsound}`), { code: code === NATIVE_WATCHER_OFF ? code : 'ELOAD' })
    : fsWatchBackend({ message: native.message, ...(code ? { code } : {}) });
}

const backend = await chooseBackend();
const subs = new Map<number, Promise<RootSubscription | null>>();
/** Requests run one after another, in the order they came. */
let queue: Promise<unknown> = Promise.resolve();
const send = (reply: HostReply) => process.stdout.write(`${JSON.stringify(reply)}\n`);

function capped(root: string, events: WatchEvent[]): WatchEvent[] {
  if (events.length <= WATCH_EVENTS_SENT) return events;
  // The root's own deletion must survive the cap: it is what tells the owner the root is gone.
  const rootGone = events.find((e) => e.type === 'delete' && e.path === root);
  const head = events.slice(0, WATCH_EVENTS_SENT);
  return rootGone && !head.includes(rootGone) ? [rootGone, ...head] : head;
}

createInterface({ input: process.stdin }).on('line', (line) => {
  let req: HostRequest;
  try {
    req = JSON.parse(line) as HostRequest;
  } catch {
    return;
  }
  if (req.op === 'subscribe') {
    if (backend instanceof Error) return send({ op: 'failed', id: req.id, message: backend.message, code: (backend as NodeJS.ErrnoException).code ?? 'ELOAD' });
    const { id, root } = req;
    // After every earlier request: a re-subscribe must not race the unsubscribe before it
    // (the native watcher shares one watch per folder, and a half-closed one never answers).
    const watching = backend;
    const sub = queue
      .then(() => watching.subscribe(root, (err, events) => {
        if (err) send({ op: 'failed', id, message: err.message, code: (err as NodeJS.ErrnoException).code });
        else send({ op: 'events', id, events: capped(root, events), total: events.length });
      }))
      .then(
        (s) => (send({ op: 'subscribed', id, backend: backend.name, ...(backend.instead ? { instead: backend.instead } : {}) }), s),
        (err: NodeJS.ErrnoException) => (send({ op: 'failed', id, message: err.message, code: err.code }), null),
      );
    subs.set(id, sub);
    queue = sub.then(() => {}, () => {});
  } else if (req.op === 'unsubscribe') {
    const sub = subs.get(req.id);
    subs.delete(req.id);
    queue = queue.then(() => sub?.then((s) => s?.unsubscribe())).catch(() => {});
  }
});
// The owner is gone: so is the reason to watch.
process.stdin.on('end', () => process.exit(0));
