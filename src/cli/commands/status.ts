/** `gardener status [dir]`: what the brain holds and how fresh it is. Reads only. */
import { listRoots, readStatus, readVigil } from '../../store/index.js';
import { printJson, printLine } from '../output.js';
import { iso, withBrains } from './with-brains.js';
import { ownerWatchBackend } from '../../owner/owner-watch-status.js';
import { historyOfRoots } from '../../history/index.js';

export async function status(dir: string, opts: { json?: boolean }): Promise<void> {
  await withBrains(async (brains) => {
    const brain = brains.resolve(dir);
    const db = brain.reader;
    const stats = readStatus(db);
    const vigil = readVigil(db);
    const roots = listRoots(db);
    const first = roots[0];
    const watchBackend = await ownerWatchBackend(brains.home, brain.id);
    const out = {
      root: first?.path ?? null,
      files: stats.files,
      symbols: stats.symbols,
      backlog: stats.backlog,
      armed: vigil.armed,
      watch_backend: watchBackend,
      backend: first?.backend ?? null,
      since_ref: first?.sinceRef ?? null,
      last_tick_at: iso(vigil.lastTickAt),
      brain: brain.id,
      roots: historyOfRoots(db, roots.map((r) => ({ id: r.id, path: r.path, backend: r.backend, since_ref: r.sinceRef, fallback: r.fallback }))),
      alerts: stats.alerts,
      driver: db.driver,
      sqlite: db.sqliteVersion,
    };
    if (opts.json) return printJson(out);
    printLine(`brain ${brain.id} (${brain.file}, ${db.driver}, SQLite ${db.sqliteVersion})`);
    for (const r of out.roots) {
      const why = r.fallback === 'git_missing' ? ' (git not found on PATH: using the stat walk)' : r.fallback ? ` (${r.fallback})` : '';
      const h = r.history;
      const history = h.status === 'ready' ? `history of ${h.commits} commits${h.bounded ? ' (the newest kept)' : ''}` : h.status === 'none' ? 'no history' : `history ${h.status}${h.note ? `: ${h.note}` : ''}`;
      printLine(`  root ${r.path}: ${r.backend ?? 'not yet detected'} backend${why}${r.since_ref ? `, at ${r.since_ref.slice(0, 12)}` : ''}; ${history}`);
    }
    printLine(`  ${stats.files} files, ${stats.symbols} symbols, ${stats.backlog} waiting in the backlog, ${stats.alerts} unacknowledged alerts`);
    printLine(`  ${vigil.armed ? 'armed' : 'not armed'}; watched: ${watchBackend === 'none' ? 'no (no live owner watches it)' : watchBackend}; last tick ${out.last_tick_at ?? 'never'}`);
  });
}
