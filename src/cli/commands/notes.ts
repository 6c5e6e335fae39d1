/**
 * `gardener notes` (list with scope, ties and stale marks), `notes share ID`, `notes unshare ID`,
 * `gardener forget ID`: the brain's notes from a terminal (docs/notes.md). Writes go through the
 * brain's one store writer, as the tools' do.
 */
import { InvalidArgumentError } from '../../errors.js';
import { bootNotes, countNotes, listRoots } from '../../store/index.js';
import { teamOf, withMarks } from '../../tools/note-marks.js';
import { printJson, printLine } from '../output.js';
import { withBrains } from './with-brains.js';

const noteId = (raw: string): number => {
  const id = Number(raw);
  if (!Number.isInteger(id) || id <= 0) throw new InvalidArgumentError(`ID must be a note id (a positive integer), got "${raw}"`);
  return id;
};

export async function listNotes(opts: { root: string; json?: boolean }): Promise<void> {
  await withBrains(async (brains) => {
    const brain = brains.resolve(opts.root);
    const db = brain.reader;
    const notes = withMarks(db, bootNotes(db, countNotes(db)).map((n) => ({ id: n.id, text: n.text, tags: n.tags, files: n.files, pinned: n.pinned, scope: n.scope ?? 'private', ...teamOf(n) })));
    if (opts.json) return printJson(notes);
    if (notes.length === 0) return printLine('no notes');
    for (const n of notes) {
      const ties = [...n.files, ...(n.definitions ?? []).map((d) => `${d.path}#${d.name}`)];
      printLine(`${n.id}  ${n.scope}${n.file ? ` ${n.file}` : ''}${n.pinned ? '  pinned' : ''}${n.stale ? `  STALE (${n.stale.map((s) => s.path).join(', ')})` : ''}`);
      printLine(`    ${n.text.split('\n')[0]}`);
      if (ties.length > 0) printLine(`    ties: ${ties.join(', ')}`);
    }
  });
}

export async function shareNote(raw: string, opts: { root: string; json?: boolean }): Promise<void> {
  const id = noteId(raw);
  await withBrains(async (brains) => {
    const brain = brains.resolve(opts.root);
    const out = await brain.writer.shareNote(id, listRoots(brain.reader)[0]!.id, Date.now());
    if (opts.json) return printJson(out);
    printLine(`note ${id} is a team note: ${out.file} (commit it)`);
  });
}

export async function unshareNote(raw: string, opts: { root: string; json?: boolean }): Promise<void> {
  const id = noteId(raw);
  await withBrains(async (brains) => {
    const out = await brains.resolve(opts.root).writer.unshareNote(id);
    if (opts.json) return printJson(out);
    printLine(`note ${id} is private again; ${out.file} removed (commit the removal)`);
  });
}

export async function forgetNote(raw: string, opts: { root: string; json?: boolean }): Promise<void> {
  const id = noteId(raw);
  await withBrains(async (brains) => {
    const out = await brains.resolve(opts.root).writer.forgetNote(id);
    if (!out.removed) throw new InvalidArgumentError(`no note with id ${id}: \`gardener notes\` lists the ids`);
    if (opts.json) return printJson({ id, forgotten: true, ...(out.file ? { file: out.file } : {}) });
    printLine(`note ${id} forgotten${out.file ? `; ${out.file} removed (commit the removal)` : ''}`);
  });
}
