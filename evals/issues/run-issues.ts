/**
 * The issue eval's run: for each repository, one shared clone; its tasks in commit-date order,
 * each checked out at its base commit and brought into one brain by a tick (the first ingests
 * everything, later ones what the checkout changed; history is mined up to the base, never past
 * it); then `delegate` is asked with the issue text and its default budget through
 * `dispatchTool`, as a transport would, and a plain BM25 over whole files runs beside it over
 * the repository's code files. Nothing of a repository is kept: clone, brain and home are one temporary
 * folder removed at the end.
 */
import { execFileSync } from 'node:child_process';
import { basename, join, resolve } from 'node:path';
import { dispatchTool } from '../../src/dispatch/index.js';
import { languageOf } from '../../src/ingest/language.js';
import { DEFAULT_DELEGATE_BUDGET_TOKENS } from '../../src/tools/recall-tools.js';
import { runTick } from '../../src/vigil/index.js';
import { analyseQuery, rankFiles } from '../../src/ranking/index.js';
import type { RankExplain } from '../../src/ranking/rank-files.js';
import type { PathClass } from '../../src/ranking/path-prior.js';
import { ScratchHome } from '../../bench/scratch-home.js';
import { corpusOf, rankBm25, type Bm25Doc } from '../../bench/recall/bm25.js';
import { git } from '../../bench/recall/sample-commits.js';
import { goldFiles, isCodePath, type IssueTask } from './tasks.js';
import { scoreIssue, type IssueScores } from './metrics.js';
import { repoDir } from './repo-dirs.js';

export const SYSTEMS = ['delegate', 'bm25'] as const;
export type System = (typeof SYSTEMS)[number];
/** Files of each ranking kept in the results: past twenty an agent no longer reads the list. */
export const KEPT_RANKS = 20;

export interface IssueResult {
  id: string;
  repo: string;
  language: string;
  gold: string[];
  scores: Record<System, IssueScores>;
  /** The first files of each ranking, best first. */
  top: Record<System, string[]>;
  delegateMs: number;
  /** The delegate answer's compact JSON, in characters. */
  answerChars: number;
  /** Files the answer lists. */
  answerFiles: number;
  files: number;
  /** What delegate said it matched, when it says (the answer's `clues`). */
  clues?: unknown;
  error?: string;
  /** Every list delegate's ranking fused, and the path classes of their files (learn-weights.ts re-fuses them). */
  lists?: ExplainedLists;
}

/** The fused lists of one ranking, cut to EXPLAINED_DEPTH entries each. */
export interface ExplainedLists {
  lists: { name: string; weight: number; paths: string[]; ranks: number[] }[];
  classes: Record<string, PathClass>;
}

/** Entries of each list kept for re-fusion: past this a list adds under 1/(RRF_K + 60). */
export const EXPLAINED_DEPTH = 60;

function explained(e: RankExplain): ExplainedLists {
  const lists = e.lists.map((l) => ({ ...l, paths: l.paths.slice(0, EXPLAINED_DEPTH), ranks: l.ranks.slice(0, EXPLAINED_DEPTH) }));
  const kept = new Set(lists.flatMap((l) => l.paths));
  return { lists, classes: Object.fromEntries([...e.classes].filter(([p]) => kept.has(p))) };
}

export interface Skipped {
  id: string;
  repo: string;
  why: string;
}

export interface IssueRunOptions {
  tasks: IssueTask[];
  /** The folder repositories are found in (repo-dirs.ts). */
  reposDir: string;
  /** `owner/name`s left out, lower-cased. */
  exclude: ReadonlySet<string>;
  /** When set, only these repositories, lower-cased. */
  only?: ReadonlySet<string>;
  /** Most tasks per repository (the first by commit date). */
  perRepo?: number;
}

export async function runIssues(options: IssueRunOptions, log: (line: string) => void): Promise<{ results: IssueResult[]; skipped: Skipped[] }> {
  const results: IssueResult[] = [];
  const skipped: Skipped[] = [];
  const byRepo = new Map<string, IssueTask[]>();
  for (const t of options.tasks) {
    const key = t.repo.toLowerCase();
    if (options.exclude.has(key) || (options.only && !options.only.has(key))) continue;
    if (goldFiles(t).length === 0) {
      skipped.push({ id: t.id, repo: t.repo, why: 'the patch changes no code file that exists before it (only tests, docs or new files)' });
      continue;
    }
    byRepo.set(key, [...(byRepo.get(key) ?? []), t]);
  }
  for (const tasks of byRepo.values()) {
    const name = tasks[0]!.repo;
    const dir = repoDir(options.reposDir, name);
    if (!dir) {
      for (const t of tasks) skipped.push({ id: t.id, repo: name, why: `no clone of ${name} under ${options.reposDir}` });
      log(`${name}: no clone under ${options.reposDir}, ${tasks.length} tasks skipped`);
      continue;
    }
    await runRepo(dir, name, tasks, options.perRepo, results, skipped, log);
  }
  return { results, skipped };
}

