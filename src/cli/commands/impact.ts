/** `gardener impact <path-or-name>`: what may break if it changes. Reads only; never ticks. */
import { existsSync } from 'node:fs';
import { InvalidArgumentError } from '../../errors.js';
import { MAX_IMPACT_DEPTH, impactAnswer } from '../../tools/reference-answers.js';
import { printJson, printLine } from '../output.js';
import { rootRelative } from './root-path.js';
import { withBrains } from './with-brains.js';

const IDENTIFIER = /^[\p{L}\p{N}_$]+$/u;

export async function impact(target: string, opts: { root: string; depth: string; json?: boolean }): Promise<void> {
  const depth = Number(opts.depth);
  if (!/^\d+$/.test(opts.depth.trim()) || depth < 1 || depth > MAX_IMPACT_DEPTH) {
    throw new InvalidArgumentError(`--depth must be a whole number from 1 to ${MAX_IMPACT_DEPTH}, got "${opts.depth}"`);
  }
  // A name is one identifier that is not a file here; anything else is a path.
  const asName = IDENTIFIER.test(target) && !existsSync(target);
  await withBrains(async (brains) => {
    const brain = brains.resolve(opts.root);
    const a = impactAnswer(brain.reader, asName ? { name: target } : { path: rootRelative(brain.roots, target) }, depth);
    if (opts.json) return printJson(a);
    if (a.why) return printLine(a.why as string);
    for (const f of a.files as { path: string; distance: number; via: string; room?: string; test?: boolean }[]) {
      printLine(`${f.distance}  ${f.path}${f.test ? '  (test)' : ''}${f.room ? `  [${f.room}]` : ''}`);
    }
    if ((a.total as number) > (a.files as unknown[]).length) {
      printLine(`… ${a.total} files in all:`);
      for (const p of a.by_place as { room?: string; folder?: string; files: number }[]) printLine(`   ${p.files}  ${p.room ?? p.folder}`);
    }
    printLine(`tests to run (${a.tests_total}): ${(a.tests as string[]).join(' ') || 'none found'}`);
  });
}
