// Maintainer script behind `npm run eval:issues:doc -- --from <report.json>`: writes the issue
// eval's section of docs/recall.md from a saved run of `npm run eval:issues -- ... --json
// <report.json>` (the run takes 15-25 minutes on 2 cores, so it is run once and rendered here),
// so the numbers on the page are the numbers the code produced. Only aggregates, dataset and
// repository names go into the page: no code, no issue text. The section sits between its own
// marker and the refs eval's; update-recall-doc.mjs keeps it when it rewrites the page.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const out = fileURLToPath(new URL('../docs/recall.md', import.meta.url));
const { formatSummary } = await import(new URL('../dist/evals/issues/report.js', import.meta.url).href);
const MARKER = '<!-- eval:issues section';
const NEXT = '<!-- eval:refs section';

const argv = process.argv.slice(2);
const from = argv.indexOf('--from');
if (from < 0 || !argv[from + 1]) {
  process.stderr.write('usage: npm run eval:issues:doc -- --from <report.json written by eval:issues --json>\n');
  process.exit(2);
}
const run = JSON.parse(readFileSync(argv[from + 1], 'utf8'));
for (const key of ['overall', 'byLanguage', 'byRepo', 'targets', 'results', 'skipped']) {
  if (!(key in run)) throw new Error(`update-issues-doc: the report has no "${key}"`);
}
const runs = JSON.parse(readFileSync(fileURLToPath(new URL('./issues-runs.json', import.meta.url)), 'utf8'));

const row = (cells) => `| ${cells.join(' | ')} |`;
const repos = run.byRepo.length;
const skippedWhy = new Map();
for (const s of run.skipped) {
  const why = s.why.replace(/ of [\w.-]+\/[\w.-]+ under .*/, '').replace(/\(.*\)$/, '').replace(/[0-9a-f]{12}/, '…').trim();
  skippedWhy.set(why, (skippedWhy.get(why) ?? 0) + 1);
}
const sizes = run.results.map((r) => r.answerChars).sort((a, b) => a - b);

const section = `${MARKER}: written by scripts/update-issues-doc.mjs from a saved run of \`npm run eval:issues\`; update-recall-doc.mjs keeps it as it is. -->
## Real issues: does \`delegate\` find the file an issue is about? (issue 52)

The first question an agent asks on a task is where the change goes, and the field measures it on
real issue reports: the issue text as filed is the query, the files its fixing patch changes are
the answer, and the repository at the issue's base commit is what is searched. This section asks
\`delegate\` (through \`dispatchTool\`, its default 4000-token budget) exactly that, beside BM25
over the same repository's code files in the same run.

- **Dataset**: SWE-bench Multilingual, test split (300 tasks from 41 repositories; C, C++, Go,
  Java, JavaScript, TypeScript, PHP, Ruby, Rust). Left out: redis/redis and fmtlib/fmt (kept for
  independent checks), valkey-io/valkey (a fork of redis), and apache/druid, apache/lucene,
  facebook/docusaurus, mrdoob/three.js (their snapshots are past the fetch limit). The harness
  reads any rows in the SWE-bench format (JSON Lines, a JSON array, or the dataset's parquet); no
  row, issue text or code of them is kept in this project.
- **Date**: ${run.date}, ${run.runtime}, ${run.seconds} s for ${run.results.length} tasks from ${repos} repositories
  (${run.skipped.length} rows not run: ${[...skippedWhy].map(([w, n]) => `${n} ${w}`).join('; ')}).
- **Command**: \`npm run eval:issues -- --tasks <rows.parquet> --repos <folder of clones> --exclude redis/redis,fmtlib/fmt,valkey-io/valkey --json <report.json>\`
- **Gold files**: the code files the patch changes that exist at the base commit (not tests,
  docs, examples, benchmarks, a tool's dot-file settings, or files the fix creates); a task
  fixed in two files needs both in the first k for Acc@k, as the retrieval papers count it.
- **BM25**: \`bench/recall/bm25.ts\` (k1 1.2, b 0.75, identifiers split) over whole code files,
  tests included, docs and data not: the baseline as retrievers are compared with it.
- **Answer size**: the compact JSON of \`delegate\`'s answer: median ${sizes[Math.floor(sizes.length / 2)]} characters,
  largest ${sizes.at(-1)} (the budget is 16,000).

${formatSummary(run, run.skipped.length).join('\n')}

Published figures for comparison (file Acc@5 on SWE-bench Lite's 274 Python issues, not this
set): BM25 61.7, CodeRankEmbed (137M) 84.7, SweRankEmbed-Small 90.9, SweRankEmbed-Large 94.2.
This set's BM25 is far lower (its repositories carry thousands of test fixtures and snapshots
that match an issue's pasted code), so the ratio to BM25 in the same run is the comparable number.

### How the issue lists were chosen

Runs on the whole set, one after another, each against the one before (one task is 0.004).

${row(['run', 'change', 'Acc@1', 'Acc@5', 'Acc@10', 'MRR', ''])}
${row([':--', ':--', '--:', '--:', '--:', '--:', ':--'])}
${runs.runs.map((r) => row([r.run, r.change, r.acc1, r.acc5, r.acc10, r.mrr, r.kept])).join('\n')}

${runs.notes.join('\n')}
`;

let page = readFileSync(out, 'utf8');
const at = page.indexOf(MARKER);
const next = page.indexOf(NEXT);
if (at >= 0) page = page.slice(0, at) + section + '\n' + (next > at ? page.slice(next) : '');
else if (next >= 0) page = page.slice(0, next) + section + '\n' + page.slice(next);
else page = `${page}\n${section}`;
writeFileSync(out, page);
process.stderr.write(`update-issues-doc: wrote the issue eval's section of ${out}\n`);
