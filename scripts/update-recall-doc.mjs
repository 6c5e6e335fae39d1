// Maintainer script behind `npm run eval:recall:doc -- <repo>...`: runs the built recall eval
// once, for real (with delegate's latency on the bench's 5000-file brain), and writes
// docs/recall.md from its JSON, so the numbers in the doc are the numbers the code produced.
// Only aggregates and repository names go into the doc: no code, no commit text.
//
//   npm run eval:recall:doc -- <git work tree or bare repo>... [--commits N] [--seed S]
//   node scripts/update-recall-doc.mjs --from run.json     re-render from a saved --json output
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const main = fileURLToPath(new URL('../dist/bench/recall/main.js', import.meta.url));
const out = fileURLToPath(new URL('../docs/recall.md', import.meta.url));
const { formatMarkdown } = await import(new URL('../dist/bench/recall/report.js', import.meta.url).href);
const LATENCY_FILES = 5000;

const argv = process.argv.slice(2);
const from = argv.indexOf('--from');
let raw;
if (from >= 0) raw = readFileSync(argv[from + 1], 'utf8');
else {
  const args = [...argv, '--json', '--latency-files', String(LATENCY_FILES)];
  process.stderr.write(`update-recall-doc: node dist/bench/recall/main.js ${args.join(' ')}\n`);
  const r = spawnSync(process.execPath, [main, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 });
  if (r.status !== 0) {
    process.stderr.write(`update-recall-doc: the eval exited with ${r.status}; docs/recall.md left as it was\n`);
    process.exit(r.status ?? 1);
  }
  raw = r.stdout.toString('utf8');
  // Kept outside the project (it names commits of other repositories), for --from.
  const saved = join(tmpdir(), `gardener-recall-run-${Date.now()}.json`);
  writeFileSync(saved, raw);
  process.stderr.write(`update-recall-doc: the run is saved in ${saved} (re-render with --from)\n`);
}
const run = JSON.parse(raw);
for (const key of ['overall', 'by_repo', 'by_language', 'targets', 'repos']) {
  if (!(key in run)) throw new Error(`update-recall-doc: the eval output has no "${key}"`);
}

/**
 * The runs that chose the weights in src/ranking/weights.ts (overall, delegate): kept here by
 * hand because each was a different build of the code. The own-history repository grows with
 * every commit, so the task count moves by one or two between runs.
 */
