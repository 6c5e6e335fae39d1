/**
 * The module the store writer's thread starts with: it sets the process's heap flags again before
 * any other module of Gardener loads, then loads the writer (workers/store-writer.ts), which
 * answers on this thread's port. Why first: workers/pool-thread.ts (the writer's module graph
 * takes 279 ms to load on an idle machine).
 */
import { keepHeapsSmall } from '../src/heap-growth.js';

keepHeapsSmall();
await import('./store-writer.js');
