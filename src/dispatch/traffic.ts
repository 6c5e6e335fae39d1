/**
 * The traffic tick: the one rule for whether a tool call advances freshness. It lives in the
 * dispatch seam, so every transport (MCP stdio, MCP HTTP, REST) advances freshness the same way.
 * The tick is scheduled, never awaited: a call never waits for it and never fails because of it.
 */
import type { TrafficClass } from './tool.js';

/** True when a call of this class should schedule a tick of an armed brain. */
export function ticksOnTraffic(traffic: TrafficClass): boolean {
  return traffic === 'tick';
}
