/**
 * The folder probe stage: "is this folder a git work tree, which brain covers it, is it
 * armed?", asked in the background. Other folders import it through this file only.
 */
export {
  FolderProbe,
  DEFAULT_FAILURE_TTL_MS,
  PROBE_GIT_TIMEOUT_MS,
  type BrainResolution,
  type FolderProbeOptions,
  type ProbeAnswer,
} from './folder-probe.js';
export { KILL_GRACE_MS } from './git-work-tree.js';
