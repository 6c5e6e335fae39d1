/**
 * The recall eval: for each repository, sample tasks (sample-commits.ts), then for each task
 * check out the commit's parent in one shared clone, bring one brain up to date with a tick
 * (the first ingests everything; later ones re-ingest what the checkout changed), and ask
 * `delegate` and `seek` through `dispatchTool` as a transport would, beside the BM25 baseline
 * computed in the same run over the same files. Nothing of a repository is kept: the clone,
 * the brain and its home live in one temporary folder removed at the end.
 */
import { execFileSync } from 'node:child_process';
import { basename, join, resolve } from 'node:path';
import { dispatchTool } from '../../src/dispatch/index.js';
import { languageOf } from '../../src/ingest/language.js';
import { DEFAULT_DELEGATE_BUDGET_TOKENS } from '../../src/tools/recall-tools.js';
import { runTick } from '../../src/vigil/index.js';
import { ScratchHome } from '../scratch-home.js';
import { corpusOf, rankBm25, type Bm25Doc } from './bm25.js';
import { scoreRanking, dedupe, MRR_DEPTH, type TaskScores } from './metrics.js';
import { git, sampleTasks } from './sample-commits.js';

/** `seek` results asked per task: enough files for MRR's depth after repeats of one file. */
export const SEEK_LIMIT = 20;
export const SYSTEMS = ['delegate', 'seek', 'bm25'] as const;
export type System = (typeof SYSTEMS)[number];

export interface RecallOptions {
  repos: string[];
  /** Tasks per repository. @default 30 */
  commits: number;
  /** Sampling seed. @default 1 */
  seed: number;
}

export interface TaskResult {
  repo: string;
  sha: string;
  language: string;
  answer: string[];
  scores: Record<System, TaskScores>;
  /** First rank (1-based) of an answer file per system, null when not in the first MRR_DEPTH. */
  ranks: Record<System, number | null>;
  delegateMs: number;
  seekMs: number;
  /** The delegate answer's JSON length / 4, against `budgetTokens`. */
  answerTokens: number;
  budgetTokens: number;
  files: number;
  /** Why a tool answered with an error, when it did. */
  error?: string;
}

export interface RepoRun {
  name: string;
  path: string;
  commits: number;
  qualifying: number;
  tasks: TaskResult[];
}

/**
 * A repository argument: a path, or `path=name` to name it in the report; without a name, the
 * folder's (its parent's for `…/repo` and `….git`).
 */
export function splitRepoArg(arg: string): { path: string; name: string } {
  const m = /^(.+)=([\w.+/-]+)$/.exec(arg);
  return m ? { path: m[1]!, name: m[2]! } : { path: arg, name: repoName(arg) };
}

export function repoName(path: string): string {
  const parts = resolve(path).split('/').filter((p) => p && p !== 'repo' && p !== '.git');
  return (parts.at(-1) ?? path).replace(/\.git$/, '').replace('+', '/');
}

export async function runRecall(options: RecallOptions, log: (line: string) => void): Promise<RepoRun[]> {
  const runs: RepoRun[] = [];
  for (const arg of options.repos) {
    const { path: repo, name } = splitRepoArg(arg);
    const sample = sampleTasks(repo, options.commits, options.seed);
    log(`${name}: ${sample.commits} non-merge commits, ${sample.qualifying} qualify, ${sample.tasks.length} sampled`);
    const run: RepoRun = { name, path: repo, commits: sample.commits, qualifying: sample.qualifying, tasks: [] };
    runs.push(run);
    if (sample.tasks.length > 0) await evalRepo(repo, name, sample.tasks, run, log);
  }
  return runs;
}

async function evalRepo(repo: string, name: string, tasks: ReturnType<typeof sampleTasks>['tasks'], run: RepoRun, log: (line: string) => void) {
  const scratch = new ScratchHome('gardener-recall-');
  const dir = join(scratch.dir, basename(name));
  execFileSync('git', ['clone', '-q', '--no-checkout', '--shared', resolve(repo), dir], { stdio: 'ignore' });
  const docs = new Map<string, Bm25Doc>();
  try {
    for (const [i, t] of tasks.entries()) {
      git(dir, ['checkout', '-q', '--force', '--detach', t.parent]);
      const { brain } = await scratch.brains.ensure(dir);
      const report = await runTick(brain, { inventory: i === 0 });
      if (report.backlogLeft > 0) throw new Error(`recall: the tick left ${report.backlogLeft} paths in the backlog of ${name} at ${t.parent}`);
      const { session, ctx } = scratch.session(dir);

      const rows = brain.reader.prepare('SELECT path, hash, indexed FROM files').all<{ path: string; hash: string; indexed: number }>();
      const corpus = corpusOf(rows, dir, docs);
      const bm25 = rankBm25(corpus, t.task, MRR_DEPTH).map((h) => h.id);

      let t0 = performance.now();
      const del = await dispatchTool(session.toolsByName, 'delegate', { task: t.task }, ctx);
      const delegateMs = performance.now() - t0;
      t0 = performance.now();
      const sk = await dispatchTool(session.toolsByName, 'seek', { query: t.task, scope: 'code', limit: SEEK_LIMIT }, ctx);
      const seekMs = performance.now() - t0;

      const value = del.value as { files?: { path: string }[] };
      const lists: Record<System, string[]> = {
        delegate: del.isError ? [] : (value.files ?? []).map((f) => f.path),
        seek: sk.isError ? [] : dedupe(((sk.value as { code?: { path: string }[] }).code ?? []).map((h) => h.path)),
        bm25,
      };
      const answer = new Set(t.answer);
      const scores = {} as Record<System, TaskScores>;
      const ranks = {} as Record<System, number | null>;
      for (const s of SYSTEMS) {
        scores[s] = scoreRanking(lists[s], answer);
        ranks[s] = scores[s].rr > 0 ? Math.round(1 / scores[s].rr) : null;
      }
      const errors = [del, sk].filter((r) => r.isError).map((r) => JSON.stringify(r.value));
      run.tasks.push({
        repo: name,
        sha: t.sha.slice(0, 12),
        language: languageOf(t.answer[0]!) ?? 'other',
        answer: t.answer,
        scores,
        ranks,
        delegateMs,
        seekMs,
        answerTokens: Math.ceil(JSON.stringify(del.value).length / 4),
        budgetTokens: DEFAULT_DELEGATE_BUDGET_TOKENS,
        files: rows.length,
        ...(errors.length ? { error: errors.join('; ') } : {}),
      });
      log(`${name} ${i + 1}/${tasks.length} ${t.sha.slice(0, 8)} (${rows.length} files): first answer at delegate ${ranks.delegate ?? '-'}, seek ${ranks.seek ?? '-'}, bm25 ${ranks.bm25 ?? '-'}; delegate ${delegateMs.toFixed(1)} ms`);
    }
  } finally {
    await scratch.close();
  }
}
