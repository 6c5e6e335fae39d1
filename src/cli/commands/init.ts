/** `gardener init [dir]`: create or refresh the brain for a folder and ingest it fully. */
import { runTick } from '../../vigil/index.js';
import { positiveInt, printJson, printLine } from '../output.js';
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
    printLine(`  ingested ${report.drained} paths in ${report.batches} batches (${out.detect_ms + out.drain_ms} ms, ${report.backend} backend)`);
    printLine(`  store: ${brain.file}`);
    if (report.busyOwnerPid) printLine(`  another process (${report.busyOwnerPid}) is ticking this brain; it will finish the work`);
  });
}

export const round = (ms: number) => Math.round(ms * 10) / 10;
