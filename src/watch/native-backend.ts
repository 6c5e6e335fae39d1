/**
 * The native recursive watcher: @parcel/watcher (inotify, FSEvents, ReadDirectoryChangesW),
 * loaded lazily so a process that watches nothing never loads it. Ignores are applied
 * natively: noise folders get no inotify watch at all (measured in DESIGN.md §8: one watch per
 * source folder, none in node_modules). `.git` internals are ignored except what signals a
 * checkout or commit (HEAD, index, refs/), so a commit or checkout is seen.
 */
import { SKIP_DIR_NAMES } from '../detect/index.js';

export interface WatchEvent {
  type: 'create' | 'update' | 'delete';
  path: string;
}

export interface RootSubscription {
  unsubscribe(): Promise<void>;
}

export type EventsCallback = (err: Error | null, events: WatchEvent[]) => void;

export interface WatchBackend {
  /** What `watch_backend` says while a subscription of this backend holds (`native`, `fs.watch`). */
  readonly name: string;
  /** On a fallback: why the native watcher is not used (its load error, with its code). */
  readonly instead?: NativeRefusal;
  subscribe(root: string, onEvents: EventsCallback): Promise<RootSubscription>;
}

/** .git folders that churn without meaning a checkout or a commit: the native watcher ignores them. */
export const NATIVE_GIT_NOISE = ['.git/objects', '.git/logs', '.git/hooks', '.git/info', '.git/lfs', '.git/modules', '.git/worktrees'];

/**
 * The ignore list handed to the native watcher: noise folders at any depth, and .git noise.
 * The folders at any depth are ONE brace glob: @parcel/watcher matches every path of its
 * initial crawl against each glob as its own std::regex, and at 100 000 files twenty globs made
 * a subscribe take 10-15 s against 1.4 s for one (bench --large-repo; plain paths cost nothing).
 */
export function nativeIgnores(): string[] {
  const names = [...SKIP_DIR_NAMES].filter((n) => n !== '.git');
  return [...NATIVE_GIT_NOISE, `**/{${names.join(',')}}`];
}

interface ParcelWatcher {
  subscribe(dir: string, fn: EventsCallback, opts: { ignore: string[]; backend?: string }): Promise<RootSubscription>;
}

/**
 * The backend @parcel/watcher is told to use, by platform. Its "default" first asks whether
 * watchman runs (popen of `watchman … get-sockname`); without watchman the answer does not
 * parse, the pclose is skipped, and the `sh` stays a zombie with its pipe open for the watch
 * host's life, one more each time the host's last subscription ends (found by the soak;
 * test/the-native-watcher-starts-no-process.test.ts). Naming the platform's own backend starts
 * nothing. Elsewhere (none named) the default stands.
 */
export const NATIVE_BACKEND_BY_PLATFORM: Partial<Record<NodeJS.Platform, string>> = { linux: 'inotify', darwin: 'fs-events', win32: 'windows' };

/** Why the native watcher is not used: its load error's message and code. */
export interface NativeRefusal {
  message: string;
  code?: string;
}

/** The code of the native watcher turned off on purpose (GARDENER_WATCH_NATIVE=0). */
export const NATIVE_WATCHER_OFF = 'EWATCHOFF';

/** What a person does to get the native watcher back: undo the switch, or mend the install. */
export function nativeWatcherAdvice(refusal: NativeRefusal | undefined): string {
  return refusal?.code === NATIVE_WATCHER_OFF
    ? 'Unset GARDENER_WATCH_NATIVE to use it again.'
    : 'Reinstall Gardener (npm rebuild @parcel/watcher) to restore it.';
}

/**
 * The native backend, or the error that kept it from loading (the caller falls back).
 * GARDENER_WATCH_NATIVE=0 refuses it on purpose (tests of the fallbacks; a user whose native
 * watcher misbehaves), with the code NATIVE_WATCHER_OFF.
 */
export async function loadNativeBackend(env: NodeJS.ProcessEnv = process.env): Promise<WatchBackend | Error> {
  if (env.GARDENER_WATCH_NATIVE === '0') return Object.assign(new Error('the native watcher is turned off (GARDENER_WATCH_NATIVE=0)'), { code: NATIVE_WATCHER_OFF });
  let parcel: ParcelWatcher;
  try {
    parcel = (await import('@parcel/watcher')) as unknown as ParcelWatcher;
    parcel = (parcel as unknown as { default?: ParcelWatcher }).default ?? parcel;
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
  const ignore = nativeIgnores();
  const backend = NATIVE_BACKEND_BY_PLATFORM[process.platform];
  return {
    name: 'native',
    subscribe: (root, onEvents) => parcel.subscribe(root, onEvents, backend ? { ignore, backend } : { ignore }),
  };
}