const HISTORY = [
  ['A', 'before issue 7: delegate sums symbol hits (seek over the first 16 words)', 128, '0.23', '0.60', '0.53', '0.39', 'kept as the baseline'],
  ['B', 'one ranking module: OR query without stop words, fused text / path-word / symbol-word lists, one score per file', 129, '0.43', '0.71', '0.66', '0.56', 'kept'],
  ['C', 'path words weighted by how many paths hold them; tests count 0.5', 129, '0.47', '0.74', '0.68', '0.60', 'kept'],
  ['D', 'path words make candidates on their own; docs and examples count 0.5', 129, '0.47', '0.74', '0.70', '0.61', 'kept'],
  ['E1', 'prefix match from 3 letters instead of 4', 130, '0.48', '0.75', '0.70', '0.61', 'dropped: no gain, slower'],
  ['E3', 'RRF k = 30 instead of 10', 130, '0.47', '0.75', '0.69', '0.61', 'dropped: no gain'],
  ['F0', 'full-text query: rarest 12 words, common words left to the other lists (prefix queries)', 132, '0.47', '0.76', '0.71', '0.60', 'replaced by F'],
  ['F', 'as F0, word forms as exact terms instead of prefix queries', 132, '0.48', '0.76', '0.72', '0.61', 'kept: same recall, ~3× cheaper query'],
  ['N1', "a word in the file's own name counts 1.5×", 132, '0.48', '0.74', '0.70', '0.60', 'dropped'],
  ['G', 'the common-word cut applies only past 100 files (fixes small brains)', 133, '0.46', '0.74', '0.70', '0.60', 'kept (a correctness fix)'],
  ['K1', 'identifiers the task names as their own list, weight 1', 134, '0.51', '0.73', '0.69', '0.62', 'replaced by H'],
  ['H', 'as K1, weight 0.5', 134, '0.50', '0.75', '0.70', '0.62', 'kept'],
  ['L', 'named identifiers only in their own query (the rarest), cheaper path-word scan', 135, '0.49', '0.75', '0.70', '0.61', 'kept: same recall, cheaper'],
  ['K4', 'at most 8 words in the full-text query instead of 12', 136, '0.46', '0.74', '0.69', '0.58', 'dropped'],
  ['M', 'the full-text query leaves out words in more than 10% of files (was 25%), 80 text candidates (was 150)', 138, '0.49', '0.75', '0.71', '0.62', 'kept: same recall, cheaper'],
  ['T1', 'text list weight 1.5', 140, '0.50', '0.76', '0.71', '0.62', 'dropped: one task either way'],
  ['G0', 'as T1 reverted, on a grown own history (no import neighbours)', 150, '0.51', '0.78', '0.73', '0.63', 'the reference for NB'],
  ['G1', 'files the best 3 import (relative imports) as a list, weight 0.3', 150, '0.49', '0.79', '0.73', '0.63', 'replaced by NB'],
  ['NB', 'as G1, weight 0.15', 150, '0.51', '0.80', '0.74', '0.63', 'kept'],
  ['S2', 'held out: the final code (NB) on other commits (seed 2; BM25 hit@5 0.57, MRR 0.41)', 150, '0.52', '0.78', '0.72', '0.63', 'every target met, go included (0.80 vs 0.63)'],
  // Issue 18: eight repositories (underscore, backbone and starlette added), three decimals (one task is 0.004).
  ['R8', 'issue 18\'s eight repositories, before history (BM25: hit@5 0.658, recall@5 0.604, MRR 0.438)', 240, '0.604', '0.842', '0.796', '0.712', 'the reference for the history lists'],
  ['HL1', 'history lists: recency and churn 0.3, co-change 0.3, commit messages 0.5', 240, '0.654', '0.875', '0.835', '0.751', 'replaced by HL2'],
  ['HL2', 'as HL1, a root commit keeps no paths, tied files share a rank', 240, '0.654', '0.875', '0.832', '0.753', 'the reference for the on/off runs'],
  ['HL2-rec0', 'HL2 without recency and churn', 240, '0.650', '0.858', '0.817', '0.751', 'its part: 4 tasks at hit@5, recall@5 +0.015'],
  ['HL2-co0', 'HL2 without co-change', 240, '0.646', '0.875', '0.828', '0.750', 'its part: 2 tasks at hit@1, recall@5 +0.004'],
  ['HL2-msg0', 'HL2 without commit messages', 240, '0.637', '0.871', '0.828', '0.740', 'its part: 4 tasks at hit@1, 1 at hit@5, MRR +0.013'],
  ['HL2-rec6', 'HL2, recency and churn 0.6', 240, '0.658', '0.867', '0.828', '0.756', 'dropped: 2 tasks fewer at hit@5'],
  ['HL2-co6', 'HL2, co-change 0.6', 240, '0.637', '0.875', '0.835', '0.744', 'dropped: 4 tasks fewer at hit@1'],
  ['HL2-msg1', 'HL2, commit messages 1', 240, '0.671', '0.875', '0.834', '0.766', 'kept'],
  ['HL3', 'as HL2-msg1; co-change and messages name their best 20 / 30 files only (bounded cost)', 240, '0.675', '0.879', '0.836', '0.769', 'kept: the final code'],
  ['HL3-msg15', 'HL3, commit messages 1.5', 240, '0.642', '0.883', '0.836', '0.749', 'dropped: 8 tasks fewer at hit@1, chi level with BM25'],
  ['HL3-text2', 'HL3, text list 2', 240, '0.642', '0.863', '0.824', '0.748', 'dropped'],
  ['HL3-sb2', 'HL3, text list 2 in a brain of at most 150 files', 240, '0.642', '0.871', '0.830', '0.750', 'dropped: with history it costs 8 tasks at hit@1'],
  ['NH', 'without history (a root that is not a git work tree): R8\'s ranking', 240, '0.604', '0.842', '0.796', '0.712', 'backbone 27 of 30 against BM25\'s 28'],
  ['NH-sb2', 'without history, text list 2 in a brain of at most 150 files', 240, '0.633', '0.846', '0.801', '0.727', 'kept (only without history): backbone 28, hit@1 +7 tasks, httpx 25 → 24'],
  ['HS2-R8', 'held out, before history: R8\'s code on the seed 2 commits', 240, '0.562', '0.838', '0.805', '0.687', 'history adds 19 tasks at hit@5 on them'],
  ['HS2', 'held out: the final code (HL3) on other commits (seed 2; BM25 hit@5 0.625, recall@5 0.590, MRR 0.397)', 240, '0.629', '0.917', '0.881', '0.757', 'every target met (1.47× / 1.49× / 1.90×), every repository above BM25'],
];

