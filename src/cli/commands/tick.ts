/** `gardener tick [dir]`: one tick now. A failed tick is recorded as an alert and reported. */
import { Vigil } from '../../vigil/index.js';
import { formatDuration, positiveInt, printJson, printLine } from '../output.js';
import type { TickReport } from '../../vigil/index.js';
import { round } from './init.js';
import { withBrains } from './with-brains.js';

export async function tick(dir: string, opts: { json?: boolean; maxFiles: string }): Promise<void> {
  const maxFiles = positiveInt('--max-files', opts.maxFiles);
  await withBrains(async (brains) => {
    const brain = brains.resolve(dir);
    const outcome = await new Vigil(brain, { log: () => {} }).request({ maxFiles });
    if (!outcome.ok) {
      const out = { error: outcome.error, alert_id: outcome.alertId };
      if (opts.json) printJson(out);
      else printLine(`tick failed (recorded as alert ${outcome.alertId ?? '?'}): ${outcome.error.message}`);
      process.exitCode = 1;
      return;
    }
    const r = outcome.report;
    const out = {
      detected: r.detected,
      drained: r.drained,
      batches: r.batches,
      detect_ms: round(r.detectMs),
      drain_ms: round(r.drainMs),
      backlog_left: r.backlogLeft,
      ...(r.busyOwnerPid ? { busy_owner_pid: r.busyOwnerPid } : {}),
    };
    if (opts.json) return printJson(out);
    if (r.busyOwnerPid) return printLine(`another process (${r.busyOwnerPid}) is ticking this brain; nothing done`);
    printLine(tickLine(r));
  });
}

/** What `tick` says of a tick, for a person. */
export function tickLine(r: Pick<TickReport, 'detected' | 'drained' | 'batches' | 'detectMs' | 'drainMs' | 'backlogLeft'>): string {
  return `detected ${r.detected}, drained ${r.drained} in ${r.batches} batches; detect ${formatDuration(r.detectMs)}, drain ${formatDuration(r.drainMs)}; backlog ${r.backlogLeft}`;
}
