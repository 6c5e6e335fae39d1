/** `gardener refs <name>`: a name's definitions, then every use. Reads only; never ticks. */
import { InvalidArgumentError } from '../../errors.js';
import { refsAnswer } from '../../tools/reference-answers.js';
import { positiveInt, printJson, printLine } from '../output.js';
import { rootRelative } from './root-path.js';
import { withBrains } from './with-brains.js';

const IDENTIFIER = /^[\p{L}\p{N}_$]+$/u;

export async function refs(name: string, opts: { root: string; path?: string; limit: string; json?: boolean }): Promise<void> {
  if (!IDENTIFIER.test(name)) throw new InvalidArgumentError(`name must be one identifier (letters, digits, _ or $), like parseConfig; got "${name}"`);
  const limit = positiveInt('--limit', opts.limit);
  await withBrains(async (brains) => {
    const brain = brains.resolve(opts.root);
    const path = opts.path === undefined ? undefined : rootRelative(brain.roots, opts.path);
    const a = refsAnswer(brain.reader, name, { path, limit });
    const definitions = a.definitions.map((d) => ({ path: d.path, line: d.line, kind: d.kind }));
    type Where = { path: string; line: number } | null;
    const references = a.references.flatMap((f) => (f.uses as { line: number; in?: string; kind: string; definition?: Where }[])
      .map((u) => ({ path: f.path as string, line: u.line, in: u.in ?? null, kind: u.kind, definition: (u.definition !== undefined ? u.definition : (f.definition as Where | undefined)) ?? null })));
    if (opts.json) {
      const extra: Record<string, unknown> = {};
      for (const k of ['why', 'nearest', 'definitions_total', 'by_name_only', 'unresolved', 'pick', 'references_by_place']) if (a[k] !== undefined) extra[k] = a[k];
      return printJson({ definitions, references, ...extra });
    }
    if (definitions.length === 0 && references.length === 0) {
      printLine(a.why as string);
      if (a.nearest) printLine(`nearest: ${(a.nearest as string[]).join(', ')}`);
      return;
    }
    for (const d of definitions) printLine(`${d.path}:${d.line}  ${d.kind} ${name}`);
    if (a.definitions_total !== undefined) printLine(`… ${a.definitions_total} definitions in all`);
    if (definitions.length > 0) printLine();
    const several = definitions.length > 1 || a.unresolved !== undefined;
    const named = (d: Where) => (!several ? '' : d === null ? '  (unresolved)' : `  → ${d.path}:${d.line}`);
    for (const r of references) printLine(`${r.path}:${r.line}  ${r.kind}${r.in ? ` in ${r.in}` : ''}${named(r.definition)}`);
    if (a.pick) printLine(`(${a.pick})`);
    if (typeof a.files === 'number' && a.files > a.references.length) printLine(`… ${a.files} files in all; --limit shows more`);
    if (a.by_name_only) printLine(`(${a.by_name_only} more files use the name without importing its definition)`);
  });
}