/** Missed targets, named from the run; the reading of why is from the analysis of late 2026. */
function missedSection() {
  const missed = run.targets.filter((t) => !t.met);
  if (missed.length === 0) return '**Every target is met in this run.**';
  return [
    '### Missed in this run',
    '',
    ...missed.map((t) => `- ${t.target}: ${t.measured}.`),
    '',
    'Read at the time of writing (late 2026, same seed): chi\'s remaining delegate misses are tasks whose answer file',
    'does not hold the task\'s words before the change (the change adds what the task names, or the file spells the',
    'word differently); BM25 misses most of the same ones, and its hit@5 × 1.1 asks for 28 of 30.',
    'Latency is timed on whatever machine runs the eval: on the 2-core machine shared with other sessions',
    '(load average ~10) where this page was written, the same code measured a p50 of 16 to 103 ms between runs.',
  ].join('\n');
}

/** bench/history-cost.ts, run by hand (the doc's eval does not run it): what the history lists cost. */
const HISTORY_COST = `
What history costs (\`node dist/bench/history-cost.js\`, 2026-12-01, node v20.20.2, on the 2-core
machine shared with other sessions): the bench's generated 5000-file repository with 10,000
commits written on top of it by \`git fast-import\` (each editing 1–4 files), through the real
tick (mining in the pool's detect worker, storing in the writer). The final code at load average
~6, and in brackets an earlier build of the lists at load average ~10:

| measure | target | measured |
| :-- | --: | --: |
| history index for 10,000 commits built | ≤ 10 s | 0.78 s (2.08 s) |
| its update after one new commit | ≤ 100 ms | 33 ms (39 ms) |
| brain size growth | ≤ 20% | +4.3%, 42.0 → 43.8 MB (+4.3%) |
| \`delegate\` p50 / p99 with history, 100 tasks | p50 ≤ 50 ms | 14.8 / 71 ms (42.3 / 295 ms) |
| the same tasks interleaved with the history lists off | | 10.3 / 53 ms (32.1 / 220 ms) |

On real brains the lists cost a few milliseconds a task: on hono's (486 files, 2,700 commits)
ranking alone took 7.2 ms at p50 with them and 1.4 ms without (recency 2.3 ms, co-change 2.6 ms,
messages 2.3 ms on average), over its 200 newest commit subjects.
`;

const row = (cells) => `| ${cells.join(' | ')} |`;
const table = (header, rows, align) => [row(header), row(align), ...rows.map(row)].join('\n');
const lat = run.latency;

const doc = `# Recall: does \`delegate\` find the files a change is made in?

<!-- Written by scripts/update-recall-doc.mjs from a real run of the recall eval. Do not edit by hand: run \`npm run eval:recall:doc -- <repos>\`. -->

An agent asks Gardener "where do I make this change?". This page measures how often the answer
is right, on real changes: for sampled commits of public repositories (and of this project),
the commit message is the task, the source files the commit changed are the answer, and the
parent commit's tree is what the brain has mapped. \`delegate\` and \`seek\` (code scope, the task as
query) are asked through \`dispatchTool\`, as a transport would; a plain BM25 over whole files is
computed in the same run over the same files as the baseline to beat (issue 7).

- **Date**: ${run.date}, ${run.runtime}, ${run.seconds} s for the whole run
- **Command**: \`npm run eval:recall -- <repos> --commits ${run.commits_per_repo} --seed ${run.seed} --latency-files ${LATENCY_FILES}\`

## Repositories

${table(
  ['repository', 'non-merge commits', 'qualifying', 'sampled tasks'],
  run.repos.map((r) => [r.name, String(r.commits), String(r.qualifying), String(r.tasks)]),
  [':--', '--:', '--:', '--:'],
)}

The public repositories are full-history clones (hono: TypeScript; axios, underscore and backbone:
JavaScript, the last two older codebases whose logic sits in one large file; httpx and starlette:
Python; chi: Go); the last row is this project's own history, which CI has. Nothing of them is
kept in the project: the eval clones each into a temporary folder and removes it.

## Results

*d / s / b*: \`delegate\` / \`seek\` / BM25. hit@k: an answer file among the first k; recall@5: the
share of answer files among the first 5; MRR@10: 1 / rank of the first answer file (0 past 10).
*answer tokens*: the compact JSON of \`delegate\`'s answer / 4, against its default budget of 4000.

${formatMarkdown(run)}

${lat ? `\`delegate\` on the bench's generated ${lat.files}-file brain (the \`gardener bench\` repository), ${lat.tasks} task-like sentences of eight words drawn from its own names and comments, each timed alone through \`dispatchTool\`: **p50 ${lat.p50_ms.toFixed(1)} ms**, p99 ${lat.p99_ms.toFixed(1)} ms${lat.issue_p50_ms !== undefined ? `; as many issue-length tasks (a title, three sentences, a code block of its names, an error line and a traceback frame naming one of its files; the issue lists asked too): **p50 ${lat.issue_p50_ms.toFixed(1)} ms**, p99 ${lat.issue_p99_ms.toFixed(1)} ms` : ''}.` : ''}

