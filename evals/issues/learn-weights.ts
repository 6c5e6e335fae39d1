/**
 * `node dist/evals/issues/learn-weights.js <report.json>... [--folds N] [--seed S]`
 *
 * Learns the fusion's list weights from an issue eval's report (each task's fused lists, kept
 * by `--json`), with repositories held out: the repositories are dealt into N folds (by a hash
 * of name and seed); for each fold, weights are learned on the other folds' tasks by coordinate
 * ascent over a grid, and scored on the fold's own. What it prints is the held-out score of
 * learning (every task scored by weights that never saw its repository) beside the weights as
 * shipped, and the weights learned on all tasks, to carry into src/ranking/weights.ts by hand.
 *
 * Re-fusion is exact for lists that do not depend on the fused order; the neighbour and
 * co-change lists were drawn from the head the shipped weights made, and are replayed as drawn.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DATA_FILE_FACTOR, DOC_FILE_FACTOR, GENERATED_FILE_FACTOR, RRF_K, TEST_FILE_FACTOR } from '../../src/ranking/weights.js';
import { scoreIssue, meanIssueScores, type IssueScores } from './metrics.js';
import type { IssueResult } from './run-issues.js';

type Weights = Record<string, number>;
interface Task { repo: string; gold: string[]; lists: NonNullable<IssueResult['lists']>['lists']; classes: Record<string, string> }

/** The factors as shipped (path-prior.ts), per class. */
const SHIPPED_FACTORS: Weights = { generated: GENERATED_FILE_FACTOR, test: TEST_FILE_FACTOR, doc: DOC_FILE_FACTOR, data: DATA_FILE_FACTOR };

/** Multipliers tried for each list's weight, and for each path-prior class. */
const GRID = [0, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4];
const PRIOR_GRID = [0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1];
const SWEEPS = 3;
const TOP = 20;

export function fuse(task: Task, w: Weights, priors: Weights): string[] {
  const score = new Map<string, number>();
  for (const l of task.lists) {
    const scale = w[l.name] ?? 1;
    if (scale === 0) continue;
    for (const [i, p] of l.paths.entries()) score.set(p, (score.get(p) ?? 0) + (l.weight * scale) / (RRF_K + l.ranks[i]! + 1));
  }
  const out = [...score.entries()].map(([p, s]) => ({ p, s: s * (priors[task.classes[p] ?? 'source'] ?? 1) }));
  out.sort((a, b) => b.s - a.s || (a.p < b.p ? -1 : 1));
  return out.slice(0, TOP).map((e) => e.p);
}

function evaluate(tasks: readonly Task[], w: Weights, priors: Weights): IssueScores {
  return meanIssueScores(tasks.map((t) => scoreIssue(fuse(t, w, priors), t.gold)));
}

/** What the search maximises: Acc@5 first, Acc@1 and MRR as lesser parts. */
const objective = (s: IssueScores) => s.acc[5] + 0.5 * s.acc[1] + 0.25 * s.rr;

function learn(tasks: readonly Task[], names: readonly string[], classes: readonly string[], start: { w: Weights; priors: Weights }): { w: Weights; priors: Weights } {
  const w = { ...start.w };
  const priors = { ...start.priors };
  let best = objective(evaluate(tasks, w, priors));
  /** Tries each value of `grid` for `of[key]`, keeping the best; true when it moved. */
  const tune = (of: Weights, key: string, grid: readonly number[]) => {
    let moved = false;
    for (const v of grid) {
      const was = of[key]!;
      if (v === was) continue;
      of[key] = v;
      const o = objective(evaluate(tasks, w, priors));
      if (o > best + 1e-9) (best = o), (moved = true);
      else of[key] = was;
    }
    return moved;
  };
  for (let sweep = 0; sweep < SWEEPS; sweep++) {
    let moved = false;
    for (const n of names) moved = tune(w, n, GRID) || moved;
    for (const c of classes) moved = tune(priors, c, PRIOR_GRID) || moved;
    if (!moved) break;
  }
  return { w, priors };
}

