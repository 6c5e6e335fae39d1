/**
 * How a tool is listed (tools/list): its JSON Schema input, its output schema where it declares
 * one, and its annotations. Made once per process per tool.
 *
 * No listed schema spells a union of types as a `type` array: zod-to-json-schema writes a
 * nullable primitive as `type: ["string", "null"]`, legal JSON Schema but not portable, since
 * hosts that map tool schemas onto a single-`type` dialect (the OpenAPI subset of Gemini's
 * function declarations) may reject the tool or drop the constraint, and the MCP Inspector's
 * `--strict` warns about it. Each such node becomes `anyOf` branches of one `type` each (the
 * form the Inspector suggests), which accepts exactly the same values, so the SDK's check of
 * `structuredContent` against `outputSchema` still holds.
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

/**
 * What the whole list (name + description + input + output schemas of every tool) may cost a
 * session, in characters: every session pays it before it asks anything. 22,824 before it was
 * bounded (issue 28); a test holds it.
 */
export const MAX_TOOL_LIST_CHARS = 12_000;

const cache = new WeakMap<ToolDef, ListedTool>();

export function listedTool(tool: ToolDef): ListedTool {
  let listed = cache.get(tool);
  if (!listed) {
    listed = { name: tool.name, description: tool.description, inputSchema: withoutClosedObjects(tool.listedInput ?? jsonSchemaOf(tool.input)) };
    if (tool.output) listed.outputSchema = leanOutput(jsonSchemaOf(tool.output)) as JsonObjectSchema;
    if (tool.annotations) listed.annotations = tool.annotations;
    cache.set(tool, listed);
  }
  return listed;
}

function jsonSchemaOf(schema: NonNullable<ToolDef['output']>): JsonObjectSchema {
  const { $schema: _ignored, ...json } = zodToJsonSchema(schema, { target: 'jsonSchema7', $refStrategy: 'none' }) as Record<string, unknown>;
  return { ...(withoutTypeArrays(json) as Record<string, unknown>), type: 'object' };
}

/**
 * An input schema as listed, without `additionalProperties: false`: the dispatcher refuses an
 * unknown field anyway, naming it, and the keyword cost every session 28 characters per object.
 */
function withoutClosedObjects<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(withoutClosedObjects) as T;
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' && value === false) continue;
    out[key] = DATA_KEYWORDS.has(key) ? value : withoutClosedObjects(value);
  }
  return out as T;
}

/** Below this depth an output schema names only `type`: the top-level fields and their items are what a host checks. */
const OUTPUT_SCHEMA_DEPTH = 2;

/**
 * An output schema as listed: no descriptions (the tool's description and docs/tools.md say what
 * the fields mean), no `additionalProperties: true` (the default), and nested objects and arrays
 * below OUTPUT_SCHEMA_DEPTH cut to their type. Every answer that fit the full schema still fits.
 */
export function leanOutput(schema: unknown, depth = 0): unknown {
  if (Array.isArray(schema)) return schema.map((s) => leanOutput(s, depth));
  if (!schema || typeof schema !== 'object') return schema;
  const node = schema as Record<string, unknown>;
  if (depth >= OUTPUT_SCHEMA_DEPTH && (node.type === 'object' || node.type === 'array')) return { type: node.type };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'description' || (key === 'additionalProperties' && value === true)) continue;
    if (key === 'required' && depth > 0) continue;
    if (key === 'properties') out[key] = Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, leanOutput(v, depth + 1)]));
    else if (key === 'items') out[key] = leanOutput(value, depth);
    else out[key] = DATA_KEYWORDS.has(key) ? value : leanOutput(value, depth);
  }
  return out;
}

/** Keywords whose values are data, not subschemas: a `type` key inside them is not a keyword. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);
/** Keywords that describe a node rather than constrain it: they stay on the node, outside the branches. */
const ANNOTATION_KEYWORDS = new Set(['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment']);

/**
 * A copy of `schema` in which every `type: [A, B, ...]` node is `anyOf: [{type: A, ...}, {type: B, ...}]`.
 * Exact: a value fits the node when its type is one of the list and it meets the node's other
 * constraints C, which is the same as fitting one branch `{type: T, ...C}`. A branch leaves
 * out the keywords that only constrain another type (they are vacuous for its values).
 */
export function withoutTypeArrays(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutTypeArrays);
  if (!schema || typeof schema !== 'object') return schema;
  const node: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) node[key] = DATA_KEYWORDS.has(key) ? value : withoutTypeArrays(value);
  if (!Array.isArray(node.type)) return node;
  const types = node.type as string[];
  if (types.length === 1) return { ...node, type: types[0] };
  const outer: Record<string, unknown> = {};
  const constraints: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type') continue;
    if (ANNOTATION_KEYWORDS.has(key)) outer[key] = value;
    else constraints[key] = value;
  }
  const branch = (t: string) => {
    const own = (key: string) => {
      const only = KEYWORD_TYPE[key];
      return only === undefined || only === t || (only === 'number' && t === 'integer');
    };
    return { type: t, ...Object.fromEntries(Object.entries(constraints).filter(([k]) => own(k))) };
  };
  // A node's own anyOf (a constraint, not an annotation) went into every branch, so this one replaces nothing.
  return { ...outer, anyOf: types.map(branch) };
}

/** Keywords that constrain only values of one type; every other keyword applies to all. */
const KEYWORD_TYPE: Record<string, 'string' | 'number' | 'array' | 'object'> = Object.fromEntries([
  ...['minLength', 'maxLength', 'pattern', 'format', 'contentEncoding', 'contentMediaType'].map((k) => [k, 'string']),
  ...['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'].map((k) => [k, 'number']),
  ...['items', 'prefixItems', 'additionalItems', 'minItems', 'maxItems', 'uniqueItems', 'contains'].map((k) => [k, 'array']),
  ...['properties', 'patternProperties', 'additionalProperties', 'required', 'minProperties', 'maxProperties', 'propertyNames', 'dependencies'].map((k) => [k, 'object']),
]);