${missedSection()}

## How the eval works

- **Sampling** (deterministic: the qualifying commits ordered by a hash of seed and sha): non-merge
  commits that changed 1–4 source files of a language Gardener extracts (TypeScript, JavaScript,
  Python, Go, Rust, Java), not counting tests, docs, examples, fixtures or generated copies
  (\`dist/\`, \`deno_dist/\`, \`*.min.js\`, \`*.d.ts\`…); every one of them present in the parent; a
  cleaned message (no PR numbers, trailers, links or mentions) of at least 5 words; not a
  dependency bump, release, revert or format-only change (by message, and a whitespace-only diff).
  "Qualifying" counts the commits that pass before the whitespace check, which runs on the sample.
- **Brains**: one clone per repository; each task checks out its parent and one tick brings the
  brain up to date (the first ingests everything, later ones what the checkout changed), its
  history lists included: mined up to the parent, so the task's own commit is never in them.
- **BM25 baseline**: our own (\`bench/recall/bm25.ts\`, checked against scores computed by hand in
  \`test/recall-bm25.test.ts\`): whole files, path + content, identifiers split on camelCase and
  snake_case, k1 = 1.2, b = 0.75, Lucene idf, no stop words, over the files the brain maps.
- **Language** of a task: that of its first answer file.

## How the weights were chosen

Overall numbers for \`delegate\` (BM25 in the same runs: hit@5 0.57–0.63, MRR 0.40–0.45, up to run S2 on issue 7's five repositories), runs made
one after another while the ranking module (\`src/ranking/\`) was built; each weight in
\`src/ranking/weights.ts\` names the run that chose it. One task is 0.008 overall.

${table(
  ['run', 'change', 'tasks', 'hit@1', 'hit@5', 'recall@5', 'MRR@10', ''],
  HISTORY.map((h) => h.map(String)),
  [':--', ':--', '--:', '--:', '--:', '--:', '--:', ':--'],
)}

What the ranking does now (\`src/ranking/rank-files.ts\`): the whole task is read; stop words and
common task verbs (add, fix, make, support, allow…) are dropped; one score per file, fused by
reciprocal rank from these lists: a full-text bm25 over path, names and content (the task's rarest
words and their forms), path words (identifiers split, weighted by how many paths hold them), the
words of the file's definitions' names (each word once per file, however many definitions carry
it), and the files holding identifiers the task names; files of matching notes and the files the
best three import (relative imports) join as lists of their own, and so do the history lists
(below) for a git root. Generated copies count 0.2, tests, docs and examples 0.5. \`seek\` ranks the same way for a
query of three words or more; a name or two keeps the exact-definition-first order
(\`src/ranking/seek-names.ts\`: \`EXACT_NAME_SCORE\` 3, \`PREFIX_NAME_SCORE\` 2, \`EXPORTED_NAME_BONUS\` 0.1, a
full-text hit |bm25| / (1 + |bm25|) < 1; ranks between groups, not measured weights: this eval's
tasks are sentences, and \`npm run eval:symbols\` checks names). Every path to \`seek\` (the tool, REST,
\`gardener seek\`, the library's \`seek\`) runs \`src/ranking/seek.ts\`: one query, one ranked answer.

## History lists (issue 18)

A git root's history, up to the commit the map is at and never past it, is ranking evidence of
its own (\`src/history/\` mines and stores it, \`src/ranking/history-lists.ts\` reads it):

- **recency and churn**: each of a file's newest 50 commits counts 0.5^(age / 200), age in commits
  back from the head, so a file that changes often and lately leads among the candidates;
- **co-change**: files that changed together with the best three candidates, each shared commit
  counting 1 / (its other files), divided by the square root of the partner's own churn (a
  changelog or an index that changes with everything rides on no pair); commits of more than 20
  files count not;
- **messages**: the words of past commit messages, in a full-text index of their own, asked the
  same query as the code; the files of the 30 best-matching commits (of at most 20 files) rank by
  the commit's rank and size.

Mining runs in the pool's detect worker at the end of a tick whose HEAD moved (\`git log
--no-merges --no-renames --name-only\` from the last mined head), and the writer stores it in one
transaction. Bounds: the newest **10,000** commits are kept (a 200,000-commit history costs what
10,000 cost: \`git log -n\` reads no further); a commit touching more than **100** paths (a
formatting sweep, a mass rename, a vendored tree) and a root commit (an import) keep their count
but no paths and no words. A shallow clone has no history: \`north\` and \`gardener status\` say
\`shallow\` and recall ranks without it. A mined head that is no longer an ancestor of HEAD (a
rebase, an amend, a checkout of an older commit) is mined again from scratch in one transaction,
never mixed with what was stored. A root that is not a git work tree gets none of these lists (the
small-brain weight below is the only change it sees).

Why whole-file BM25 came close on codebases of a few large files (backbone, underscore: 27 and
29 of 30 at hit@5 before history, BM25 28 and 28): the large file holds the logic, but only the
full-text list can see it. Its path is the project's name, so the path-word list never names it;
its definitions are object-literal methods (\`on: function (…)\`) that carry no task words, so the
symbol list rarely does; and each list gives one rank per file, so small files whose paths or
names carry a task word (\`test/events.js\`, \`docs/*.html\`, \`karma.conf.js\`) fill the head of
three lists while the large file heads one, where bm25's length normalisation also damps it.
History is the evidence such a file does have: it changes in nearly every commit (recency and
churn), and past messages name what it does. With it (run HL3): 30 and 30 of 30, hit@1 0.87 and
0.93 against BM25's 0.27 and 0.33. A brain without history (a root that is not a git work tree)
of at most 150 files gives the full-text list weight 2 instead of 1 (run NH-sb2: backbone 27 → 28
of 30, level with BM25, hit@1 +7 tasks over the eight repositories); with history the same change
costs (run HL3-sb2), so it applies only without. Left for the JavaScript scanner: backbone.js's
object-literal methods written \`name : function (…)\` are not definitions yet (20 found in its
1145 lines), which is why the symbol list cannot help there.
${HISTORY_COST}

Not measured: notes (the eval's brains hold none, so their weight is a guess), files that import
the best ones (only what they import is followed), and import neighbours in Go and Python, whose
imports name packages and modules rather than relative files.

## Reproduce

\`\`\`sh
npm run eval:recall -- <git work tree or bare repo>... [--commits 30] [--seed 1] [--latency-files 5000] [--json]
npm run eval:recall:doc -- <git work tree or bare repo>...    # re-run and rewrite this page
\`\`\`

A repository with no qualifying commit is reported on stderr; when none of them has one, the eval
exits with 2 (so does a path that is not a git repository, or a bad option).
`;

// The issue eval's and the refs eval's sections (npm run eval:issues:doc, eval:refs) are written
// from their own runs: keep them as they are, from the first of their markers on.
const KEPT_SECTIONS = ['<!-- eval:issues section', '<!-- eval:refs section'];
let kept = '';
try {
  const old = readFileSync(out, 'utf8');
  const at = Math.min(...KEPT_SECTIONS.map((m) => old.indexOf(m)).filter((i) => i >= 0));
  if (Number.isFinite(at)) kept = '\n' + old.slice(at);
} catch {
  // No page yet: nothing to keep.
}
writeFileSync(out, doc + kept);
process.stderr.write(`update-recall-doc: wrote ${out}\n`);
