/**
 * The shapes of the recall verbs' answers, listed as MCP `outputSchema`s so hosts can read
 * `structuredContent` without parsing text. They name the fields an agent relies on and allow
 * more (passthrough): a new field is not a breaking change for a client that validates.
 */
import { z } from 'zod';

const isoOrNull = z.string().nullable();

// The rest of freshness (last_tick_at, armed, note) passes through: docs/tools.md names it, and
// every session pays for each field listed here six times over.
export const freshnessSchema = z.object({
  fresh_as_of: isoOrNull,
  backlog: z.number().int(),
  pending: z.array(z.string()),
}).passthrough();

const symbol = z.object({ name: z.string(), kind: z.string(), line: z.number().int(), exported: z.boolean() }).passthrough();
const staleMark = z.object({
  path: z.string(),
  name: z.string().optional().describe('the tied definition'),
  changed_at: z.string().optional().describe('when the map saw the file change'),
  removed: z.literal(true).optional(),
  gone: z.literal(true).optional(),
  moved_to: z.string().optional().describe('path:line where the definition is now'),
}).passthrough();
const note = z.object({
  id: z.number().int(),
  text: z.string(),
  tags: z.array(z.string()),
  files: z.array(z.string()),
  definitions: z.array(z.object({ path: z.string(), name: z.string() }).passthrough()).optional(),
  stale: z.array(staleMark).optional().describe('only on a note whose tied files changed since it was written'),
}).passthrough();
const budgeted = { truncated: z.boolean(), tokens_used: z.number().int() };

/** Said when an answer is empty: why (only stop words, nothing matches). */
const why = z.string().optional();

export const seekAnswer = z.object({
  why,
  code: z.array(z.object({ path: z.string(), line: z.number().int(), symbol: z.string().nullable(), kind: z.string().nullable(), score: z.number() }).passthrough()),
  notes: z.array(note),
  freshness: freshnessSchema,
}).passthrough();

export const northAnswer = z.object({
  brain: z.string(),
  roots: z.array(z.object({ path: z.string() }).passthrough()),
  files: z.number().int(),
  symbols: z.number().int(),
  languages: z.array(z.object({ language: z.string(), files: z.number().int() }).passthrough()),
  folders: z.array(z.object({ folder: z.string(), files: z.number().int() }).passthrough()),
  freshness: freshnessSchema,
}).passthrough();

export const bootMemoryAnswer = z.object({
  summary: z.object({ brain: z.string(), files: z.number().int(), symbols: z.number().int(), notes: z.number().int() }).passthrough(),
  notes: z.array(note),
  ...budgeted,
  freshness: freshnessSchema,
}).passthrough();

export const delegateAnswer = z.object({
  why,
  files: z.array(z.object({ path: z.string(), score: z.number(), lines: z.array(z.number().int()), symbols: z.array(symbol), room: z.string().optional().describe("the file's ratified room"), clues: z.object({ path: z.string().optional().describe('the path the text named that this file ends with'), defines: z.array(z.string()).optional().describe('names the text quotes that this file defines'), message: z.literal(true).optional().describe('it holds a message the text quotes, word for word') }).optional().describe('what of an issue-like text this file matched') }).passthrough()),
  notes: z.array(note),
  ...budgeted,
  freshness: freshnessSchema,
}).passthrough();

export const refsAnswerSchema = z.object({
  name: z.string(),
  why,
  definitions: z.array(z.object({ path: z.string(), line: z.number().int(), kind: z.string() }).passthrough()),
  references: z.array(z.object({
    path: z.string(),
    room: z.string().optional(),
    uses: z.array(z.object({ line: z.number().int(), in: z.string().optional().describe('the enclosing definition'), kind: z.string() }).passthrough()),
  }).passthrough()),
  ...budgeted,
  freshness: freshnessSchema,
}).passthrough();

export const impactAnswerSchema = z.object({
  why,
  depth: z.number().int(),
  total: z.number().int(),
  files: z.array(z.object({ path: z.string(), distance: z.number().int(), via: z.string(), room: z.string().optional(), test: z.boolean().optional() }).passthrough()),
  tests: z.array(z.string()),
  freshness: freshnessSchema,
}).passthrough();

/** Hints for the verbs that only read the map. */
export const READ_ONLY = Object.freeze({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
