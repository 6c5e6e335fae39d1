/**
 * Every tool, in list order. Late-armed tools come last and are held back by the session
 * until the folder probe arms them, so they always arrive at the tail.
 */
import type { ToolDef } from '../dispatch/index.js';
import { seekTool, northTool, bootMemoryTool, delegateTool } from './recall-tools.js';
import { refsTool, impactTool } from './reference-tools.js';
import { rememberTool, forgetTool } from './memory-tools.js';
import { ingestTool, scanTool, scanAllTool } from './heavy-tools.js';
import { sessionHandshakeTool, alertsListTool, alertsAckTool } from './session-tools.js';
import { skeletonTool, skeletonCandidateTool, candidateLeaseTool, skeletonEditTool, skeletonRatifyTool } from './skeleton-tools.js';
import { daemonStartTool, daemonStopTool, daemonStatusTool, changesTool } from './watched-tools.js';

export const TOOLS: readonly ToolDef[] = [
  seekTool,
  northTool,
  bootMemoryTool,
  delegateTool,
  refsTool,
  impactTool,
  rememberTool,
  forgetTool,
  ingestTool,
  scanTool,
  scanAllTool,
  sessionHandshakeTool,
  alertsListTool,
  alertsAckTool,
  skeletonTool,
  skeletonCandidateTool,
  candidateLeaseTool,
  skeletonEditTool,
  skeletonRatifyTool,
  daemonStartTool,
  daemonStopTool,
  daemonStatusTool,
  changesTool,
];

export const LATE_TOOL_NAMES = TOOLS.filter((t) => t.late).map((t) => t.name);
