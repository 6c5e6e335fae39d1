/** The JSON Schema of each tool's zod input, made once per process for tools/list. */
import { zodToJsonSchema } from 'zod-to-json-schema';
import type { ToolDef } from '../dispatch/index.js';

export interface ListedTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
}

const cache = new WeakMap<ToolDef, ListedTool>();

export function listedTool(tool: ToolDef): ListedTool {
  let listed = cache.get(tool);
  if (!listed) {
    const { $schema: _ignored, ...schema } = zodToJsonSchema(tool.input, { target: 'jsonSchema7', $refStrategy: 'none' }) as Record<string, unknown>;
    listed = { name: tool.name, description: tool.description, inputSchema: { ...schema, type: 'object' } };
    cache.set(tool, listed);
  }
  return listed;
}
