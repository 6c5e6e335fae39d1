export { Brain } from './brain.js';
export { Brains, type BrainsOptions } from './brains.js';
export { checkFolder } from './folders.js';
export { resolveHome, brainDir, brainFile } from './home.js';
export { Registry, brainIdFor, type BrainEntry } from './registry.js';
export { allRootsGone, folderBytes, listHomeBrains, type HomeBrainsList, type ListedBrain, type ListedRoot } from './home-brains-list.js';
export { bytesFreed, MAX_REMOVAL_IDS, planRemoval, removalChoiceOf, removeBrainFolders, removeBrains, unregisterBrains, type Removal, type RemovalChoice, type RemovalPlan } from './remove-brains.js';
export { readStoreFacts, type StoreFacts } from './store-facts.js';
