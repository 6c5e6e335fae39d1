// Maintainer script behind `npm run bench:doc` (pino's update-bench-doc habit): runs the built
// `gardener bench --json` once, for real, and writes docs/benchmarks.md from its output, so the
// numbers in the docs are the numbers the code produced (MCP cold initialize and seek latency
// included). The page itself is rendered by bench/report/markdown.ts, imported from dist (run
// `npm run build` first; `npm run bench:doc` does). Progress goes to stderr.
//
// The bench runs on the Node that runs npm, then again on Node 24 (the `node` dev dependency,
// node:sqlite) when that is another runtime, and the page puts the two drivers side by side;
// then on Bun (the `bun` dev dependency, bun:sqlite) for its memory, which the page shows per
// runtime in one table. A Bun run that fails is named on the page, not fatal.
//
//   npm run bench:doc                      sizes 10,100,1000, 5000 base files, 3 runs
//   node scripts/update-bench-doc.mjs --from run.json [--from-node24 run24.json] [--from-bun runbun.json] [--before old.json]
//                                          (--before puts an earlier run's stages beside this one's)
//                                          re-render from saved --json outputs
//   ... --from-large large.json            also fill "Large repositories" from a saved
//                                          `bench --large-repo --json` run (else the page keeps its own)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = fileURLToPath(new URL('../dist/src/cli/main.js', import.meta.url));
const out = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
const { BENCH_DOC_ARGS: ARGS, formatMarkdown } = await import(new URL('../dist/bench/report/markdown.js', import.meta.url).href);
const { keptLargeRepoSection, renderLargeRepoSection } = await import(new URL('../dist/bench/report/large-repo-markdown.js', import.meta.url).href);

const NODE_24 = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));
const BUN = fileURLToPath(new URL('../node_modules/.bin/bun', import.meta.url));

/** The bench's JSON on `runtime`; with `optional`, a failed run is `{ failed: why }` instead of the end of the script. */
function runBench(runtime = process.execPath, optional = false) {
  process.stderr.write(`update-bench-doc: ${runtime} ${['dist/src/cli/main.js', ...ARGS].join(' ')}\n`);
  const r = spawnSync(runtime, [cli, ...ARGS], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 16 << 20 });
  if (optional && (r.error || r.status !== 0)) return JSON.stringify({ failed: r.error ? r.error.message : `the bench exited with ${r.status}` });
  if (r.error) throw r.error;
  if (r.status !== 0) {
    process.stderr.write(`update-bench-doc: the bench exited with ${r.status}; docs/benchmarks.md left as it was\n`);
    process.exit(r.status ?? 1);
  }
  return r.stdout.toString('utf8');
}

const argAfter = (flag) => (process.argv.indexOf(flag) > 0 ? process.argv[process.argv.indexOf(flag) + 1] : undefined);
const from = argAfter('--from');
const raw = from ? readFileSync(from, 'utf8') : runBench();
const bench = JSON.parse(raw);
/** The same bench on the other driver (Node 24, node:sqlite), when there is one. */
const from24 = argAfter('--from-node24');
const node24Runs = from24 || (!from && existsSync(NODE_24) && bench.machine?.sqlite_driver !== 'node:sqlite');
const other = node24Runs ? JSON.parse(from24 ? readFileSync(from24, 'utf8') : runBench(NODE_24)) : null;
/** The same bench on Bun (bun:sqlite), for the memory table; `{ failed }` when it did not finish. */
const fromBun = argAfter('--from-bun');
const bunRuns = fromBun || (!from && existsSync(BUN));
const bun = bunRuns ? JSON.parse(fromBun ? readFileSync(fromBun, 'utf8') : runBench(BUN, true)) : null;
for (const key of ['runs', 'peak_rss_mb', 'reference']) {
  if (!(key in bench)) throw new Error(`update-bench-doc: the bench output has no "${key}"`);
}

const fromLarge = argAfter('--from-large');
const largeSection = fromLarge ? renderLargeRepoSection(JSON.parse(readFileSync(fromLarge, 'utf8'))) : keptLargeRepoSection(existsSync(out) ? readFileSync(out, 'utf8') : '');

const beforeFile = argAfter('--before');
const before = beforeFile ? JSON.parse(readFileSync(beforeFile, 'utf8')) : null;

const doc = formatMarkdown(bench, { other, bun, largeSection, before });
writeFileSync(out, doc);
process.stderr.write(`update-bench-doc: wrote ${out}\n`);