const fold = (repo: string, folds: number, seed: number) => createHash('sha1').update(`${seed}:${repo}`).digest().readUInt32BE(0) % folds;

function main(): number {
  const args = process.argv.slice(2);
  let folds = 2;
  let seed = 1;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--folds') folds = Number(args[++i]);
    else if (args[i] === '--seed') seed = Number(args[++i]);
    else files.push(args[i]!);
  }
  if (files.length === 0 || !Number.isInteger(folds) || folds < 2) {
    process.stderr.write('usage: node dist/evals/issues/learn-weights.js <report.json>... [--folds N ≥ 2] [--seed S]\n');
    return 2;
  }
  const tasks: Task[] = [];
  for (const f of files) {
    const report = JSON.parse(readFileSync(f, 'utf8')) as { results: IssueResult[] };
    for (const r of report.results) {
      if (!r.lists) continue;
      // Reports before path classes kept each file's factor: its value stands for its class.
      const old = (r.lists as unknown as { priors?: Record<string, number> }).priors;
      const classes = r.lists.classes ?? Object.fromEntries(Object.entries(old ?? {}).map(([p, f]) => [p, f === 1 ? 'source' : `factor-${f}`]));
      tasks.push({ repo: r.repo, gold: r.gold, lists: r.lists.lists, classes });
    }
  }
  if (tasks.length === 0) {
    process.stderr.write('learn-weights: no task in these reports has its lists (run eval:issues with --json on a build that keeps them)\n');
    return 2;
  }
  const names = [...new Set(tasks.flatMap((t) => t.lists.map((l) => l.name)))].sort();
  const classes = [...new Set(tasks.flatMap((t) => Object.values(t.classes)))].filter((c) => c !== 'source').sort();
  const factorOf = (c: string) => SHIPPED_FACTORS[c] ?? Number(c.slice('factor-'.length));
  const shipped = { w: Object.fromEntries(names.map((n) => [n, 1])), priors: Object.fromEntries([...classes.map((c) => [c, factorOf(c)]), ['source', 1]]) };
  const f3 = (s: IssueScores) => `Acc@1 ${s.acc[1].toFixed(3)}  Acc@5 ${s.acc[5].toFixed(3)}  Acc@10 ${s.acc[10].toFixed(3)}  MRR ${s.rr.toFixed(3)}`;
  const heldOut: IssueScores[] = [];
  const asShipped: IssueScores[] = [];
  for (let k = 0; k < folds; k++) {
    const test = tasks.filter((t) => fold(t.repo, folds, seed) === k);
    const train = tasks.filter((t) => fold(t.repo, folds, seed) !== k);
    if (test.length === 0 || train.length === 0) continue;
    const learned = learn(train, names, classes, shipped);
    const repos = [...new Set(test.map((t) => t.repo))].sort();
    process.stdout.write(`fold ${k + 1}/${folds}: held out ${repos.length} repositories (${test.length} tasks): ${repos.join(', ')}\n`);
    process.stdout.write(`  train ${train.length} tasks, learned: ${JSON.stringify(learned)}\n`);
    for (const t of test) {
      heldOut.push(scoreIssue(fuse(t, learned.w, learned.priors), t.gold));
      asShipped.push(scoreIssue(fuse(t, shipped.w, shipped.priors), t.gold));
    }
  }
  process.stdout.write(`\n${tasks.length} tasks, ${folds} folds by repository (seed ${seed})\n`);
  process.stdout.write(`as shipped:           ${f3(meanIssueScores(asShipped))}\n`);
  process.stdout.write(`learned, held out:    ${f3(meanIssueScores(heldOut))}\n`);
  const all = learn(tasks, names, classes, shipped);
  process.stdout.write(`learned on all tasks: ${f3(evaluate(tasks, all.w, all.priors))} (in-sample)\n  multipliers: ${JSON.stringify(all.w)}\n  priors: ${JSON.stringify(all.priors)}\n`);
  return 0;
}

process.exitCode = main();
