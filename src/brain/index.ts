export { Brain } from './brain.js';
export { Brains, type BrainsOptions } from './brains.js';
export { checkFolder } from './folders.js';
export { resolveHome, brainDir, brainFile } from './home.js';
export { Registry, brainIdFor, type BrainEntry } from './registry.js';
