/** `gardener status [dir]`: what the brain holds and how fresh it is. Reads only. */
import { listRoots, readStatus, readVigil } from '../../store/index.js';
import { printJson, printLine } from '../output.js';
import { iso, withBrains } from './with-brains.js';

export async function status(dir: string, opts: { json?: boolean }): Promise<void> {
  await withBrains(async (brains) => {
    const brain = brains.resolve(dir);
    const db = brain.reader;
    const stats = readStatus(db);
    const vigil = readVigil(db);
    const roots = listRoots(db);
    const first = roots[0];
    const out = {
      root: first?.path ?? null,
      files: stats.files,
      symbols: stats.symbols,
      backlog: stats.backlog,
      armed: vigil.armed,
      backend: first?.backend ?? null,
      since_ref: first?.sinceRef ?? null,
      last_tick_at: iso(vigil.lastTickAt),
      brain: brain.id,
      roots: roots.map((r) => ({ path: r.path, backend: r.backend, since_ref: r.sinceRef, fallback: r.fallback })),
      alerts: stats.alerts,
      driver: db.driver,
      sqlite: db.sqliteVersion,
    };
    if (opts.json) return printJson(out);
    printLine(`brain ${brain.id} (${brain.file}, ${db.driver}, SQLite ${db.sqliteVersion})`);
    for (const r of roots) {
      const why = r.fallback === 'git_missing' ? ' (git not found on PATH: using the stat walk)' : r.fallback ? ` (${r.fallback})` : '';
      printLine(`  root ${r.path}: ${r.backend ?? 'not yet detected'} backend${why}${r.sinceRef ? `, at ${r.sinceRef.slice(0, 12)}` : ''}`);
    }
    printLine(`  ${stats.files} files, ${stats.symbols} symbols, ${stats.backlog} waiting in the backlog, ${stats.alerts} unacknowledged alerts`);
    printLine(`  ${vigil.armed ? 'armed' : 'not armed'}; last tick ${out.last_tick_at ?? 'never'}`);
  });
}
