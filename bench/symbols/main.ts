/**
 * `npm run eval:symbols -- <git work tree or bare repo>[=name]... [--sample N] [--seed S] [--primary] [--json]`
 *
 * For each repository, how many of Universal Ctags' definitions `seek` finds as definition hits
 * at the right file and line (run-symbols.ts), per ctags language and overall (with
 * --primary, only each repository's language with the most definitions: one repository per
 * language, whatever else it vendors); a table on
 * stdout (or one JSON object with --json), progress on stderr. Needs `ctags` (Universal Ctags)
 * on PATH. Exit 2 on bad input: no repository, a bad option, a path that is not a git
 * repository, or no ctags.
 */
import { checkRepoArgs, intArg, UsageError } from '../recall/eval-args.js';
import { splitRepoArg } from '../recall/run-recall.js';
import { checkCtags, CtagsMissingError } from './ctags-tags.js';
import { evalSymbols, type RepoScore } from './run-symbols.js';

const USAGE = 'usage: npm run eval:symbols -- <git work tree or bare repo>[=name]... [--sample N] [--seed S] [--primary] [--json]';
/** Definitions checked per ctags language per repository: a few hundred give ±3 points. */
export const DEFAULT_SAMPLE = 400;
export const DEFAULT_SEED = 1;

function parseArgs(argv: string[]) {
  const repos: string[] = [];
  let sample = DEFAULT_SAMPLE;
  let seed = DEFAULT_SEED;
  let json = false;
  let primary = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json') json = true;
    else if (a === '--primary') primary = true;
    else if (a === '--sample') sample = intArg('sample', argv[++i], 1);
    else if (a === '--seed') seed = intArg('seed', argv[++i], 0);
    else if (a.startsWith('--')) throw new UsageError(`unknown option ${a}`);
    else repos.push(a);
  }
  checkRepoArgs(repos);
  return { repos, sample, seed, json, primary };
}

const pct = (found: number, of: number) => (of === 0 ? '—' : `${((100 * found) / of).toFixed(1)}%`);

export function summarize(scores: RepoScore[], primary = false) {
  const pick = (s: RepoScore) => (primary ? s.languages.toSorted((a, b) => b.definitions - a.definitions).slice(0, 1) : s.languages);
  const rows = scores.flatMap((s) => pick(s).map((l) => ({ repo: s.name, commit: s.commit, ...l })));
  const found = rows.reduce((a, r) => a + r.found, 0);
  const sampled = rows.reduce((a, r) => a + r.sampled, 0);
  return { rows, found, sampled, overall: sampled === 0 ? 0 : found / sampled };
}

async function main(): Promise<number> {
  let options;
  let ctags;
  try {
    ctags = checkCtags();
    options = parseArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError) && !(err instanceof CtagsMissingError)) throw err;
    process.stderr.write(`eval:symbols: ${err.message}\n${USAGE}\n`);
    return 2;
  }
  const log = (line: string) => process.stderr.write(`eval:symbols: ${line}\n`);
  const scores: RepoScore[] = [];
  for (const arg of options.repos) {
    const { path, name } = splitRepoArg(arg);
    scores.push(await evalSymbols(path, name, options.sample, options.seed, log));
  }
  const s = summarize(scores, options.primary);
  if (options.json) {
    process.stdout.write(JSON.stringify({ date: new Date().toISOString(), ctags, sample_per_language: options.sample, seed: options.seed, overall: s.overall, found: s.found, sampled: s.sampled, rows: s.rows }) + '\n');
  } else {
    process.stdout.write(`| repository | language | ctags definitions | sampled | found at file+line | same file, other line |\n|---|---|---:|---:|---:|---:|\n`);
    for (const r of s.rows) process.stdout.write(`| ${r.repo}@${r.commit} | ${r.language} | ${r.definitions} | ${r.sampled} | ${pct(r.found, r.sampled)} | ${r.otherLine} |\n`);
    process.stdout.write(`\noverall: ${s.found} of ${s.sampled} (${pct(s.found, s.sampled)}) — ${ctags}\n`);
    for (const r of s.rows) if (r.misses.length && r.found / r.sampled < 0.85) process.stderr.write(`eval:symbols: ${r.repo} ${r.language} misses: ${r.misses.join(' | ')}\n`);
  }
  return 0;
}

process.exitCode = await main();
