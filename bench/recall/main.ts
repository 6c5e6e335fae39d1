/**
 * `npm run eval:recall -- <git work tree or bare repo>... [--commits N] [--seed S] [--latency-files N] [--json]`
 *
 * Runs the recall eval (run-recall.ts) on each repository and prints a table (or one JSON
 * object with --json) on stdout; with --latency-files N, also `delegate`'s latency on the
 * bench's generated N-file brain (delegate-latency.ts); progress goes to stderr. Exit 2 on bad input: no repository,
 * a bad option, a path that is not a git repository, or no qualifying commit in any of them.
 */
import { formatText } from './report.js';
import { checkRepoArgs, intArg, UsageError } from './eval-args.js';
import { runRecall, type RecallOptions } from './run-recall.js';
import { summarizeRuns } from './summarize.js';
import { measureDelegateLatency } from './delegate-latency.js';

const USAGE = 'usage: npm run eval:recall -- <git work tree or bare repo>[=name]... [--commits N] [--seed S] [--latency-files N] [--json]';
export const DEFAULT_COMMITS = 30;
export const DEFAULT_SEED = 1;

function parseArgs(argv: string[]): RecallOptions & { json: boolean; latencyFiles: number } {
  const repos: string[] = [];
  let commits = DEFAULT_COMMITS;
  let seed = DEFAULT_SEED;
  let json = false;
  let latencyFiles = 0;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json') json = true;
    else if (a === '--commits') commits = intArg('commits', argv[++i], 1);
    else if (a === '--seed') seed = intArg('seed', argv[++i], 0);
    else if (a === '--latency-files') latencyFiles = intArg('latency-files', argv[++i], 0);
    else if (a.startsWith('--')) throw new UsageError(`unknown option ${a}`);
    else repos.push(a);
  }
  checkRepoArgs(repos);
  return { repos, commits, seed, json, latencyFiles };
}

async function main(): Promise<number> {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`eval:recall: ${err.message}\n${USAGE}\n`);
    return 2;
  }
  const started = Date.now();
  const runs = await runRecall(options, (line) => process.stderr.write(`eval:recall: ${line}\n`));
  const empty = runs.filter((r) => r.tasks.length === 0);
  for (const r of empty) process.stderr.write(`eval:recall: ${r.path}: no qualifying commits among ${r.commits} non-merge commits (a task needs 1–4 changed source files that exist in the parent and a message of at least 5 words)\n`);
  if (empty.length === runs.length) return 2;
  const log = (line: string) => process.stderr.write(`eval:recall: ${line}\n`);
  const latency = options.latencyFiles > 0 ? await measureDelegateLatency(options.latencyFiles, log) : null;
  const summary = summarizeRuns(runs, latency);
  const out = {
    date: new Date(started).toISOString(),
    seed: options.seed,
    commits_per_repo: options.commits,
    seconds: Math.round((Date.now() - started) / 1000),
    runtime: `${'Bun' in globalThis ? 'bun' : 'node'} ${process.version}`,
    repos: runs.map((r) => ({ name: r.name, commits: r.commits, qualifying: r.qualifying, tasks: r.tasks.length })),
    latency,
    ...summary,
    tasks: runs.flatMap((r) => r.tasks),
  };
  if (options.json) process.stdout.write(`${JSON.stringify(out)}\n`);
  else for (const line of formatText(out)) process.stdout.write(`${line}\n`);
  return 0;
}

process.exitCode = await main();
