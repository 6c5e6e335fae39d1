export { runTick, DEFAULT_MAX_FILES, DEFAULT_MAX_INDEX_BYTES, type TickOptions, type TickReport } from './tick.js';
export { Vigil, type TickOutcome, type VigilOptions } from './vigil.js';
