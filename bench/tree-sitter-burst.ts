/**
 * The bench's tree-sitter case: a burst of new files in the languages parsed with tree-sitter
 * (C, C#, Kotlin and Ruby mixed, about 8 KB each), ingested by one tick, every file checked to
 * be in the map with its definitions. Beside the tick: its floor (a bare `git status` plus
 * reading and hashing the files on one thread, as for the other bursts) and the tick's stages
 * (git, pool work, writer commits), so the report can say which stage costs what; the
 * extraction's own speed per language is bench/extract-speed.ts.
 * The files are removed and the map settled after each run (not measured).
 */
import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runTick } from '../src/vigil/index.js';
import { generateTreeSitterSource, TREE_SITTER_BENCH_LANGUAGES, TREE_SITTER_EXTENSION } from './fixtures/tree-sitter-sources.js';
import { seedOf } from './fixtures/source-files.js';
import { checkDrained, median, type BenchContext } from './tick-burst.js';
import { upkeepDone } from './upkeep-done.js';

/** The size: a 1000-file burst; smaller when the run's largest burst is smaller (a smoke). */
export const TREE_SITTER_BURST_FILES = 1000;

export interface TreeSitterBurstResult {
  files: number;
  bytes: number;
  runs: number;
  /** Medians over the runs, in ms. */
  totalMs: number;
  detectMs: number;
  drainMs: number;
  detectGitMs: number;
  commitMs: number;
  hashWorkMs: number;
  batches: number;
  floorMs: number;
  /** Files of the burst whose map row has definitions, and all their definitions (must be every file). */
  filesWithDefinitions: number;
  definitions: number;
}

/**
 * Writes the burst's files and returns their paths and bytes. Each text is dropped once written:
 * 1000 texts held through the tick would be 8 MB of the bench's own in the peak it reports.
 */
function writeBurst(dir: string, files: number, run: number): { paths: string[]; bytes: number } {
  const paths: string[] = [];
  let bytes = 0;
  for (let i = 0; i < files; i++) {
    const lang = TREE_SITTER_BENCH_LANGUAGES[i % TREE_SITTER_BENCH_LANGUAGES.length]!;
    const path = `polyglot/${lang}/d${Math.floor(i / 40)}/unit_${run}_${i}.${TREE_SITTER_EXTENSION[lang]}`;
    const text = generateTreeSitterSource(lang, seedOf('tree-sitter', run, i), i);
    const abs = join(dir, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    bytes += Buffer.byteLength(text);
    paths.push(path);
  }
  return { paths, bytes };
}

export async function measureTreeSitterBurst(ctx: BenchContext, files: number, runs: number): Promise<TreeSitterBurstResult> {
  const samples: Omit<TreeSitterBurstResult, 'files' | 'bytes' | 'runs'>[] = [];
  let bytes = 0;
  for (let run = 0; run < runs; run++) {
    const written = writeBurst(ctx.repo.dir, files, run);
    const paths = written.paths;
    bytes = written.bytes;
    ctx.clock.take();
    const t0 = performance.now();
    const report = await runTick(ctx.clock.brain);
    const totalMs = performance.now() - t0;
    const stages = ctx.clock.take();
    checkDrained(`the tree-sitter burst #${run}`, report, files);
    const row = ctx.brain.reader
      .prepare("SELECT count(*) AS files, coalesce(sum(symbol_count), 0) AS defs FROM files WHERE path LIKE 'polyglot/%' AND symbol_count > 0")
      .get<{ files: number; defs: number }>()!;
    if (row.files !== files) throw new Error(`bench: ${files - row.files} of the tree-sitter burst's ${files} files have no definitions in the map`);
    const floor = ctx.floor.measure(ctx.repo.dir, paths);
    samples.push({
      totalMs,
      detectMs: report.detectMs,
      drainMs: report.drainMs,
      detectGitMs: stages.gitMs,
      commitMs: stages.commitMs,
      hashWorkMs: stages.hashWorkMs,
      batches: report.batches,
      floorMs: floor.floorMs,
      filesWithDefinitions: row.files,
      definitions: row.defs,
    });
    ctx.log(
      `tree-sitter burst ${files} run ${run + 1}/${runs}: tick ${totalMs.toFixed(1)} ms (detect ${report.detectMs.toFixed(1)}, drain ${report.drainMs.toFixed(1)} ` +
        `[commits ${stages.commitMs.toFixed(1)}, pool work ${stages.hashWorkMs.toFixed(1)}]), floor ${floor.floorMs.toFixed(1)} ms, ` +
        `${row.defs} definitions`,
    );
    for (const p of paths) unlinkSync(join(ctx.repo.dir, p));
    checkDrained(`removing the tree-sitter burst #${run}`, await runTick(ctx.brain), files);
    await upkeepDone(ctx.brain);
  }
  const m = (k: keyof (typeof samples)[number]) => median(samples.map((s) => s[k]));
  return {
    files,
    bytes,
    runs,
    totalMs: m('totalMs'),
    detectMs: m('detectMs'),
    drainMs: m('drainMs'),
    detectGitMs: m('detectGitMs'),
    commitMs: m('commitMs'),
    hashWorkMs: m('hashWorkMs'),
    batches: m('batches'),
    floorMs: m('floorMs'),
    filesWithDefinitions: m('filesWithDefinitions'),
    definitions: m('definitions'),
  };
}
