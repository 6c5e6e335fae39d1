/**
 * Gardener's public API: this file is the whole surface `import 'gardener'` offers.
 * Everything else under src/ is internal and may change without notice.
 */
export { Brains, Brain, Registry, resolveHome, checkFolder } from './brain/index.js';
export { runTick, Vigil, DEFAULT_MAX_FILES, type TickOptions, type TickReport, type TickOutcome } from './vigil/index.js';
export { seek, type SeekHit, type SeekOptions } from './ranking/index.js';
export * from './errors.js';
export { VERSION } from './version.js';
