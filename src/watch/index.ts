/**
 * The watch stage: file events of armed brains, coalesced into ticks. Other folders import it
 * through this file only.
 */
export { BurstWindow, BURST_COALESCE_WINDOW_MS, BURST_COALESCE_CAP_MS, type BurstWindowOptions } from './burst-window.js';
export { BrainWatcher, POLL_INTERVAL_MS, SAFETY_NET_TICK_MS, RESUBSCRIBE_EVENT_COUNT, SUBSCRIBE_RETRY_MS, type BrainWatcherOptions } from './brain-watcher.js';
export { loadNativeBackend, nativeIgnores, NATIVE_GIT_NOISE, type WatchBackend, type WatchEvent, type RootSubscription } from './native-backend.js';
export { realTimers, type WatchTimers } from './timers.js';
export { ChildWatchBackend, HOST_RESTART_BACKOFF_MS, HOST_RESTART_MAX_MS, type ChildBackendOptions } from './child-backend.js';
export { fsWatchBackend, fsWatchSupport } from './fs-watch-backend.js';
