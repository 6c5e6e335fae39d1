/**
 * What references cost the ingest, measured in one run: the bench's repository ingested into
 * two fresh brains of their own homes, one keeping references and one not (the tick's
 * `references: false`, which turns the scanners' reference work off on the pool thread), then
 * the same bursts ticked into both, the two orders alternating run by run so neither side
 * always goes first. Reported: the first ingest and the burst tick with and without, as
 * medians, and both stores' sizes (SQLite's page count, WAL included, so a checkpoint's timing
 * does not move it).
 */
import { join } from 'node:path';
import { Brains, type Brain } from '../src/brain/index.js';
import { runTick } from '../src/vigil/index.js';
import { changedPaths, makeBurst, undoBurst, type BenchRepo } from './fixtures/make-repo.js';
import { checkDrained, median } from './tick-burst.js';
import { upkeepDone } from './upkeep-done.js';

/** First ingests per side (alternating which goes first); the faster of each is reported. */
const INGEST_ROUNDS = 2;

/** A run number no other part of the bench uses, so these bursts have their own files. */
const COST_BURST_RUN_BASE = 900;

export interface ReferencesCost {
  baseFiles: number;
  burstFiles: number;
  runs: number;
  ingestWithMs: number;
  ingestWithoutMs: number;
  burstWithMs: number;
  burstWithoutMs: number;
  storeWithBytes: number;
  storeWithoutBytes: number;
  /** References kept per file in the store with them (mean). */
  referencesPerFile: number;
}

function storeBytes(brain: Brain): number {
  const pages = brain.reader.prepare('PRAGMA page_count').get<{ page_count: number }>()!.page_count;
  const size = brain.reader.prepare('PRAGMA page_size').get<{ page_size: number }>()!.page_size;
  return pages * size;
}

function referencesPerFile(brain: Brain): number {
  const row = brain.reader.prepare("SELECT count(*) AS files, sum(length(refs) - length(replace(refs, ',', '')) + length(refs) - length(replace(refs, char(10), '')) - 1) AS uses FROM files WHERE refs IS NOT NULL AND refs != ''").get<{ files: number; uses: number | null }>()!;
  return row.files === 0 ? 0 : (row.uses ?? 0) / row.files;
}

export async function measureReferencesCost(parent: string, repo: BenchRepo, burstFiles: number, runs: number, log: (line: string) => void): Promise<ReferencesCost> {
  const opened: Brains[] = [];
  const fresh = async (name: string): Promise<Brain> => {
    const brains = new Brains({ home: join(parent, name) });
    opened.push(brains);
    brains.pool.warm();
    return (await brains.ensure(repo.dir)).brain;
  };
  try {
    // The work tree may hold a file or two besides the generated ones (the bench's own): both
    // sides must ingest the same set, whatever it is.
    let tree = -1;
    const ingest = async (brain: Brain, references: boolean) => {
      const t0 = performance.now();
      const r = await runTick(brain, { inventory: true, references });
      const ms = performance.now() - t0;
      if (tree < 0) tree = r.drained;
      checkDrained(`the first ingest (references ${references ? 'kept' : 'off'})`, r, tree);
      await upkeepDone(brain);
      return ms;
    };
    // Each side's first ingest twice, into fresh brains, alternating which goes first: a
    // process's first ingest also warms code both sides share, which must not be charged to
    // whichever goes first. The faster of each side's two is reported.
    const ingestWith: number[] = [];
    const ingestWithout: number[] = [];
    let on: Brain | undefined;
    let off: Brain | undefined;
    for (let round = 0; round < INGEST_ROUNDS; round++) {
      const sides: [boolean, number[]][] = [[false, ingestWithout], [true, ingestWith]];
      if (round % 2 === 1) sides.reverse();
      for (const [references, into] of sides) {
        const brain = await fresh(`home-${round}-${references ? 'references' : 'none'}`);
        into.push(await ingest(brain, references));
        if (references) on = brain;
        else off = brain;
      }
    }
    const size = Math.min(burstFiles, repo.files.length);
    const withMs: number[] = [];
    const withoutMs: number[] = [];
    for (let run = 0; run < runs; run++) {
      const burst = makeBurst(repo, size, COST_BURST_RUN_BASE + run);
      const sides: [Brain, boolean, number[]][] = [[on!, true, withMs], [off!, false, withoutMs]];
      if (run % 2 === 1) sides.reverse();
      for (const [brain, references, into] of sides) {
        const t0 = performance.now();
        const r = await runTick(brain, { references });
        into.push(performance.now() - t0);
        checkDrained(`burst ${size}#${run} (references ${references ? 'kept' : 'off'})`, r, changedPaths(burst).length);
        await upkeepDone(brain);
      }
      undoBurst(repo, burst);
      for (const [brain, references] of sides) {
        checkDrained(`undoing burst ${size}#${run}`, await runTick(brain, { references }), changedPaths(burst).length);
        await upkeepDone(brain);
      }
    }
    const cost: ReferencesCost = {
      baseFiles: tree,
      burstFiles: size,
      runs,
      ingestWithMs: Math.min(...ingestWith),
      ingestWithoutMs: Math.min(...ingestWithout),
      burstWithMs: median(withMs),
      burstWithoutMs: median(withoutMs),
      storeWithBytes: storeBytes(on!),
      storeWithoutBytes: storeBytes(off!),
      referencesPerFile: referencesPerFile(on!),
    };
    const mb = (b: number) => (b / 1048576).toFixed(1);
    log(
      `references cost: first ingest ${Math.round(cost.ingestWithMs)} ms with, ${Math.round(cost.ingestWithoutMs)} ms without (${(cost.ingestWithMs / cost.ingestWithoutMs).toFixed(2)}×; all: ${ingestWith.map(Math.round).join('/')} vs ${ingestWithout.map(Math.round).join('/')}); ` +
        `${size}-file burst ${Math.round(cost.burstWithMs)} ms with, ${Math.round(cost.burstWithoutMs)} ms without (${(cost.burstWithMs / cost.burstWithoutMs).toFixed(2)}×); ` +
        `store ${mb(cost.storeWithBytes)} MB with, ${mb(cost.storeWithoutBytes)} MB without (${(cost.storeWithBytes / cost.storeWithoutBytes).toFixed(2)}×); ${cost.referencesPerFile.toFixed(0)} references per file`,
    );
    return cost;
  } finally {
    for (const b of opened) await b.close();
  }
}
