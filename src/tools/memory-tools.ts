/** Memory verbs: remember and forget notes. They tick (an armed brain advances on traffic). */
import { z } from 'zod';
import { defineTool } from '../dispatch/index.js';
import { InvalidArgumentError } from '../errors.js';
import { tieNote } from './note-ties.js';
import { listRoots } from '../store/index.js';

/** Longest note, in characters: a note is a memory, not a document store. */
export const MAX_NOTE_CHARS = 16_000;
/** Most files, and most definitions, one note is tied to. */
const MAX_TIES = 64;
/** Longest definition name accepted (a name, not a text). */
const MAX_NAME_CHARS = 256;

export const rememberTool = defineTool({
  name: 'remember',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  description: 'Keep a note for later sessions (tags, pinned, tied to files or definitions {path,name}); returns its id. A tied note is marked `stale` once its files change.',
  traffic: 'tick',
  input: z.object({
    text: z.string().min(1, 'text must not be empty').max(MAX_NOTE_CHARS, `text must be at most ${MAX_NOTE_CHARS} characters`),
    tags: z.array(z.string().min(1).max(64)).max(32).optional(),
    files: z.array(z.string().min(1).max(4096)).max(MAX_TIES).optional(),
    definitions: z.array(z.object({
      path: z.string().min(1).max(4096),
      name: z.string().min(1).max(MAX_NAME_CHARS),
    }).strict()).max(MAX_TIES).optional(),
    pinned: z.boolean().optional(),
    scope: z.enum(['private', 'team']).optional().describe('private (default): this brain only; team: a file in the notes folder (.gardener/notes/ by default) to commit (docs/notes.md)'),
  }).strict(),
  handler: async ({ text, tags, files, definitions, pinned, scope }, { session, signal }) => {
    const brain = session.requireBrain();
    // Taken before the files are read: whatever the map reads after this is news to the note.
    const now = Date.now();
    const tied = await tieNote(brain, session, files ?? [], definitions ?? [], signal);
    const note = { text, tags, files: tied.files, pinned, ties: tied.ties, behind: tied.behind };
    if (scope === 'team') {
      // The note's file goes to its ties' root (a team note lives in one root), else the first root.
      const rootId = tied.ties[0]?.rootId ?? listRoots(brain.reader)[0]!.id;
      const { id, file } = await brain.writer.addTeamNote(note, rootId, now);
      return { id, pinned: pinned ?? false, scope: 'team', file };
    }
    const id = await brain.writer.addNote(note, now);
    return { id, pinned: pinned ?? false };
  },
});

export const forgetTool = defineTool({
  name: 'forget',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  description: 'Delete a note by id (a team note: its file too; commit the removal).',
  traffic: 'tick',
  input: z.object({ id: z.number().int().positive() }).strict(),
  handler: async ({ id }, { session }) => {
    const brain = session.requireBrain();
    const out = await brain.writer.forgetNote(id);
    if (!out.removed) throw new InvalidArgumentError(`no note with id ${id}: seek with scope "notes" lists the ids`);
    return { id, forgotten: true, ...(out.file === undefined ? {} : { file: out.file }) };
  },
});
