/**
 * `refs` and `impact`: who uses a name, and what may break if a file or a name changes. Both
 * are recall verbs: they read the map through the session's reader and never tick (the
 * answer's freshness says how current the map is, and names the returned files that wait to be
 * read again). The answers are built in reference-answers.ts, which the CLI shares.
 */
import { z } from 'zod';
import { defineTool } from '../dispatch/index.js';
import { InvalidArgumentError } from '../errors.js';
import { freshnessOf, narrowFreshness } from './freshness.js';
import { READ_ONLY, impactAnswerSchema, refsAnswerSchema } from './answer-schemas.js';
import { packWithin, stampTokens } from './budget.js';
import { DEFAULT_IMPACT_DEPTH, MAX_IMPACT_DEPTH, impactAnswer, refsAnswer } from './reference-answers.js';

export const DEFAULT_REFS_BUDGET_TOKENS = 4000;
export const DEFAULT_REFS_LIMIT = 50;

const KINDS = ['call', 'type', 'new', 'inherit', 'decorator', 'member', 'other'] as const;
const identifier = z
  .string()
  .min(1, 'name must not be empty')
  .max(200, 'name must be at most 200 characters')
  .refine((s) => /^[\p{L}\p{N}_$]+$/u.test(s), 'name must be one identifier (letters, digits, _ or $), like parseConfig');

export const refsTool = defineTool({
  name: 'refs',
  output: refsAnswerSchema,
  annotations: READ_ONLY,
  description:
    'Who uses a name: its definitions, then every use by file (line, enclosing definition, kind), within a token budget. `path` picks one definition.',
  traffic: 'recall',
  input: z.object({
    name: identifier,
    path: z.string().min(1).max(4096).optional(),
    kind: z.enum(KINDS).optional(),
    limit: z.number().int().min(1).max(500).default(DEFAULT_REFS_LIMIT),
    budget_tokens: z.number().int().min(100).max(200_000).default(DEFAULT_REFS_BUDGET_TOKENS),
  }).strict(),
  handler: async ({ name, path, kind, limit, budget_tokens }, { session }) => {
    const brain = session.requireBrain();
    const rel = path === undefined ? undefined : session.resolvePath(brain, path).rel;
    const { definitions, references, ...head } = refsAnswer(brain.reader, name, { path: rel, kind, limit });
    const paths = [...definitions.map((d) => d.path as string), ...references.map((r) => r.path as string)];
    const freshness = freshnessOf(brain, paths);
    const { value } = packWithin({ ...head, freshness }, [{ field: 'definitions', items: definitions }, { field: 'references', items: references }], budget_tokens);
    const sent = [...(value.definitions as { path: string }[]), ...(value.references as { path: string }[])].map((x) => x.path);
    value.freshness = narrowFreshness(freshness, sent);
    stampTokens(value);
    return reorder(value, ['name', 'definitions', 'references']);
  },
});

export const impactTool = defineTool({
  name: 'impact',
  output: impactAnswerSchema,
  annotations: READ_ONLY,
  description:
    'What may break if a file or name changes: files using or importing it, to `depth` (default 2), with distance and room, and the tests to run.',
  traffic: 'recall',
  input: z.object({
    path: z.string().min(1).max(4096).optional(),
    name: identifier.optional(),
    depth: z.number({ invalid_type_error: 'depth must be a whole number from 1 to 4' }).int('depth must be a whole number from 1 to 4')
      .min(1, `depth must be from 1 to ${MAX_IMPACT_DEPTH}`).max(MAX_IMPACT_DEPTH, `depth must be from 1 to ${MAX_IMPACT_DEPTH} (each step is the importers of the last)`)
      .default(DEFAULT_IMPACT_DEPTH),
  }).strict(),
  handler: async ({ path, name, depth }, { session }) => {
    if ((path === undefined) === (name === undefined)) throw new InvalidArgumentError('impact takes one of path (a file) or name (a definition), not both or neither');
    const brain = session.requireBrain();
    const target = path !== undefined ? { path: session.resolvePath(brain, path).rel } : { name: name! };
    const answer = impactAnswer(brain.reader, target, depth);
    const files = answer.files as { path: string }[];
    return { ...answer, freshness: freshnessOf(brain, files.map((f) => f.path)) };
  },
});

/** The same fields with `first` leading, so a reader meets the name and its definitions first. */
function reorder(value: Record<string, unknown>, first: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of first) if (k in value) out[k] = value[k];
  for (const [k, v] of Object.entries(value)) if (!(k in out)) out[k] = v;
  return out;
}
