/**
 * `delegate` latency on the bench's brain (issue 7's target: p50 ≤ 50 ms on 5000 files): the
 * bench's generated repository (bench/fixtures/make-repo.ts), ingested once, then task-like
 * sentences (declared names and comment words of its own sources, drawn with a fixed seed)
 * sent through `dispatchTool` one at a time, each timed alone, after a few unmeasured ones;
 * then as many issue-length tasks (issue 52: a title, three sentences, a code block of its names
 * and a traceback frame naming one of its files, about 70 words), which ask the issue lists too.
 */
import { join } from 'node:path';
import { dispatchTool } from '../../src/dispatch/index.js';
import { runTick } from '../../src/vigil/index.js';
import { ScratchHome } from '../scratch-home.js';
import { makeBenchRepo } from '../fixtures/make-repo.js';
import { Rng, seedOf } from '../fixtures/source-files.js';
import { drawQueries } from '../seek-latency.js';
import { percentile } from './metrics.js';

/** Tasks timed, and unmeasured ones first (statements prepared, caches warm, as in a running server). */
export const LATENCY_TASKS = 100;
const LATENCY_WARMUP_TASKS = 10;
/** Words per task: a one-line task, like most commit subjects. */
const TASK_WORDS = 8;

export interface DelegateLatency {
  files: number;
  tasks: number;
  p50_ms: number;
  p99_ms: number;
  /** The same for issue-length tasks. */
  issue_p50_ms: number;
  issue_p99_ms: number;
}

export async function measureDelegateLatency(files: number, log: (line: string) => void): Promise<DelegateLatency> {
  const scratch = new ScratchHome('gardener-recall-latency-');
  try {
    const repo = await makeBenchRepo(join(scratch.dir, 'repo'), files);
    const { brain } = await scratch.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    const { session, ctx } = scratch.session(repo.dir);
    const rng = new Rng(seedOf(repo.seed, 'delegate'));
    const words = drawQueries(repo, 400);
    const task = () => Array.from({ length: TASK_WORDS }, () => rng.pick(words)).join(' ');
    const sentence = () => `${task()} ${task().split(' ').slice(0, 4).join(' ')}.`;
    const issue = () => {
      const file = rng.pick(repo.files).path;
      const names = Array.from({ length: 10 }, () => rng.pick(words)).join('(); ');
      return `${task()}\n\n${sentence()} ${sentence()} ${sentence()}\n\n\`\`\`\n${names}();\nError: ${task()}\n    at run (/home/user/project/${file}:12:5)\n\`\`\`\n`;
    };
    const timed = async (make: () => string) => {
      const ms: number[] = [];
      for (let i = 0; i < LATENCY_WARMUP_TASKS + LATENCY_TASKS; i++) {
        const t0 = performance.now();
        const r = await dispatchTool(session.toolsByName, 'delegate', { task: make() }, ctx);
        JSON.stringify(r.value);
        if (r.isError) throw new Error(`recall: delegate failed on the bench brain: ${JSON.stringify(r.value)}`);
        if (i >= LATENCY_WARMUP_TASKS) ms.push(performance.now() - t0);
      }
      return ms;
    };
    const ms = await timed(task);
    const issueMs = await timed(issue);
    const out = { files, tasks: ms.length, p50_ms: percentile(ms, 50), p99_ms: percentile(ms, 99), issue_p50_ms: percentile(issueMs, 50), issue_p99_ms: percentile(issueMs, 99) };
    log(`delegate on the ${files}-file bench brain: p50 ${out.p50_ms.toFixed(1)} ms, p99 ${out.p99_ms.toFixed(1)} ms over ${ms.length} tasks; issue-length tasks p50 ${out.issue_p50_ms.toFixed(1)} ms, p99 ${out.issue_p99_ms.toFixed(1)} ms`);
    return out;
  } finally {
    await scratch.close();
  }
}
