/**
 * How a tool is listed (tools/list): its JSON Schema input, its output schema where it declares
 * one, and its annotations. Made once per process per tool.
 */
import { zodToJsonSchema } from 'zod-to-json-schema';
import type { ToolAnnotations, ToolDef } from '../dispatch/index.js';

type JsonObjectSchema = { type: 'object'; [key: string]: unknown };

export interface ListedTool {
  name: string;
  description: string;
  inputSchema: JsonObjectSchema;
  outputSchema?: JsonObjectSchema;
  annotations?: ToolAnnotations;
}

const cache = new WeakMap<ToolDef, ListedTool>();

export function listedTool(tool: ToolDef): ListedTool {
  let listed = cache.get(tool);
  if (!listed) {
    listed = { name: tool.name, description: tool.description, inputSchema: jsonSchemaOf(tool.input) };
    if (tool.output) listed.outputSchema = jsonSchemaOf(tool.output);
    if (tool.annotations) listed.annotations = tool.annotations;
    cache.set(tool, listed);
  }
  return listed;
}

function jsonSchemaOf(schema: NonNullable<ToolDef['output']>): JsonObjectSchema {
  const { $schema: _ignored, ...json } = zodToJsonSchema(schema, { target: 'jsonSchema7', $refStrategy: 'none' }) as Record<string, unknown>;
  return { ...json, type: 'object' };
}
