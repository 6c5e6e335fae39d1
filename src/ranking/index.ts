/**
 * Ranking: the one place `seek`, `delegate` (and later `north`) rank through. Weights are in
 * weights.ts, each with the recall eval run that chose it.
 */
export { analyseQuery, MAX_QUERY_CHARS, type RankQuery } from './query.js';
export { rankFiles, type RankedFile, type RankOptions } from './rank-files.js';
export { taskFiles, seekText, isTextQuery, type TaskFile, type TextHit } from './task-files.js';
export { seek, DEFAULT_SEEK_LIMIT, type SeekHit, type SeekOptions } from './seek.js';
export { seekNames } from './seek-names.js';
export { splitWords } from './words.js';
export { STOP_WORDS } from './stop-words.js';
export { withRooms } from './room-boost.js';
