/**
 * `gardener skeleton [dir]`, `gardener skeleton candidate [dir]`, `gardener skeleton check [dir]`.
 *
 * `check` is for CI and pre-commit hooks (like dependency-cruiser or ArchUnit): it ticks so the
 * map matches the folder, recomputes the ratified skeleton's derived data now, names every
 * import that breaks a `may_use` rule and every file in no room, and exits 1 if there is any.
 */
import { NoSkeletonError } from '../../errors.js';
import { Vigil } from '../../vigil/index.js';
import { deriveSkeleton, readSkeleton, skeletonView, unrefused } from '../../skeleton/index.js';
import type { Brain } from '../../brain/index.js';
import { printJson, printLine } from '../output.js';
import { withBrains } from './with-brains.js';

type View = ReturnType<typeof skeletonView>;

export async function showSkeleton(dir: string, opts: { json?: boolean }): Promise<void> {
  await withBrains(async (brains) => {
    const brain = brains.resolve(dir);
    const view = skeletonView(brain.reader);
    if (opts.json) return printJson(view);
    printView(brain, view);
  });
}

export async function candidateSkeleton(dir: string, opts: { json?: boolean }): Promise<void> {
  await withBrains(async (brains) => {
    const brain = brains.resolve(dir);
    await tickQuietly(brain);
    unrefused(await brain.writer.skeletonPropose(Date.now(), 'code'));
    const view = skeletonView(brain.reader, 'candidate');
    if (opts.json) return printJson(view);
    printView(brain, view);
    printLine('edit it with the skeleton_edit tool, then ratify it with skeleton_ratify');
  });
}

export async function checkSkeleton(dir: string, opts: { json?: boolean }): Promise<void> {
  await withBrains(async (brains) => {
    const brain = brains.resolve(dir);
    await tickQuietly(brain);
    const ratified = readSkeleton(brain.reader, 'ratified');
    if (!ratified) throw new NoSkeletonError(brain.id);
    const d = deriveSkeleton(brain.reader, ratified.rooms);
    const ok = d.violations.length === 0 && d.unroomed.length === 0;
    if (!ok) process.exitCode = 1;
    if (opts.json) {
      return printJson({ ok, files: d.files, violations: d.violations, unroomed: d.unroomed, empty_globs: d.empty_globs });
    }
    for (const v of d.violations) printLine(`${v.file}:${v.line}: imports ${v.module} (${v.target}): room ${v.from_room} may not use room ${v.to_room}`);
    for (const p of d.unroomed) printLine(`${p}: in no room`);
    for (const g of d.empty_globs) printLine(`note: glob ${g.glob} of room ${g.room} matches no file`);
    printLine(ok
      ? `skeleton check: ${d.files} files in ${ratified.rooms.length} rooms, no import breaks a may_use rule`
      : `skeleton check failed: ${d.violations.length} import(s) break a may_use rule, ${d.unroomed.length} file(s) in no room`);
  });
}

/** Brings the map up to date first; a failed tick is reported and the check reads the map as it is. */
async function tickQuietly(brain: Brain): Promise<void> {
  const outcome = await new Vigil(brain, { log: () => {} }).request();
  if (!outcome.ok) process.stderr.write(`gardener: the tick before reading failed (recorded as an alert): ${outcome.error.message}\n`);
}

function printView(brain: Brain, view: View): void {
  if (view.state === 'none') return printLine(`brain ${brain.id}: ${view.hint}`);
  printLine(`brain ${brain.id}: ${view.state} skeleton, store_version ${view.store_version}, ${view.files} files, ${Math.round(view.inside_share * 100)}% of imports stay inside a room`);
  for (const r of view.rooms) {
    printLine(`  ${r.name} (${r.files} files) ${r.globs.join(' ')}${r.may_use ? `  may use: ${r.may_use.join(', ') || 'nothing'}` : ''}`);
    printLine(`      ${r.purpose}`);
  }
  if (view.unroomed.count) printLine(`  ${view.unroomed.count} files in no room: ${view.unroomed.paths.join(', ')}${view.unroomed.count > view.unroomed.paths.length ? ', …' : ''}`);
  if (view.violations.count) {
    printLine(`  ${view.violations.count} imports break a may_use rule:`);
    for (const v of view.violations.items) printLine(`    ${v.file}:${v.line} ${v.module} (${v.from} → ${v.to})`);
  }
}
