/**
 * The module a pool thread starts with (Piscina's `filename`): it sets the process's heap flags
 * again before any other module of Gardener loads, then loads the hash+extract entry, so a thread
 * is ready as before (detect's entry loads with its first detect task).
 *
 * Why first: on Node 20 starting a worker thread puts V8's heap flags back to their defaults for
 * the whole process, and they stay so until the thread sets them again (src/heap-growth.ts).
 * Meanwhile the main thread's young generation may grow, and V8 keeps it grown. An entry that set
 * them as its own code ran did so after its whole module graph loaded: 205 ms for hash+extract on
 * an idle machine (test a-thread-sets-the-heap-flags-before-it-loads).
 */
import { keepHeapsSmall } from '../src/heap-growth.js';

keepHeapsSmall();
await import('./hash-extract.js');
