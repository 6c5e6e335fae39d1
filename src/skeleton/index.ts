/** The skeleton: rooms, what is derived for them from the code map, candidates, and the auto-reconciler. */
export { compileGlob, globProblem, MAX_GLOB_CHARS } from './glob.js';
export { assignRooms, checkRooms, checkRoomName, MAX_ROOMS, MAX_PURPOSE_CHARS, type Room } from './rooms.js';
export { ImportResolver } from '../resolve/index.js';
export { loadCodeGraph, exportedNames, type CodeGraph, type CodeFile } from './code-graph.js';
export { deriveSkeleton, driftBetween, type Derived, type RoomDerived, type Violation } from './derive.js';
export { proposeRooms, TARGET_ROOMS, MIN_ROOM_FILES, type CandidateOptions } from './candidate.js';
export { applyEdits, type SkeletonEdit } from './edits.js';
export {
  readSkeleton, readSkeletonMeta, proposeCandidate, editCandidate, ratifyCandidate, candidateLease, readForReconcile,
  writeReconciled, setReconcileDeadline, clearReconcileDeadline, MAX_LEASE_TTL_S,
  type StoredSkeleton, type SkeletonMeta, type LeaseAction, type LeaseAnswer, type ReconcileRead, type SkeletonStateName,
} from './skeleton-store.js';
export { refusing, unrefused, type Refusal } from './refusal.js';
export { rootTextReader } from './root-text.js';
export {
  Reconciler, AUTO_RECONCILE_QUIET_WINDOW_MS, DRIFT_ALERT_MAX_ITEMS, driftMessage,
  type ReconcileStore, type ReconcilerOptions, type ReconcileOutcome,
} from './reconciler.js';
export { roomsOfPaths } from './rooms-of-paths.js';
export { skeletonView, viewOf, northRooms, VIEW_MAX_ITEMS } from './skeleton-view.js';
