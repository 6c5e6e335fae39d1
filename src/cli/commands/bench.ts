/**
 * `gardener bench [--full] [--sizes 10,100,1000] [--base-files 5000] [--runs 3] [--no-mcp] [--json]`:
 * the cost of 10/100/1000-file bursts on a temporary repository, beside the floor and the
 * reference numbers, then MCP cold `initialize` and server-side `seek` latency (unless
 * `--no-mcp`). Without `--full` it is the quick bench (`npm start`, bench/options.ts); with it,
 * also the watcher, the owner, refs/impact and the references' cost.
 * `--large-repo` runs the large-repository case instead (bench/large-repo.ts: init, idle, a
 * burst and the watcher at `--base-files`, beside the 5000-file repository), and `--repo-cache DIR`
 * keeps its generated repositories between runs.
 * Options are checked before anything is made; progress goes to stderr so stdout is only the
 * table, or only the JSON object.
 */
import { parseBenchOptions } from '../../../bench/options.js';
import { printJson, printLine } from '../output.js';

export async function bench(opts: Record<string, string | boolean>): Promise<void> {
  const options = parseBenchOptions({ sizes: opts.sizes, baseFiles: opts.baseFiles, runs: opts.runs, mcp: opts.mcp, largeRepo: opts.largeRepo, repoCache: opts.repoCache, full: opts.full });
  const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
  if (options.largeRepo) {
    const [{ runLargeRepoBench }, { toLargeRepoJson, formatLargeRepoText }, { describeMachine }] = await Promise.all([
      import('../../../bench/large-repo.js'),
      import('../../../bench/large-repo-report.js'),
      import('../../../bench/run-bench.js'),
    ]);
    const result = await runLargeRepoBench(options, log);
    const json = toLargeRepoJson(result, describeMachine(result.poolThreads), options.runs);
    if (opts.json) return printJson(json);
    for (const line of formatLargeRepoText(json)) printLine(line);
    return;
  }
  const [{ runBench }, { toJson, formatText }] = await Promise.all([
    import('../../../bench/run-bench.js'),
    import('../../../bench/report/index.js'),
  ]);
  const result = await runBench(options, log);
  const json = toJson(result);
  if (opts.json) return printJson(json);
  for (const line of formatText(json)) printLine(line);
}
