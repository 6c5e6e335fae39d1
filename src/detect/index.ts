/**
 * The detect stage: which files under an ingest root changed since the map last looked.
 * Other folders import it through this file only.
 */
export type { ChangedEntry, DetectBackend, DetectFallback, DetectRequest, DetectResult } from './types.js';
export { checkDetectRequest, detectChanges } from './detect-changes.js';
export { detectGit } from './git-detector.js';
export { detectStat } from './stat-walk-detector.js';
export { gitAuthor } from './git-author.js';
export { SKIP_DIR_NAMES, isSkippedDirName, isSkippedPath, makeSkipFilter, normalizeSkipPrefixes } from './skip-dirs.js';
export { DEFAULT_NOTES_DIR, isNoteFile, isOnNotesPath } from './notes-dir.js';
export { ROOT_CONFIG_FILE, MAX_ROOT_CONFIG_BYTES, checkNotesDir, notesDirFor, parseRootConfig, rootConfigOf, type RootConfig } from './root-config.js';
export { parseDiffNameStatus, parseLsFiles, parseStatusV2, type GitPathChanges } from './git-status-parser.js';
export { GIT_COMMAND_TIMEOUT_MS, resolveCommit, runGit } from './run-git.js';
export { gitEnvFrom } from './git-env.js';
export { GARDENER_IGNORE_FILE, gardenerIgnoreOf, loadGardenerIgnore, type GardenerIgnore } from './gardener-ignore.js';
