/** Memory verbs: remember and forget notes. They tick (an armed brain advances on traffic). */
import { z } from 'zod';
import { defineTool } from '../dispatch/index.js';
import { InvalidArgumentError } from '../errors.js';

/** Longest note, in characters: a note is a memory, not a document store. */
export const MAX_NOTE_CHARS = 16_000;

export const rememberTool = defineTool({
  name: 'remember',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  description: 'Keep a note for later sessions (optionally tagged, tied to files, pinned). Returns its id.',
  traffic: 'tick',
  input: z.object({
    text: z.string().min(1, 'text must not be empty').max(MAX_NOTE_CHARS, `text must be at most ${MAX_NOTE_CHARS} characters`),
    tags: z.array(z.string().min(1).max(64)).max(32).optional(),
    files: z.array(z.string().min(1)).max(64).optional(),
    pinned: z.boolean().optional(),
  }).strict(),
  handler: async ({ text, tags, files, pinned }, { session }) => {
    const brain = session.requireBrain();
    const rels = (files ?? []).map((f) => session.resolvePath(brain, f).rel);
    const id = await brain.writer.addNote({ text, tags, files: rels, pinned }, Date.now());
    return { id, pinned: pinned ?? false };
  },
});

export const forgetTool = defineTool({
  name: 'forget',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  description: 'Delete a note by id.',
  traffic: 'tick',
  input: z.object({ id: z.number().int().positive() }).strict(),
  handler: async ({ id }, { session }) => {
    const brain = session.requireBrain();
    if (!(await brain.writer.removeNote(id))) throw new InvalidArgumentError(`no note with id ${id}: seek with scope "notes" lists the ids`);
    return { id, forgotten: true };
  },
});
