/** The watch stage runs on the shared injectable timers (src/timers.ts). */
export { realTimers, type Timers as WatchTimers } from '../timers.js';