async function runRepo(repo: string, name: string, all: IssueTask[], perRepo: number | undefined, results: IssueResult[], skipped: Skipped[], log: (line: string) => void) {
  const scratch = new ScratchHome('gardener-issues-');
  const dir = join(scratch.dir, basename(name));
  execFileSync('git', ['clone', '-q', '--no-checkout', '--shared', resolve(repo), dir], { stdio: 'ignore' });
  try {
    const dated: { t: IssueTask; at: number }[] = [];
    for (const t of all) {
      try {
        dated.push({ t, at: Number(git(dir, ['show', '-s', '--format=%ct', `${t.base}^{commit}`]).trim()) });
      } catch {
        skipped.push({ id: t.id, repo: name, why: `base commit ${t.base.slice(0, 12)} is not in the clone` });
      }
    }
    dated.sort((a, b) => a.at - b.at || a.t.id.localeCompare(b.t.id));
    const tasks = dated.map((d) => d.t).slice(0, perRepo ?? Infinity);
    const docs = new Map<string, Bm25Doc>();
    const leftOut = new Set<string>();
    let reportedLeftOut = 0;
    for (const [i, t] of tasks.entries()) {
      try {
        checkoutBase(dir, t.base, leftOut);
      } catch (err) {
        skipped.push({ id: t.id, repo: name, why: `checkout of ${t.base.slice(0, 12)} failed: ${(err as Error).message.split('\n')[0]}` });
        continue;
      }
      const { brain } = await scratch.brains.ensure(dir);
      const t0 = performance.now();
      const report = await runTick(brain, { inventory: i === 0 });
      const tickMs = performance.now() - t0;
      if (leftOut.size > reportedLeftOut && (reportedLeftOut = leftOut.size)) log(`${name}: ${leftOut.size} files whose content the clone lacks are left out of the checkout (${[...leftOut].slice(0, 3).join(', ')}${leftOut.size > 3 ? ', …' : ''})`);
      if (report.backlogLeft > 0) throw new Error(`issues: the tick left ${report.backlogLeft} paths in the backlog of ${name} at ${t.base}`);
      const { session, ctx } = scratch.session(dir);
      const gold = goldFiles(t);
      const rows = brain.reader.prepare('SELECT path, hash, indexed FROM files').all<{ path: string; hash: string; indexed: number }>();
      const mapped = new Set(rows.map((r) => r.path));
      const unmapped = gold.filter((g) => !mapped.has(g));
      if (unmapped.length === gold.length) {
        skipped.push({ id: t.id, repo: name, why: `no gold file is in the map at the base (${unmapped.join(', ')})` });
        continue;
      }
      // The baseline as retrieval papers run it: BM25 over the repository's code files (tests
      // included, docs and data not), whole files, path and content.
      const corpus = corpusOf(rows.filter((r) => isCodePath(r.path)), dir, docs);
      const bm25 = rankBm25(corpus, t.text, KEPT_RANKS).map((h) => h.id);
      const started = performance.now();
      const del = await dispatchTool(session.toolsByName, 'delegate', { task: t.text, budget_tokens: DEFAULT_DELEGATE_BUDGET_TOKENS }, ctx);
      const delegateMs = performance.now() - started;
      const value = del.value as { files?: { path: string }[]; clues?: unknown };
      const lists: Record<System, string[]> = { delegate: del.isError ? [] : (value.files ?? []).map((f) => f.path), bm25 };
      const scores = { delegate: scoreIssue(lists.delegate, gold), bm25: scoreIssue(lists.bm25, gold) };
      const json = JSON.stringify(del.value);
      const explain: RankExplain = { lists: [], classes: new Map() };
      const q = analyseQuery(t.text);
      if (!q.empty) rankFiles(brain.reader, q, { limit: KEPT_RANKS, explain });
      results.push({
        id: t.id,
        repo: name,
        language: languageOf(gold[0]!) ?? 'other',
        gold,
        scores,
        top: { delegate: lists.delegate.slice(0, KEPT_RANKS), bm25: lists.bm25.slice(0, KEPT_RANKS) },
        delegateMs,
        answerChars: json.length,
        answerFiles: lists.delegate.length,
        files: rows.length,
        ...(value.clues !== undefined ? { clues: value.clues } : {}),
        ...(del.isError ? { error: json } : {}),
        lists: explained(explain),
      });
      const rank = (s: System) => (scores[s].rr > 0 ? String(Math.round(1 / scores[s].rr)) : '-');
      log(`${name} ${i + 1}/${tasks.length} ${t.id} (${rows.length} files, tick ${(tickMs / 1000).toFixed(1)} s): first gold at delegate ${rank('delegate')}, bm25 ${rank('bm25')}; all gold in top 5: ${scores.delegate.acc[5]}/${scores.bm25.acc[5]}; ${delegateMs.toFixed(0)} ms, ${json.length} chars`);
    }
  } finally {
    await scratch.close();
  }
}

/** Most rounds of leaving out files whose content the clone lacks before a checkout gives up. */
const CHECKOUT_ROUNDS = 20;

/**
 * Checks out `base`, leaving out (by sparse checkout) files whose blobs the clone lacks: a
 * snapshot may hold a repository without its largest files, and git refuses the whole checkout
 * for one missing blob. Those files are too large to be mapped anyway.
 */
function checkoutBase(dir: string, base: string, leftOut: Set<string>): void {
  for (let round = 0; ; round++) {
    try {
      git(dir, ['checkout', '-q', '--force', '--detach', base]);
      return;
    } catch (err) {
      const text = String((err as { stderr?: string }).stderr ?? (err as Error).message);
      const missing = [...text.matchAll(/invalid object [0-7]+ [0-9a-f]+ for '(.+)'/g)].map((m) => m[1]!).filter((p) => !leftOut.has(p));
      if (missing.length === 0 || round >= CHECKOUT_ROUNDS) throw err;
      for (const p of missing) leftOut.add(p);
      git(dir, ['sparse-checkout', 'set', '--no-cone', '/*', ...[...leftOut].map((p) => `!/${p.replace(/([*?[\\!])/g, '\\$1')}`)]);
    }
  }
}
