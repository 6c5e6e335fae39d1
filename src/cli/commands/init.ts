/** `gardener init [dir]`: create or refresh the brain for a folder and ingest it fully. */
import { runTick, type TickReport } from '../../vigil/index.js';
import { formatDuration, positiveInt, printJson, printLine } from '../output.js';
import { progressBar } from '../progress.js';
import { withBrains } from './with-brains.js';

export async function init(dir: string, opts: { json?: boolean; maxFiles: string }): Promise<void> {
  const maxFiles = positiveInt('--max-files', opts.maxFiles);
  await withBrains(async (brains) => {
    const { brain, created, root } = await brains.ensure(dir);
    const bar = progressBar('ingesting');
    const report = await runTick(brain, { inventory: true, maxFiles, onProgress: bar.update });
    bar.done();
    const out = {
      brain: brain.id,
      root,
      created,
      store: brain.file,
      files: report.drained,
      detect_ms: round(report.detectMs),
      drain_ms: round(report.drainMs),
      backend: report.backend,
      backlog_left: report.backlogLeft,
    };
    if (opts.json) return printJson(out);
    printLine(`${created ? 'created' : 'refreshed'} brain ${brain.id} for ${root}`);
    printLine(ingestedLine(report));
    printLine(`  store: ${brain.file}`);
    if (report.busyOwnerPid) printLine(`  another process (${report.busyOwnerPid}) is ticking this brain; it will finish the work`);
  });
}

/** A duration field of `--json` output, in ms: one decimal (text goes through formatDuration). */
export const round = (ms: number) => Math.round(ms * 10) / 10;

/** What `init` says of the ingest, for a person. */
export function ingestedLine(report: Pick<TickReport, 'drained' | 'batches' | 'detectMs' | 'drainMs' | 'backend'>): string {
  return `  ingested ${report.drained} paths in ${report.batches} batches (${formatDuration(report.detectMs + report.drainMs)}, ${report.backend} backend)`;
}
