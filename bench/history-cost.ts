/**
 * What the history lists cost (issue 18's targets): on the bench's generated repository
 * (bench/fixtures/make-repo.ts, 5000 files by default) with a history of 10,000 commits
 * written by `git fast-import` on top of it (each commit edits 1–4 files and names them with
 * words of the repository's own comments; a last commit puts every file back, so the map is
 * the base's), measured through the real tick (mining in the pool's detect worker, storing in
 * the writer):
 *
 *   build     the tick's history time for the 10,000 commits (target ≤ 10 s)
 *   update    the tick's history time after one new commit (target ≤ 100 ms)
 *   size      the brain's size (page_count × page_size) before and after (target ≤ +20%)
 *   delegate  p50 / p99 over 100 task-like sentences with the history loaded (target ≤ 50 ms),
 *             and, interleaved task by task in the same brain, with the history lists switched
 *             off (the roots' history_state rows set aside on a second connection): the ratio
 *             is what the lists cost, whatever the machine's load
 *
 *   node dist/bench/history-cost.js [--files 5000] [--commits 10000]
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dispatchTool } from '../src/dispatch/index.js';
import { runTick } from '../src/vigil/index.js';
import { ScratchHome } from './scratch-home.js';
import { openDatabase, type Database } from '../src/store/index.js';
import { makeBenchRepo, type BenchRepo } from './fixtures/make-repo.js';
import { Rng, seedOf } from './fixtures/source-files.js';
import { drawQueries } from './seek-latency.js';
import { percentile } from './recall/metrics.js';
import { intArg } from './recall/eval-args.js';

const TASKS = 100;
const WARMUP = 10;

function brainBytes(db: Database): number {
  const pages = db.prepare('PRAGMA page_count').get<{ page_count: number }>()!.page_count;
  const size = db.prepare('PRAGMA page_size').get<{ page_size: number }>()!.page_size;
  return pages * size;
}

/** A fast-import stream of `commits` commits on top of main, then one that restores every touched file. */
function writeHistory(repo: BenchRepo, commits: number, words: string[]): void {
  const rng = new Rng(seedOf(repo.seed, 'history'));
  const parts: string[] = [];
  const data = (s: string) => parts.push(`data ${Buffer.byteLength(s)}\n${s}\n`);
  const head = repo.git('rev-parse', 'main').trim();
  const touched = new Set<string>();
  for (let i = 0; i < commits; i++) {
    parts.push(`commit refs/heads/main\ncommitter Gardener Bench <bench@gardener.invalid> ${1_700_000_000 + i} +0000\n`);
    data(Array.from({ length: rng.int(4, 12) }, () => rng.pick(words)).join(' '));
    if (i === 0) parts.push(`from ${head}\n`);
    for (let k = rng.int(1, 4); k > 0; k--) {
      const f = rng.pick(repo.files).path;
      touched.add(f);
      parts.push(`M 100644 inline ${f}\n`);
      data(`// revision ${i}\n`);
    }
  }
  parts.push(`commit refs/heads/main\ncommitter Gardener Bench <bench@gardener.invalid> ${1_700_000_000 + commits} +0000\n`);
  data('restore the sources');
  for (const f of touched) {
    parts.push(`M 100644 inline ${f}\n`);
    data(readFileSync(join(repo.dir, f), 'utf8'));
  }
  execFileSync('git', ['fast-import', '--quiet'], { cwd: repo.dir, input: parts.join(''), stdio: ['pipe', 'ignore', 'inherit'], maxBuffer: 1 << 30 });
  repo.git('reset', '-q', '--hard', 'main');
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  let files = 5000;
  let commits = 10_000;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--files') files = intArg('files', argv[++i], 10);
    else if (argv[i] === '--commits') commits = intArg('commits', argv[++i], 1);
    else throw new Error(`usage: node dist/bench/history-cost.js [--files N] [--commits N] (got ${argv[i]})`);
  }
  const scratch = new ScratchHome('gardener-history-cost-');
  try {
    const repo = await makeBenchRepo(join(scratch.dir, 'repo'), files);
    const words = drawQueries(repo, 400).flatMap((q) => q.split(/\s+/));
    const { brain } = await scratch.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    await brain.writer.runUpkeep();
    const before = brainBytes(brain.reader);

    writeHistory(repo, commits, words);
    const build = await runTick(brain);
    await brain.writer.runUpkeep();
    const after = brainBytes(brain.reader);

    const one = repo.files[0]!.path;
    writeFileSync(join(repo.dir, one), `${readFileSync(join(repo.dir, one), 'utf8')}// one more line\n`);
    repo.git('commit', '-q', '-am', 'one more commit');
    const update = await runTick(brain);

    const { session, ctx } = scratch.session(repo.dir);
    const rng = new Rng(seedOf(repo.seed, 'delegate'));
    const task = () => Array.from({ length: 8 }, () => rng.pick(words)).join(' ');
    const ms: number[] = [];
    const off: number[] = [];
    const side = openDatabase(brain.file);
    const timed = async (text: string): Promise<number> => {
      const t0 = performance.now();
      const r = await dispatchTool(session.toolsByName, 'delegate', { task: text }, ctx);
      JSON.stringify(r.value);
      if (r.isError) throw new Error(`history-cost: delegate failed: ${JSON.stringify(r.value)}`);
      return performance.now() - t0;
    };
    try {
      for (let i = 0; i < WARMUP + TASKS; i++) {
        const text = task();
        const on = await timed(text);
        side.exec("UPDATE history_state SET status = 'bench-off' WHERE status = 'ready'");
        const without = await timed(text);
        side.exec("UPDATE history_state SET status = 'ready' WHERE status = 'bench-off'");
        if (i >= WARMUP) (ms.push(on), off.push(without));
      }
    } finally {
      side.close();
    }
    const out = {
      files,
      commits,
      build: { commits: build.historyCommits, history_ms: Math.round(build.historyMs), tick_ms: Math.round(build.detectMs + build.drainMs + build.historyMs) },
      update: { commits: update.historyCommits, history_ms: Math.round(update.historyMs * 10) / 10 },
      size: { before_bytes: before, after_bytes: after, growth: Math.round(((after - before) / before) * 1000) / 1000 },
      delegate: {
        tasks: ms.length,
        p50_ms: Math.round(percentile(ms, 50) * 10) / 10,
        p99_ms: Math.round(percentile(ms, 99) * 10) / 10,
        without_history_p50_ms: Math.round(percentile(off, 50) * 10) / 10,
        without_history_p99_ms: Math.round(percentile(off, 99) * 10) / 10,
      },
      runtime: `node ${process.version}`,
    };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } finally {
    await scratch.close();
  }
}

await main();
