/**
 * The fallback when the native watcher cannot load: `fs.watch` recursive, where it is a real
 * per-folder watcher. Bun ≥ 1.3.14 qualifies (checked here: Bun 1.4). Node's recursive
 * `fs.watch` before 24.22 watches every file, node_modules included, and hides ENOSPC (DESIGN.md
 * §8), so on Node the fallback is polling; Node ≥ 24.22's `ignore` option is not used yet
 * (no such Node on the machines this was tested on). Noise folders are filtered here, not in
 * the kernel: their events cost a callback each, never a tick.
 */
import { watch, type FSWatcher } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { SKIP_DIR_NAMES } from '../detect/index.js';
import type { NativeRefusal, RootSubscription, WatchBackend, WatchEvent } from './native-backend.js';

/** Bun's first version whose recursive fs.watch reports inside new folders (DESIGN.md §8). */
const BUN_MIN = [1, 3, 14];

function atLeast(version: string, min: number[]): boolean {
  const v = version.split('.').map((n) => Number.parseInt(n, 10));
  for (let i = 0; i < min.length; i++) {
    if ((v[i] ?? 0) !== min[i]) return (v[i] ?? 0) > min[i]!;
  }
  return true;
}

/** Whether this runtime's recursive fs.watch is a fallback worth having, and why not. */
export function fsWatchSupport(versions: NodeJS.ProcessVersions & { bun?: string } = process.versions): string | null {
  if (versions.bun) return atLeast(versions.bun, BUN_MIN) ? null : `Bun ${versions.bun} is older than ${BUN_MIN.join('.')}`;
  return `Node ${versions.node}'s recursive fs.watch watches every file and hides ENOSPC`;
}

const noisy = (rel: string) => rel.split(/[\\/]/).some((part) => SKIP_DIR_NAMES.has(part) && part !== '.git') || /(^|[\\/])\.git[\\/](objects|logs|hooks|info|lfs|modules|worktrees)([\\/]|$)/.test(rel);

/** Recursive fs.watch; `instead` says why it stands in for the native watcher. */
export function fsWatchBackend(instead?: NativeRefusal): WatchBackend {
  return {
    name: 'fs.watch',
    ...(instead ? { instead } : {}),
    async subscribe(root, onEvents): Promise<RootSubscription> {
      await stat(root);
      let pending: { type: 'rename' | 'change'; path: string }[] = [];
      let flushing = false;
      const flush = async () => {
        const batch = pending;
        pending = [];
        flushing = false;
        const events: WatchEvent[] = await Promise.all(
          batch.map(async (e): Promise<WatchEvent> => {
            if (e.type === 'change') return { type: 'update', path: e.path };
            try {
              await stat(e.path);
              return { type: 'create', path: e.path };
            } catch {
              return { type: 'delete', path: e.path };
            }
          }),
        );
        if (events.length > 0) onEvents(null, events);
      };
      const watcher: FSWatcher = watch(root, { recursive: true }, (type, filename) => {
        const rel = filename === null ? '' : String(filename);
        if (rel !== '' && noisy(rel)) return;
        pending.push({ type: type === 'change' ? 'change' : 'rename', path: rel === '' ? root : join(root, rel.split('/').join(sep)) });
        if (!flushing) {
          flushing = true;
          setImmediate(() => void flush());
        }
      });
      watcher.on('error', (err) => onEvents(err, []));
      return { unsubscribe: async () => watcher.close() };
    },
  };
}
