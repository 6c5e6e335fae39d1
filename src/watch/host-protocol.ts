/** The lines between the owner and its watch host (workers/watch-host.ts), one JSON object each. */
import type { NativeRefusal, WatchEvent } from './native-backend.js';
import { RESUBSCRIBE_EVENT_COUNT } from './brain-watcher.js';

/** Events sent per batch: one past the count that makes the watcher re-subscribe the root. */
export const WATCH_EVENTS_SENT = RESUBSCRIBE_EVENT_COUNT + 1;

export type HostRequest =
  | { op: 'subscribe'; id: number; root: string }
  | { op: 'unsubscribe'; id: number };

export type HostReply =
  | { op: 'subscribed'; id: number; backend: string; instead?: NativeRefusal }
  | { op: 'failed'; id: number; message: string; code?: string }
  | { op: 'events'; id: number; events: WatchEvent[]; total: number };
