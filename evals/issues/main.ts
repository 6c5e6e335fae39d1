/**
 * `npm run eval:issues -- --tasks <rows.jsonl|.json|.parquet> --repos <folder> [--exclude owner/name,...]
 *   [--only owner/name,...] [--per-repo N] [--json <out.json>]`
 *
 * Localisation on real issues (issue 52): each row is a SWE-bench task (repository, base
 * commit, issue text, fixing patch); `delegate` is asked the issue text at the base commit and
 * scored on the files the fix changes, beside BM25 over whole files. Tables on stdout, progress
 * on stderr, every task's rankings in the --json file. Exit 2 on bad input (a missing option,
 * an unreadable or malformed tasks file, a repositories folder that is not one, no task left to run).
 */
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { UsageError, intArg } from '../../bench/recall/eval-args.js';
import { readTasks } from './tasks.js';
import { runIssues } from './run-issues.js';
import { formatSummary, summarize } from './report.js';

const USAGE = 'usage: npm run eval:issues -- --tasks <rows.jsonl|.json|.parquet> --repos <folder of clones> [--exclude owner/name,...] [--only owner/name,...] [--per-repo N] [--json <out.json>]';

interface Args {
  tasks: string;
  repos: string;
  exclude: Set<string>;
  only?: Set<string>;
  perRepo?: number;
  json?: string;
}

const list = (v: string | undefined, name: string) => {
  if (!v) throw new UsageError(`--${name} needs a comma-separated list of owner/name`);
  return new Set(v.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean));
};

function parseArgs(argv: string[]): Args {
  let tasks: string | undefined;
  let repos: string | undefined;
  const out: Partial<Args> = { exclude: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--tasks') tasks = argv[++i];
    else if (a === '--repos') repos = argv[++i];
    else if (a === '--exclude') out.exclude = list(argv[++i], 'exclude');
    else if (a === '--only') out.only = list(argv[++i], 'only');
    else if (a === '--per-repo') out.perRepo = intArg('per-repo', argv[++i], 1);
    else if (a === '--json') {
      out.json = argv[++i];
      if (!out.json) throw new UsageError('--json needs a file to write');
    } else throw new UsageError(`unknown argument ${a}`);
  }
  if (!tasks) throw new UsageError('--tasks is required: a file of SWE-bench rows');
  if (!repos) throw new UsageError('--repos is required: the folder the repositories are cloned in');
  if (!existsSync(repos) || !statSync(repos).isDirectory()) throw new UsageError(`--repos ${repos} is not a folder`);
  return { ...out, tasks, repos } as Args;
}

async function main(): Promise<number> {
  const log = (line: string) => process.stderr.write(`eval:issues: ${line}\n`);
  let args: Args;
  let tasks;
  try {
    args = parseArgs(process.argv.slice(2));
    tasks = await readTasks(args.tasks);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`eval:issues: ${err.message}\n${USAGE}\n`);
    return 2;
  }
  const started = Date.now();
  const { results, skipped } = await runIssues({ tasks, reposDir: args.repos, exclude: args.exclude, only: args.only, perRepo: args.perRepo }, log);
  for (const s of skipped) log(`skipped ${s.id}: ${s.why}`);
  if (results.length === 0) {
    log('no task could be run (see the reasons above)');
    return 2;
  }
  const summary = summarize(results);
  const report = {
    date: new Date(started).toISOString(),
    runtime: `${'Bun' in globalThis ? 'bun' : 'node'} ${process.version}`,
    seconds: Math.round((Date.now() - started) / 1000),
    tasksFile: args.tasks,
    ...summary,
    skipped,
    results,
  };
  if (args.json) writeFileSync(args.json, `${JSON.stringify(report)}\n`);
  process.stdout.write(`${[`${results.length} tasks from ${summary.byRepo.length} repositories in ${report.seconds} s (${report.runtime})`, '', ...formatSummary(summary, skipped.length)].join('\n')}\n`);
  return 0;
}

process.exitCode = await main();
