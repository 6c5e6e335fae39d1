/**
 * A dispatch result as an MCP CallToolResult: one text item holding compact JSON (what a model
 * reads: no indentation, every character counted against its budget), plus the same value as
 * `structuredContent` when the tool declares an output schema and the call succeeded.
 */
import type { ToolDef, ToolResult } from '../dispatch/index.js';

export interface McpToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export function toMcpToolResult(tool: ToolDef | undefined, result: ToolResult): McpToolResult {
  const out: McpToolResult = { content: [{ type: 'text', text: JSON.stringify(result.value) }] };
  if (result.isError) out.isError = true;
  else if (tool?.output && typeof result.value === 'object' && result.value !== null) {
    out.structuredContent = result.value as Record<string, unknown>;
  }
  return out;
}
