export { runTick, DEFAULT_MAX_FILES, DEFAULT_MAX_INDEX_BYTES, MAX_COLLECTED_CHANGES, statusIndexFileOf, type TickOptions, type TickReport } from './tick.js';
export { Vigil, type TickOutcome, type VigilOptions } from './vigil.js';
export { Vigils } from './vigils.js';
