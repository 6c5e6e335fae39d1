/**
 * Recall verbs: they read the map and never tick. Every result carries its freshness.
 */
import { z } from 'zod';
import { MAX_QUERY_CHARS, MAX_TASK_CHARS } from './input-bounds.js';
import { defineTool } from '../dispatch/index.js';
import {
  searchNotes, bootNotes, countNotes, languageCounts, topFolders, listRoots, readStatus,
} from '../store/index.js';
import { freshnessOf, narrowFreshness } from './freshness.js';
import { READ_ONLY, bootMemoryAnswer, delegateAnswer, northAnswer, seekAnswer } from './answer-schemas.js';
import { CHARS_PER_TOKEN, packWithin, stampTokens } from './budget.js';
import { analyseQuery, seek, taskFiles, withRooms } from '../ranking/index.js';
import { northRooms, roomsOfPaths } from '../skeleton/index.js';
import { noteFiles, teamOf, withMarks } from './note-marks.js';
import { historyOfRoots } from '../history/index.js';

/** Default budgets, in tokens: enough for a useful pack, small beside a model's context. */
export const DEFAULT_BOOT_BUDGET_TOKENS = 2000;
export const DEFAULT_DELEGATE_BUDGET_TOKENS = 4000;

const budget = z.number().int().min(100).max(200_000);
/** Files ranked for a delegate pack before the budget cuts the list: past twenty an agent no longer reads it. */
const DELEGATE_CANDIDATE_FILES = 20;
/** Notes read for boot_memory before the budget cuts the list. */
const BOOT_NOTES = 500;
/** A text with something to search for: whitespace alone is refused with a reason. */
const someText = (what: string, max: number) => z.string().max(max).refine((s) => s.trim().length > 0, `${what} must not be empty or only whitespace`);
/** Why a recall answer came back empty, in a few words the agent can act on. */
const NO_FILE_MATCHES = 'no mapped file holds any word of the text: try names from the code, or north for the layout';

export const seekTool = defineTool({
  name: 'seek',
  output: seekAnswer,
  annotations: READ_ONLY,
  description: 'Search the code map (symbol definitions first, then full text) and/or notes.',
  traffic: 'recall',
  input: z.object({
    query: someText('query', MAX_QUERY_CHARS),
    scope: z.enum(['code', 'notes', 'all']).default('all'),
    limit: z.number().int().min(1).max(200).default(20),
  }).strict(),
  handler: async ({ query, scope, limit }, { session }) => {
    const brain = session.requireBrain();
    const db = brain.reader;
    // The one seek (src/ranking/seek.ts): the CLI and the library rank through it too.
    const code = scope === 'notes' ? [] : seek(db, query, { limit }).map(({ rootId: _root, ...h }) => h);
    const notes = scope === 'code' ? [] : withMarks(db, searchNotes(db, query, limit).map((n) => ({ id: n.id, text: n.text, tags: n.tags, files: n.files, pinned: n.pinned, score: round(n.score), ...teamOf(n) })));
    // Why nothing matched, read again only then (an issue-length query costs its clues to read).
    const why = code.length + notes.length > 0 ? null : analyseQuery(query).empty ?? NO_FILE_MATCHES;
    return { code, notes, ...(why ? { why } : {}), freshness: freshnessOf(brain, [...code.map((c) => c.path), ...notes.flatMap(noteFiles)]) };
  },
});

export const northTool = defineTool({
  name: 'north',
  output: northAnswer,
  annotations: READ_ONLY,
  description: 'Orientation: roots, languages, top folders with their most-imported files, ratified rooms, freshness.',
  traffic: 'recall',
  input: z.object({}).strict(),
  handler: async (_args, { session }) => {
    const brain = session.requireBrain();
    const db = brain.reader;
    const stats = readStatus(db);
    const folders = topFolders(db, 12, 3);
    return {
      brain: brain.id,
      roots: historyOfRoots(db, listRoots(db).map((r) => ({ id: r.id, path: r.path, backend: r.backend }))),
      files: stats.files,
      symbols: stats.symbols,
      languages: languageCounts(db).slice(0, 12),
      folders,
      ...ratifiedRooms(db),
      freshness: freshnessOf(brain, folders.flatMap((f) => f.mostImported.map((m) => m.path))),
    };
  },
});

