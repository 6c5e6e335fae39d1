export { dispatchTool } from './dispatch-tool.js';
export { defineTool, type ToolDef, type ToolAnnotations, type ToolContext, type ToolResult, type TrafficClass } from './tool.js';
export { ticksOnTraffic } from './traffic.js';
export { callsInFlight, CallsInFlight, QUIET_WAIT_MS } from './calls-in-flight.js';
