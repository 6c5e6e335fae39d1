/**
 * What a tool is: a name, a short description, a zod input schema, its traffic class, and a
 * handler. The traffic class decides, in one place (traffic.ts), whether a call advances the
 * armed brain's freshness:
 *   recall — reads the map and never ticks (seek, north, boot_memory, delegate)
 *   skip   — never ticks (daemon_*, alerts_*, session_handshake)
 *   heavy  — re-ingests anyway, so skips the inline tick (ingest, scan, scan_all)
 *   tick   — every other verb schedules a tick for an armed brain, without waiting for it
 */
import type { z } from 'zod';
import type { Session } from '../session/session.js';

export type TrafficClass = 'recall' | 'skip' | 'heavy' | 'tick';

export interface ToolContext {
  session: Session;
  /** Aborted when the caller cancels the request. */
  signal: AbortSignal;
  /** Reports progress when the caller asked for it (MCP progress token); otherwise a no-op. */
  progress: (progress: number, total?: number, message?: string) => void;
}

export interface ToolResult {
  /** The JSON-able answer; transports render it (MCP: one text item holding the JSON). */
  value: unknown;
  isError?: boolean;
}

/** MCP tool annotations: hints for hosts (which calls to confirm, which to retry). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDef<S extends z.ZodTypeAny = z.ZodTypeAny> {
  name: string;
  description: string;
  input: S;
  /**
   * A shorter JSON Schema to list instead of the one made from `input` (a union of many shapes
   * costs every session its size); `input` still validates every call.
   */
  listedInput?: { type: 'object'; [key: string]: unknown };
  /** The shape of a successful answer; MCP lists it as `outputSchema` and sends `structuredContent`. */
  output?: z.ZodTypeAny;
  annotations?: ToolAnnotations;
  traffic: TrafficClass;
  /** Listed only once the folder probe says the session folder is watched (late arming). */
  late?: 'watched' | 'git';
  handler: (args: z.infer<S>, ctx: ToolContext) => Promise<unknown>;
}

export function defineTool<S extends z.ZodTypeAny>(def: ToolDef<S>): ToolDef {
  return def as unknown as ToolDef;
}
