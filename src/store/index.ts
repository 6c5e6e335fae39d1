export { openDatabase, sqliteDriver, isBun, type Database, type Statement, type SqlValue, type DriverName } from './sqlite-adapter.js';
export { openStore, STORE_CACHE_KIB, type OpenStoreOptions } from './open-store.js';
export { SCHEMA_VERSION, APPLICATION_ID } from './schema.js';
export { ensureRoot, listRoots, getRoot, notesDirs, type RootRow } from './roots.js';
export { pushChanges, peekBacklog, countBacklog, pendingAmong, ROOT_CONFIG_ALERT, type PushOutcome } from './backlog.js';
export { commitResults, type CommitOutcome } from './code-map.js';
export { recordAlert, listAlerts, ackAlert, MAX_ALERTS, type Alert, type AlertInput } from './alerts.js';
export {
  readVigil, setArmed, acquireTickLease, releaseTickLease, isProcessAlive, TICK_LEASE_STALE_MS,
  type VigilState, type LeaseOutcome, type TickCounts,
} from './vigil-state.js';
export { lineOf } from './line-of.js';
export { tokenize, quoteTerm } from './query-terms.js';
export { readStatus, type BrainStats } from './stats.js';
export { marksOf, type NoteTie, type NoteMarks, type StaleMark } from './note-ties.js';
export { addNote, removeNote, bootNotes, countNotes, searchNotes, type Note, type NoteInput, type NoteHit } from './notes.js';
export { languageCounts, importCounts, topFolders, symbolsOf, type FolderSummary } from './orientation.js';
export { deferUpkeep, runUpkeep, FTS_MERGE_PAGES, UPKEEP_MERGE_BUDGET_MS, CHECKPOINT_WAL_BYTES, type UpkeepOutcome, type UpkeepOptions } from './maintenance.js';
export { compareWithMap, type ChangeAgainstMap, type SeenEntry } from './changes.js';
export { definitionsOf, usesOf, nearestNames, MAX_DEFINITION_FILES, MAX_USE_FILES, type DefinitionHit, type UseHit, type FileUses, type UsesOutcome } from './references.js';
export {
  dropTeamNote, teamNoteOf, teamNotes, teamNoteFileFor, writeTeamNote, unlinkTeamNote, draftOf, applyTeamNoteResult,
  TEAM_NOTE_SKIPPED_ALERT, DEFAULT_TEAM_NOTES_DIR, MAX_TEAM_NOTE_FILE_BYTES, type TeamNoteRow, type TeamNoteDraft,
} from './team-notes.js';
export { parseTeamNote, formatTeamNote, type TeamNote, type TeamTie } from './team-note-file.js';
export { pathsByPrefix, namesByPrefix, mappedFile } from './map-lists.js';