export const bootMemoryTool = defineTool({
  name: 'boot_memory',
  output: bootMemoryAnswer,
  annotations: READ_ONLY,
  description: 'Pinned and recent notes plus a brain summary, within a token budget.',
  traffic: 'recall',
  input: z.object({ budget_tokens: budget.default(DEFAULT_BOOT_BUDGET_TOKENS) }).strict(),
  handler: async ({ budget_tokens }, { session }) => {
    const brain = session.requireBrain();
    const db = brain.reader;
    const stats = readStatus(db);
    const summary = {
      brain: brain.id,
      roots: brain.roots,
      files: stats.files,
      symbols: stats.symbols,
      notes: countNotes(db),
      languages: languageCounts(db).slice(0, 5),
    };
    const notes = withMarks(db, bootNotes(db, BOOT_NOTES).map((n) => ({ id: n.id, text: n.text, tags: n.tags, files: n.files, pinned: n.pinned, created_at: new Date(n.createdAt).toISOString(), ...teamOf(n) })));
    const freshness = freshnessOf(brain, notes.flatMap(noteFiles));
    const { value } = packWithin({ summary, notes: [], freshness }, [{ field: 'notes', items: notes }], budget_tokens);
    // Name only the pending files of the notes that were packed: the answer can only shrink.
    value.freshness = narrowFreshness(freshness, (value.notes as typeof notes).flatMap(noteFiles));
    stampTokens(value);
    return value;
  },
});

export const delegateTool = defineTool({
  name: 'delegate',
  output: delegateAnswer,
  annotations: READ_ONLY,
  description: 'A context pack for a sub-task: the files, symbols and notes that rank highest for it, within a token budget. Paste an issue report whole: its tracebacks, quoted names and error messages are read as clues.',
  traffic: 'recall',
  input: z.object({ task: someText('task', MAX_TASK_CHARS), budget_tokens: budget.default(DEFAULT_DELEGATE_BUDGET_TOKENS) }).strict(),
  handler: async ({ task, budget_tokens }, { session }) => {
    const brain = session.requireBrain();
    const db = brain.reader;
    const q = analyseQuery(task);
    const notes = q.empty ? [] : withMarks(db, searchNotes(db, task, 20).map((n) => ({ id: n.id, text: n.text, tags: n.tags, files: n.files, ...teamOf(n) })));
    const ranked = q.empty ? [] : taskFiles(db, q, DELEGATE_CANDIDATE_FILES, notes.flatMap(noteFiles));
    const files = withRooms(ranked, roomsOfPaths(db, ranked.map((f) => f.path)), task);
    const why = files.length > 0 ? null : q.empty ?? NO_FILE_MATCHES;
    const freshness = freshnessOf(brain, [...files.map((f) => f.path), ...notes.flatMap(noteFiles)]);
    // Notes get at most a third of the budget; files fill the rest.
    const noteShare = Math.floor((budget_tokens * CHARS_PER_TOKEN) / 3);
    const { value } = packWithin(
      { files: [], notes: [], ...(why ? { why } : {}), freshness },
      [{ field: 'notes', items: notes, maxChars: noteShare }, { field: 'files', items: files }],
      budget_tokens,
    );
    // Name only the pending files that were packed: the answer can only shrink.
    value.freshness = narrowFreshness(freshness, [...(value.files as { path: string }[]).map((f) => f.path), ...(value.notes as typeof notes).flatMap(noteFiles)]);
    stampTokens(value);
    return value;
  },
});

const round = (n: number) => Math.round(n * 1000) / 1000;

/** The ratified skeleton's rooms for `north`, when there is one (src/skeleton/). */
function ratifiedRooms(db: Parameters<typeof northRooms>[0]): { rooms?: NonNullable<ReturnType<typeof northRooms>> } {
  const rooms = northRooms(db);
  return rooms ? { rooms } : {};
}
