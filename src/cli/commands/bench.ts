/**
 * `gardener bench [--sizes 10,100,1000] [--base-files 5000] [--runs 3] [--no-mcp] [--json]`: the
 * cost of 10/100/1000-file bursts on a temporary repository, beside the floor and the reference
 * numbers, then MCP cold `initialize` and server-side `seek` latency (unless `--no-mcp`).
 * Options are checked before anything is made; progress goes to stderr so stdout is only the
 * table, or only the JSON object.
 */
import { parseBenchOptions } from '../../../bench/options.js';
import { printJson, printLine } from '../output.js';

export async function bench(opts: Record<string, string | boolean>): Promise<void> {
  const options = parseBenchOptions({ sizes: opts.sizes, baseFiles: opts.baseFiles, runs: opts.runs, mcp: opts.mcp });
  const [{ runBench }, { toJson, formatText }] = await Promise.all([
    import('../../../bench/run-bench.js'),
    import('../../../bench/report/index.js'),
  ]);
  const result = await runBench(options, (line) => process.stderr.write(`bench: ${line}\n`));
  const json = toJson(result);
  if (opts.json) return printJson(json);
  for (const line of formatText(json)) printLine(line);
}
