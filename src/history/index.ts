/**
 * History: ranking evidence mined from the brain's own git history up to the mapped commit
 * (co-change, recency and churn, commit messages). It mines (in the detect worker) and stores
 * (through the writer); ranking reads. Other folders import it through this file only.
 */
export type { MineRequest, MinedHistory, MinedCommit, HistoryStatus, MineOutcome } from './types.js';
export { mineHistory, parseLog, HISTORY_MAX_COMMITS, HUGE_COMMIT_FILES, MAX_MESSAGE_CHARS } from './mine-history.js';
export { applyHistory, recordHistoryFailure, readHistoryStates, minedHeads, type HistoryState, type HistoryApplied } from './history-store.js';
export { historyHeads, touchesOf, recentCommitIds, pathsOf, commitsMatching, churnOf, type Touch } from './history-read.js';
export { historyOfRoots, type RootHistoryView } from './history-view.js';
